// The confirmation link of an address (/console/auth/verify-email?token=…): the sign-up address,
// or a new one the account moves to. Confirmed with one click (a link opened by a mail scanner
// does not use the token by itself).
import { useState } from 'react'
import { Link } from 'react-router'
import { AuthCard, AuthDone, AuthError, useLinkToken } from '../../components/console/auth-card.tsx'
import { useAccountApi } from '../../components/console/use-account-api.ts'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/verify-email.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Confirm your e-mail address', noIndex: true })

export default function VerifyEmail() {
  const account = useAccountApi()
  const token = useLinkToken()
  const [email, setEmail] = useState<string | null>(null)
  const { busy, error, run } = useAction()
  const confirm = () => run(async () => setEmail((await account.verifyEmail(token)).user.email))
  return (
    <AuthCard testId="verify-email" title="Confirm your e-mail address">
      {token === '' ? (
        <p>This link has no confirmation token in it. Open the link from the mail again.</p>
      ) : email !== null ? (
        <AuthDone testId="verify-done">
          {email} is confirmed: it is the address of your account.
        </AuthDone>
      ) : (
        <>
          <AuthError message={error} />
          <button
            type="button"
            className="button is-primary is-block"
            onClick={() => void confirm()}
            disabled={busy}
            data-testid="verify-confirm"
          >
            {busy ? 'Please wait…' : 'Confirm the address'}
          </button>
          <p className="auth-switch">
            <Link to="/console/auth/login">Log in</Link>
          </p>
        </>
      )}
    </AuthCard>
  )
}

export const ErrorBoundary = RouteErrorBoundary
