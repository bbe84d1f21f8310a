import { redirect } from 'react-router'

// SPEC §2.1: any other path redirects to /.
export function loader() {
  return redirect('/')
}

export function action() {
  return redirect('/')
}
