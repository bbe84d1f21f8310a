// The console's login and sign-up forms. Submitting calls the identity API from the browser
// through the shared client, so the call is signed like every panel call (SPEC §7.1).
import { type FormEvent, useState } from 'react'
import { Link, useLocation, useRouteLoaderData } from 'react-router'
import { Field } from '../../components/form-field.tsx'
import { login, signup } from '../../lib/api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { flowParams, postAuthTarget, readAuthFlow } from '../../lib/auth-redirect.ts'
import { HttpError } from '../../lib/http-client.ts'
import { CONSOLE_PATHS, consoleUrl } from '../../lib/links.ts'

function problemOf(error: unknown): string {
  if (error instanceof HttpError) {
    const data = error.data as { message?: unknown } | null
    if (typeof data?.message === 'string') {
      const message = data.message
      return message.charAt(0).toUpperCase() + message.slice(1)
    }
    if (error.status === 429) return 'Too many attempts. Wait a few minutes and try again.'
  }
  return 'We could not reach the server. Check your connection and try again.'
}

export function AuthForm({ mode }: { mode: 'login' | 'signup' }) {
  const config = useConfig()
  const session = useSession()
  const location = useLocation()
  const root = useRouteLoaderData('root') as { origin: string; mainUrl: string } | undefined
  const flow = readAuthFlow(location.search)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const text = (name: string) => String(form.get(name) ?? '').trim()
    setBusy(true)
    setProblem(null)
    try {
      const credentials = { email: text('email'), password: String(form.get('password') ?? '') }
      if (mode === 'login') await login(session.client, config, credentials)
      else
        await signup(session.client, config, {
          ...credentials,
          firstName: text('firstName'),
          lastName: text('lastName'),
        })
      const origins = [window.location.origin, root?.mainUrl ?? ''].filter((o) => o !== '')
      window.location.assign(
        postAuthTarget(flow, { consoleBase: config.consoleUrl, allowedOrigins: origins }),
      )
    } catch (error) {
      setProblem(problemOf(error))
      setBusy(false)
    }
  }

  const other = mode === 'login' ? CONSOLE_PATHS.signup : CONSOLE_PATHS.login
  return (
    <div className="auth-card">
      <h1>{mode === 'login' ? 'Log in to Tessera' : 'Create your account'}</h1>
      <p className="subtitle">
        {mode === 'login'
          ? 'Welcome back. Pick up where you left off.'
          : `Free plan with ${config.freePlanCredits} credits to start. No card needed.`}
      </p>
      {problem === null ? null : (
        <div className="form-alert is-error" role="alert" data-testid="auth-error">
          {problem}
        </div>
      )}
      <form onSubmit={onSubmit} noValidate={false} data-testid={`${mode}-form`}>
        {mode === 'signup' ? (
          <div className="grid cols-2 auth-name-row">
            <Field
              id="firstName"
              label="First name"
              autoComplete="given-name"
              required
              maxLength={100}
            />
            <Field
              id="lastName"
              label="Last name"
              autoComplete="family-name"
              required
              maxLength={100}
            />
          </div>
        ) : null}
        <Field id="email" label="Email" type="email" autoComplete="email" required />
        <div className="field">
          <label htmlFor="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            required
            minLength={mode === 'signup' ? 10 : 1}
            aria-describedby={mode === 'signup' ? 'password-hint' : undefined}
          />
          {mode === 'signup' ? (
            <small id="password-hint" className="field-hint">
              At least 10 characters.
            </small>
          ) : (
            <small className="field-hint">
              <Link to="/console/auth/forgot-password" data-testid="forgot-link">
                Forgot your password?
              </Link>
            </small>
          )}
        </div>
        <button type="submit" className="button is-primary is-block" disabled={busy}>
          {busy ? 'Please wait…' : mode === 'login' ? 'Log in' : 'Create account'}
        </button>
      </form>
      <p className="auth-switch">
        {mode === 'login' ? 'New to Tessera? ' : 'Already have an account? '}
        <Link to={consoleUrl('/console', other, flowParams(flow))}>
          {mode === 'login' ? 'Create an account' : 'Log in'}
        </Link>
      </p>
    </div>
  )
}
