import { redirect } from 'react-router'

// Console pages that are not built yet lead to the console home.
export function loader() {
  return redirect('/console')
}
