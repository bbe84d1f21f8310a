// The reset link of a forgot-password mail (/console/auth/reset-password?token=…): choose a new
// password. It signs out every session of the account and signs this browser in.
import { type FormEvent, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { PasswordField } from '../../components/form-field.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { accountApi } from '../../lib/account-api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { problemOf } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/reset-password.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Choose a new password', noIndex: true })

export default function ResetPassword() {
  const config = useConfig()
  const session = useSession()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [done, setDone] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const password = String(form.get('password') ?? '')
    if (password !== String(form.get('repeat') ?? '')) {
      setProblem('The two passwords differ.')
      return
    }
    setBusy(true)
    setProblem(null)
    try {
      await accountApi(session.client, config).resetPassword(token, password)
      setDone(true)
    } catch (error) {
      setProblem(problemOf(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="auth-card" data-testid="reset-password">
      <h1>Choose a new password</h1>
      {token === '' ? (
        <p>
          This link has no reset token in it.{' '}
          <Link to="/console/auth/forgot-password">Ask for a new link</Link>.
        </p>
      ) : done ? (
        <>
          <p className="form-alert is-success" role="status" data-testid="reset-done">
            Your password is changed. Every other session of your account was signed out.
          </p>
          <a href="/console" className="button is-primary is-block">
            Open the console
          </a>
        </>
      ) : (
        <>
          {problem === null ? null : (
            <div className="form-alert is-error" role="alert" data-testid="auth-error">
              {problem} <Link to="/console/auth/forgot-password">Ask for a new link</Link>
            </div>
          )}
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
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
