// The signed-out account pages (forgot and reset password, confirming an address, joining an
// organisation): one card with a title, the calls' error and the note that the step is done.
import type { ReactNode } from 'react'
import { useSearchParams } from 'react-router'

interface AuthCardProps {
  testId: string
  title: string
  children: ReactNode
}

export function AuthCard({ testId, title, children }: AuthCardProps) {
  return (
    <div className="auth-card" data-testid={testId}>
      <h1>{title}</h1>
      {children}
    </div>
  )
}

/** Why the form's call failed, and what to do about it (`children`). */
export function AuthError({ message, children }: { message: string | null; children?: ReactNode }) {
  if (message === null) return null
  return (
    <div className="form-alert is-error" role="alert" data-testid="auth-error">
      {message}
      {children}
    </div>
  )
}

/** The step is done: what changed, and the way into the console. */
export function AuthDone({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <>
      <p className="form-alert is-success" role="status" data-testid={testId}>
        {children}
      </p>
      <a href="/console" className="button is-primary is-block">
        Open the console
      </a>
    </>
  )
}

/** The `token` of a mailed link (reset, confirm, invitation); empty when it has none. */
export function useLinkToken(): string {
  const [params] = useSearchParams()
  return params.get('token') ?? ''
}
