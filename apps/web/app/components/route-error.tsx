import { useEffect } from 'react'
import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { routeErrors } from '../lib/integrations/route-errors.ts'

/** The error boundary every route uses: a 404 says so, anything else is our fault. */
export function RouteErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  // A response (a 404 a loader threw) is an answer, not a fault; anything else is reported.
  useEffect(() => {
    if (!isRouteErrorResponse(error)) {
      console.error(error)
      routeErrors.report(error)
    }
  }, [error])
  return (
    <section className="section" data-testid="route-error">
      <div className="container">
        <p className="eyebrow">Error {status}</p>
        <h1>{status === 404 ? 'We could not find that' : 'This page failed to load'}</h1>
        <p className="lead">
          {status === 404
            ? 'It may have moved or never existed.'
            : 'Something went wrong on our side. Reload the page or try again in a minute.'}
        </p>
        <Link className="button is-primary" to="/">
          Go to the home page
        </Link>
      </div>
    </section>
  )
}
