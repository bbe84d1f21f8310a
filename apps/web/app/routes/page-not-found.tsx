import { Link } from 'react-router'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/page-not-found.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Page not found',
    description: 'The page you asked for does not exist.',
    noIndex: true,
  })

export default function PageNotFound() {
  return (
    <section className="section">
      <div className="container text-center">
        <p className="eyebrow">404</p>
        <h1>This page does not exist</h1>
        <p className="lead is-centered">
          The link may be old or mistyped. Everything Tessera offers is a click away.
        </p>
        <div className="button-row is-centered">
          <Link className="button is-primary" to="/">
            Go to the home page
          </Link>
          <Link className="button is-secondary" to="/ai-tools">
            Browse AI tools
          </Link>
        </div>
      </div>
    </section>
  )
}
