// A console path no page answers: the not-found page with status 404 in the console's frame
// (issue 24 item 7), with a way back to the console home.
import { data, Link } from 'react-router'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/not-found.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Page not found', noIndex: true })

export function loader() {
  return data(null, { status: 404 })
}

export function action() {
  return data(null, { status: 404 })
}

export default function ConsoleNotFound() {
  return (
    <section className="console-page text-center" data-testid="not-found">
      <p className="eyebrow">404</p>
      <h1>This page does not exist</h1>
      <p>The link may be old or mistyped.</p>
      <p>
        <Link className="button is-primary" to="/console" reloadDocument>
          Go to the console home
        </Link>
      </p>
    </section>
  )
}
