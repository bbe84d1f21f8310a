// Forgot password (decision 019): asks for a reset link. The answer is the same whether an
// account uses the address or not, so the page says the same thing either way.
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { AuthCard, AuthError } from '../../components/console/auth-card.tsx'
import { useAccountApi } from '../../components/console/use-account-api.ts'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/forgot-password.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Forgot password', noIndex: true })

export default function ForgotPassword() {
  const account = useAccountApi()
  const [sent, setSent] = useState<string | null>(null)
  const { busy, error, run } = useAction()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim()
    return run(async () => setSent((await account.forgotPassword(email)).message))
  }
  return (
    <AuthCard testId="forgot-password" title="Forgot your password?">
      {sent !== null ? (
        <>
          <p className="form-alert is-success" role="status" data-testid="forgot-sent">
            {sent} Check your inbox (and spam folder); the link works for 30 minutes.
          </p>
          <p className="auth-switch">
            <Link to="/console/auth/login">Back to log in</Link>
          </p>
        </>
      ) : (
        <>
          <p className="subtitle">
            Type the address of your account: we mail you a link to choose a new password.
          </p>
          <AuthError message={error} />
          <form onSubmit={(event) => void submit(event)} data-testid="forgot-form">
            <div className="field">
              <label htmlFor="email">Email</label>
              <input id="email" name="email" type="email" autoComplete="email" required />
            </div>
            <button type="submit" className="button is-primary is-block" disabled={busy}>
              {busy ? 'Please wait…' : 'Mail me a link'}
            </button>
          </form>
          <p className="auth-switch">
            Remembered it? <Link to="/console/auth/login">Log in</Link>
          </p>
        </>
      )}
    </AuthCard>
  )
}

export const ErrorBoundary = RouteErrorBoundary
