// Your account (decision 019): the address and whether it is confirmed, changing it (a link to the
// new address), the password (other sessions end), the sessions signed in and signing them out,
// and deleting the account (the last owner of an organisation with others must hand it over).
import { type FormEvent, useState } from 'react'
import { useConsole } from '../../components/console/console-context.tsx'
import { ErrorText, formatDate } from '../../components/console/console-ui.tsx'
import { emptyText, ListState, useLoad } from '../../components/console/load-state.tsx'
import { SettingsPage } from '../../components/console/settings-nav.tsx'
import { useAccountApi } from '../../components/console/use-account-api.ts'
import { Field, PasswordField } from '../../components/form-field.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import type { OwnSession } from '../../lib/account-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/settings-account.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Your account', noIndex: true })

/** Runs a form's action, with its busy state, error and the message it answers with. */
function useAnsweredAction() {
  const { busy, error, run: runAction } = useAction()
  const [done, setDone] = useState<string | null>(null)
  const run = (work: () => Promise<string>) => {
    setDone(null)
    return runAction(async () => setDone(await work()))
  }
  return { busy, done, error, run }
}

const formText = (event: FormEvent<HTMLFormElement>, name: string) =>
  String(new FormData(event.currentTarget).get(name) ?? '')

function Done({ message, testId }: { message: string | null; testId: string }) {
  return message === null ? null : (
    <p className="form-alert is-success" role="status" data-testid={testId}>
      {message}
    </p>
  )
}

function Address() {
  const { user } = useConsole()
  const account = useAccountApi()
  const resend = useAnsweredAction()
  const change = useAnsweredAction()
  const hasPassword = user.hasPassword !== false
  return (
    <div className="card settings-card" data-testid="account-email">
      <h2>E-mail address</h2>
      <p>
        <strong data-testid="account-address">{user.email}</strong>{' '}
        {user.emailVerified === true ? (
          <span className="badge" data-testid="email-verified">
            confirmed
          </span>
        ) : (
          <span className="badge is-warning" data-testid="email-unverified">
            not confirmed yet
          </span>
        )}
      </p>
      {user.emailVerified === true ? null : (
        <>
          <p>
            We mailed a link to this address when you signed up. You can use the console meanwhile;
            confirming makes sure password resets reach you.
          </p>
          <button
            type="button"
            className="button is-secondary is-small account-resend"
            disabled={resend.busy}
            onClick={() =>
              void resend.run(async () => (await account.resendVerification()).message)
            }
            data-testid="resend-verification"
          >
            Mail the link again
          </button>
          <Done message={resend.done} testId="resend-done" />
          <ErrorText message={resend.error} />
        </>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault()
          const email = formText(event, 'new-email').trim()
          const password = formText(event, 'email-password')
          void change.run(async () => (await account.changeEmail(email, password)).message)
        }}
        data-testid="change-email-form"
      >
        <h3>Change the address</h3>
        <div className="account-fields">
          <Field id="new-email" label="New address" type="email" autoComplete="email" required />
          {hasPassword ? <PasswordField id="email-password" label="Current password" /> : null}
        </div>
        <button type="submit" className="button is-secondary" disabled={change.busy}>
          Mail a confirmation link
        </button>
        <Done message={change.done} testId="change-email-done" />
        <ErrorText message={change.error} testId="change-email-error" />
      </form>
    </div>
  )
}

