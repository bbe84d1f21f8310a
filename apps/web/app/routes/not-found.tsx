// Any path no route answers (issue 24 item 7): the not-found page with status 404, inside the
// site's header and footer, not a redirect home (a mistyped link should say so, and search
// engines should not index it as the home page).
import { data } from 'react-router'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/not-found.ts'
import PageNotFound from './page-not-found.tsx'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Page not found',
    description: 'The page you asked for does not exist.',
    noIndex: true,
  })

export function loader() {
  return data(null, { status: 404 })
}

export function action() {
  return data(null, { status: 404 })
}

export default PageNotFound
