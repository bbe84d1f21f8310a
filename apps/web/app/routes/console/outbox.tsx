// The development outbox (decision 019): with no SMTP server configured, the mail the server
// would have sent is kept (the newest MAIL_OUTBOX_KEEP) and shown here to the operators named in
// OPERATOR_EMAILS — it holds other people's reset links, so nobody else reads it.

import { useEffect, useState } from 'react'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { accountApi } from '../../lib/account-api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { problemOf } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/outbox.ts'
import { requireConsoleUser } from './console.server.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Mail outbox', noIndex: true })

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireConsoleUser(request, context)
  return { user }
}

type Outbox = Awaited<ReturnType<ReturnType<typeof accountApi>['outbox']>>

export default function OutboxPage() {
  const config = useConfig()
  const session = useSession()
  const [outbox, setOutbox] = useState<Outbox | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    accountApi(session.client, config)
      .outbox()
      .then(setOutbox, (reason: unknown) => setError(problemOf(reason)))
  }, [session, config])
  return (
    <div className="console-panel is-wide" data-testid="outbox">
      <p className="eyebrow">Operators</p>
      <h1>Mail outbox</h1>
      {error !== null ? (
        <p className="form-alert is-error" role="alert" data-testid="outbox-error">
          {error}
        </p>
      ) : outbox === null ? (
        <p className="console-state" role="status">
          <span className="spinner" aria-hidden="true" /> Loading the outbox…
        </p>
      ) : outbox.mode === 'smtp' ? (
        <p data-testid="outbox-smtp">
          Mail leaves through the configured SMTP server: nothing is kept here.
        </p>
      ) : outbox.items.length === 0 ? (
        <p>No mail yet.</p>
      ) : (
        <>
          <p>
            No SMTP server is configured (SMTP_URL or SMTP_HOST), so mail is kept here and its links
            are written to the server log. Newest first.
          </p>
          <ul className="outbox-list" data-testid="outbox-list">
            {outbox.items.map((mail) => (
              <li key={mail._id} className="card settings-card" data-testid="outbox-mail">
                <p>
                  <strong>{mail.subject}</strong>
                  <br />
                  <small>
                    To {mail.to}, {new Date(mail.createdAt).toLocaleString()}
                  </small>
                </p>
                <pre className="outbox-text">{mail.text}</pre>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
