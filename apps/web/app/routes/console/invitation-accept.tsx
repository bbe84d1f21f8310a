// The invitation link (/console/invitations/accept?token=…) that the API's acceptUrl points at:
// a signed-in user joins with one click; anyone else logs in or signs up and comes back here.
import { useState } from 'react'
import { Link } from 'react-router'
import { AuthCard, useLinkToken } from '../../components/console/auth-card.tsx'
import { ErrorText } from '../../components/console/console-ui.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { acceptInvitation } from '../../lib/console-api.ts'
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
  const token = useLinkToken()
  const [joined, setJoined] = useState<{ _id: string; name: string; role: string } | null>(null)
  const { busy, error, run } = useAction()
  const accept = () =>
    run(async () => {
      const answer = await acceptInvitation(session.client, config, token)
      // The console opens in the organisation just joined.
      rememberOrg(answer.organisation._id)
      setJoined(answer.organisation)
    })
  return (
    <AuthCard testId="invitation-accept" title="Join an organisation">
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
    </AuthCard>
  )
}

export const ErrorBoundary = RouteErrorBoundary
