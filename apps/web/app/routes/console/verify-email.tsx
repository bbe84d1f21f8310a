// The confirmation link of an address (/console/auth/verify-email?token=…): the sign-up address,
// or a new one the account moves to. Confirmed with one click (a link opened by a mail scanner
// does not use the token by itself).
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { accountApi } from '../../lib/account-api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { problemOf } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/verify-email.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Confirm your e-mail address', noIndex: true })

export default function VerifyEmail() {
  const config = useConfig()
  const session = useSession()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [email, setEmail] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const confirm = async () => {
    setBusy(true)
    setProblem(null)
    try {
      setEmail((await accountApi(session.client, config).verifyEmail(token)).user.email)
    } catch (error) {
      setProblem(problemOf(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="auth-card" data-testid="verify-email">
      <h1>Confirm your e-mail address</h1>
      {token === '' ? (
        <p>This link has no confirmation token in it. Open the link from the mail again.</p>
      ) : email !== null ? (
        <>
          <p className="form-alert is-success" role="status" data-testid="verify-done">
            {email} is confirmed: it is the address of your account.
          </p>
          <a href="/console" className="button is-primary is-block">
            Open the console
          </a>
        </>
      ) : (
        <>
          {problem === null ? null : (
            <div className="form-alert is-error" role="alert" data-testid="auth-error">
              {problem}
            </div>
          )}
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
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
