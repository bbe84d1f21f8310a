// Members: who belongs to the organisation and with which role, invitations by email (mailed,
// and the link shown too), role changes and removal. Owners and admins manage members; only
// owners make, unmake or remove owners (decision 019).
import { type FormEvent, useState } from 'react'
import { managesSettings, ownsOrg, useConsole } from '../../components/console/console-context.tsx'
import {
  ConfirmButton,
  CopyButton,
  ErrorText,
  formatDate,
} from '../../components/console/console-ui.tsx'
import { ACTIONS_COLUMN, DataTable } from '../../components/console/data-table.tsx'
import { emptyText, ListState, useLoad } from '../../components/console/load-state.tsx'
import { SecretBox, SettingsPage } from '../../components/console/settings-nav.tsx'
import { Field, SelectField } from '../../components/form-field.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import type { Invitation, Member } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/settings-members.ts'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Members', noIndex: true })

/** The roles, strongest first, with what each may do (docs/web.md, "Roles"). */
const ROLES: [string, string][] = [
  ['owner', 'everything, billing and owners included'],
  ['admin', 'settings, keys, API tokens and members, not billing or owners'],
  ['member', 'upload and edit files, folders and presets, run AI'],
  ['viewer', 'read only'],
]

export default function Members() {
  const { api, org, user } = useConsole()
  const isOwner = ownsOrg(org.role)
  const canManage = managesSettings(org.role)
  /** The roles this caller may give: admins never make owners. */
  const givable = ROLES.filter(([r]) => isOwner || r !== 'owner')
  const members = useLoad(() => api.members(), `members:${org._id}`)
  const invitations = useLoad(
    () => (canManage ? api.invitations() : Promise.resolve([] as Invitation[])),
    `invitations:${org._id}`,
  )
  const [email, setEmail] = useState('')
  const [role, setRole] = useState('member')
  const [invited, setInvited] = useState<Invitation | null>(null)
  const { busy, error, attempt, run } = useAction()

  const act = (work: () => Promise<unknown>) =>
    attempt(async () => {
      await work()
      await Promise.all([members.reload(), invitations.reload()])
    })
  const invite = (event: FormEvent) => {
    event.preventDefault()
    return run(async () => {
      setInvited(await api.invite(email.trim(), role))
      setEmail('')
      await invitations.reload()
    })
  }
  const memberRow = (member: Member) => (
    <tr key={member._id} data-testid="member-row">
      <td>
        {member.firstName} {member.lastName}
        {member._id === user._id ? ' (you)' : ''}
        <br />
        <small>{member.email}</small>
      </td>
      <td>
        {canManage && (isOwner || member.role !== 'owner') ? (
          <select
            aria-label={`Role of ${member.email}`}
            value={member.role}
            data-testid="member-role"
            onChange={(event) => void act(() => api.updateMember(member._id, event.target.value))}
          >
            {givable.map(([r]) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        ) : (
          <span data-testid="member-role-text">{member.role}</span>
        )}
      </td>
      <td>{formatDate(member.joinedAt)}</td>
      <td>
        {(canManage && (isOwner || member.role !== 'owner')) || member._id === user._id ? (
          <ConfirmButton
            question={
              member._id === user._id ? 'Leave this organisation?' : `Remove ${member.email}?`
            }
            onConfirm={() =>
              act(async () => {
                await api.removeMember(member._id)
                if (member._id === user._id) window.location.assign('/console')
              })
            }
          >
            {member._id === user._id ? 'Leave' : 'Remove'}
          </ConfirmButton>
        ) : null}
      </td>
    </tr>
  )
  return (
    <SettingsPage testId="settings-members" title="Members">
      <ErrorText message={error} />
      {canManage ? (
        <form className="card settings-card" onSubmit={(event) => void invite(event)}>
          <h2>Invite someone</h2>
          <div className="inline-form-row">
            <Field
              id="invite-email"
              label="Email"
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="invite-email"
            />
            <SelectField
              id="invite-role"
              label="Role"
              value={role}
              onChange={(e) => setRole(e.target.value)}
              data-testid="invite-role"
            >
              {givable.map(([r]) => (
                <option key={r}>{r}</option>
              ))}
            </SelectField>
          </div>
          <button
            type="submit"
            className="button is-primary"
            disabled={busy}
            data-testid="invite-send"
          >
            Invite
          </button>
        </form>
      ) : null}
      {invited?.acceptUrl === undefined ? null : (
        <SecretBox testId="invitation-link">
          <p>
            We mailed {invited.email} an invitation as {invited.role}. The link works once, for 7
            days, signed in with that email; you may also pass it on yourself.
          </p>
          <code data-testid="invitation-url">{invited.acceptUrl}</code>
          <CopyButton text={invited.acceptUrl} label="Copy link" />
        </SecretBox>
      )}
      <details className="card settings-card" data-testid="role-guide">
        <summary>What each role may do</summary>
        <ul className="simple-list">
          {ROLES.map(([r, what]) => (
            <li key={r}>
              <span>
                <strong>{r}</strong>: {what}
              </span>
            </li>
          ))}
        </ul>
      </details>
      <h2>People</h2>
      <ListState load={members} label="members" empty={emptyText('No members.')}>
        {(list) => (
          <DataTable testId="member-list" columns={['Person', 'Role', 'Joined', ACTIONS_COLUMN]}>
            {list.map(memberRow)}
          </DataTable>
        )}
      </ListState>
      {canManage ? (
        <>
          <h2>Open invitations</h2>
          <ListState
            load={invitations}
            label="invitations"
            empty={emptyText('No open invitations.')}
          >
            {(list) => (
              <ul className="simple-list" data-testid="invitation-list">
                {list.map((invitation) => (
                  <li key={invitation._id}>
                    <span>
                      {invitation.email} as {invitation.role}, until{' '}
                      {formatDate(invitation.expiresAt)}
                    </span>
                    <button
                      type="button"
                      className="button is-small is-secondary"
                      onClick={() => void act(() => api.revokeInvitation(invitation._id))}
                    >
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </ListState>
        </>
      ) : null}
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteErrorBoundary
