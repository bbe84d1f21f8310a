// The invitation link (/console/invitations/accept?token=…) that the API's acceptUrl points at:
// a signed-in user joins with one click; anyone else logs in or signs up and comes back here.
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { ErrorText } from '../../components/console/console-context.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { acceptInvitation, problemOf } from '../../lib/console-api.ts'
import { rememberOrg } from '../../lib/console-org.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/invitation-accept.ts'
import { requireConsoleUser } from './console.server.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Join an organisation', noIndex: true })

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireConsoleUser(request, context)
  return { user }
}

export default function InvitationAccept({ loaderData }: Route.ComponentProps) {
  const config = useConfig()
  const session = useSession()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [joined, setJoined] = useState<{ _id: string; name: string; role: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const accept = async () => {
    setBusy(true)
    setError(null)
    try {
      const answer = await acceptInvitation(session.client, config, token)
      // The console opens in the organisation just joined.
      rememberOrg(answer.organisation._id)
      setJoined(answer.organisation)
    } catch (reason) {
      setError(problemOf(reason))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="auth-card" data-testid="invitation-accept">
      <h1>Join an organisation</h1>
      {token === '' ? (
        <p>This link has no invitation in it. Ask for the link again.</p>
      ) : joined !== null ? (
        <>
          <p className="form-alert is-success" role="status" data-testid="invitation-joined">
            You joined {joined.name} as {joined.role}.
          </p>
          <Link to="/console/editor" className="button is-primary is-block" reloadDocument>
            Open its media library
          </Link>
        </>
      ) : (
        <>
          <p className="subtitle">
            Signed in as {loaderData.user.email}. The invitation must be for this email.
          </p>
          <ErrorText message={error} testId="invitation-error" />
          <button
            type="button"
            className="button is-primary is-block"
            onClick={() => void accept()}
            disabled={busy}
            data-testid="invitation-join"
          >
            {busy ? 'Joining…' : 'Accept the invitation'}
          </button>
        </>
      )}
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
