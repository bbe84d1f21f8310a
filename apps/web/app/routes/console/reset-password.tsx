// The reset link of a forgot-password mail (/console/auth/reset-password?token=…): choose a new
// password. It signs out every session of the account and signs this browser in.
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { AuthCard, AuthDone, AuthError, useLinkToken } from '../../components/console/auth-card.tsx'
import { useAccountApi } from '../../components/console/use-account-api.ts'
import { PasswordField } from '../../components/form-field.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/reset-password.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Choose a new password', noIndex: true })

export default function ResetPassword() {
  const account = useAccountApi()
  const token = useLinkToken()
  const [done, setDone] = useState(false)
  const { busy, error, setError, run } = useAction()
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const password = String(form.get('password') ?? '')
    if (password !== String(form.get('repeat') ?? '')) {
      setError('The two passwords differ.')
      return
    }
    await run(async () => {
      await account.resetPassword(token, password)
      setDone(true)
    })
  }
  return (
    <AuthCard testId="reset-password" title="Choose a new password">
      {token === '' ? (
        <p>
          This link has no reset token in it.{' '}
          <Link to="/console/auth/forgot-password">Ask for a new link</Link>.
        </p>
      ) : done ? (
        <AuthDone testId="reset-done">
          Your password is changed. Every other session of your account was signed out.
        </AuthDone>
      ) : (
        <>
          <AuthError message={error}>
            {' '}
            <Link to="/console/auth/forgot-password">Ask for a new link</Link>
          </AuthError>
          <form onSubmit={(event) => void submit(event)} data-testid="reset-form">
            <PasswordField
              id="password"
              label="New password"
              isNew
              hint="At least 10 characters."
            />
            <PasswordField id="repeat" label="The same again" isNew />
            <button type="submit" className="button is-primary is-block" disabled={busy}>
              {busy ? 'Please wait…' : 'Set the new password'}
            </button>
          </form>
        </>
      )}
    </AuthCard>
  )
}

export const ErrorBoundary = RouteErrorBoundary