function Password() {
  const { user } = useConsole()
  const account = useAccountApi()
  const action = useAnsweredAction()
  if (user.hasPassword === false) {
    return (
      <div className="card settings-card">
        <h2>Password</h2>
        <p>
          You sign in with Google. To set a password, use{' '}
          <a href="/console/auth/forgot-password">Forgot password</a> with your address.
        </p>
      </div>
    )
  }
  return (
    <form
      className="card settings-card"
      data-testid="change-password-form"
      onSubmit={(event) => {
        event.preventDefault()
        const current = formText(event, 'current-password')
        const next = formText(event, 'new-password')
        const form = event.currentTarget
        void action.run(async () => {
          if (next !== formText({ currentTarget: form } as FormEvent<HTMLFormElement>, 'repeat')) {
            throw new Error('The two new passwords differ.')
          }
          const { endedSessions } = await account.changePassword(current, next)
          form.reset()
          return `Password changed. ${endedSessions} other session${endedSessions === 1 ? ' was' : 's were'} signed out.`
        })
      }}
    >
      <h2>Password</h2>
      <PasswordField id="current-password" label="Current password" />
      <div className="account-fields">
        <PasswordField id="new-password" label="New password" isNew />
        <PasswordField id="repeat" label="The same again" isNew />
      </div>
      <button type="submit" className="button is-primary" disabled={action.busy}>
        Change the password
      </button>
      <Done message={action.done} testId="change-password-done" />
      <ErrorText message={action.error} testId="change-password-error" />
    </form>
  )
}

function Sessions() {
  const account = useAccountApi()
  const list = useLoad(() => account.sessions(), 'own-sessions')
  const action = useAnsweredAction()
  const end = (session: OwnSession) =>
    void action.run(async () => {
      await account.endSession(session._id)
      if (session.current) window.location.assign('/console/auth/login')
      await list.reload()
      return 'Signed out.'
    })
  return (
    <div className="card settings-card" data-testid="own-sessions">
      <h2>Where you are signed in</h2>
      <ListState load={list} label="your sessions" empty={emptyText('No sessions.')}>
        {(items) => (
          <ul className="simple-list" data-testid="session-list">
            {items.map((session) => (
              <li key={session._id} data-testid="session-row">
                <span>
                  {session.userAgent ?? 'Unknown browser'}
                  {session.current ? <strong> (this browser)</strong> : null}
                  <br />
                  <small>
                    Signed in {formatDate(session.createdAt)}, last seen{' '}
                    {formatDate(session.lastSeenAt)}
                  </small>
                </span>
                <button
                  type="button"
                  className="button is-small is-secondary"
                  onClick={() => end(session)}
                  data-testid="session-end"
                >
                  Sign out
                </button>
              </li>
            ))}
          </ul>
        )}
      </ListState>
      <button
        type="button"
        className="button is-secondary is-small"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            const { endedSessions } = await account.endOtherSessions()
            await list.reload()
            return `${endedSessions} other session${endedSessions === 1 ? '' : 's'} signed out.`
          })
        }
        data-testid="end-other-sessions"
      >
        Sign out everywhere else
      </button>
      <Done message={action.done} testId="sessions-done" />
      <ErrorText message={action.error} />
    </div>
  )
}

function DeleteAccount() {
  const { user } = useConsole()
  const account = useAccountApi()
  const action = useAnsweredAction()
  return (
    <form
      className="card settings-card"
      data-testid="delete-account-form"
      onSubmit={(event) => {
        event.preventDefault()
        const email = formText(event, 'confirm-email').trim()
        const password = formText(event, 'delete-password')
        void action.run(async () => {
          await account.deleteAccount(email, password)
          window.location.assign('/')
          return 'Your account is deleted.'
        })
      }}
    >
      <h2>Delete your account</h2>
      <p>
        Organisations you are the only member of are deleted with it, with their files. If you are
        the last owner of an organisation with other members, make one of them owner first.
      </p>
      <div className="account-fields">
        <Field id="confirm-email" label="Type your address to confirm" type="email" required />
        {user.hasPassword !== false ? (
          <PasswordField id="delete-password" label="Current password" />
        ) : null}
      </div>
      <button type="submit" className="button is-danger" disabled={action.busy}>
        Delete my account
      </button>
      <ErrorText message={action.error} testId="delete-account-error" />
    </form>
  )
}

export default function AccountSettings() {
  return (
    <SettingsPage testId="settings-account" title="Your account">
      <Address />
      <Password />
      <Sessions />
      <DeleteAccount />
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteErrorBoundary
