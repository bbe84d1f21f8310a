// API tokens (/console/organization/{orgId}/settings/apps, SPEC §2.2): create (the token is shown
// once, with a copy button), list, revoke.
import { type FormEvent, useState } from 'react'
import { managesSettings, useConsole } from '../../components/console/console-context.tsx'
import {
  ConfirmButton,
  CopyButton,
  ErrorText,
  formatDate,
} from '../../components/console/console-ui.tsx'
import { ACTIONS_COLUMN, DataTable } from '../../components/console/data-table.tsx'
import { emptyText, ListState, useLoad } from '../../components/console/load-state.tsx'
import { SecretBox, SettingsPage } from '../../components/console/settings-nav.tsx'
import { Field } from '../../components/form-field.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import type { ApiToken } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/settings-apps.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'API tokens', noIndex: true })

export default function ApiTokens() {
  const { api, org } = useConsole()
  const isOwner = managesSettings(org.role)
  const tokens = useLoad(
    () => (isOwner ? api.tokens() : Promise.resolve([] as ApiToken[])),
    `tokens:${org._id}`,
  )
  const [name, setName] = useState('')
  const [created, setCreated] = useState<ApiToken | null>(null)
  const { busy, error, attempt, run } = useAction()
  const create = (event: FormEvent) => {
    event.preventDefault()
    return run(async () => {
      setCreated(await api.createToken(name.trim()))
      setName('')
      await tokens.reload()
    })
  }
  const revoke = (token: ApiToken) =>
    attempt(async () => {
      await api.revokeToken(token._id)
      if (created?._id === token._id) setCreated(null)
      await tokens.reload()
    })
  return (
    <SettingsPage testId="settings-apps" title="API tokens">
      <p className="lead">
        Tokens let servers and scripts upload and manage files without a browser: send one as
        Authorization: Bearer tsk_….
      </p>
      {!isOwner ? (
        <p className="form-alert">Only owners and admins can see and manage tokens.</p>
      ) : (
        <>
          <form className="card settings-card" onSubmit={(event) => void create(event)}>
            <Field
              id="token-name"
              label="Name"
              value={name}
              required
              maxLength={100}
              placeholder="build server"
              onChange={(e) => setName(e.target.value)}
              data-testid="token-name"
            />
            <button
              type="submit"
              className="button is-primary"
              disabled={busy}
              data-testid="create-token"
            >
              Create token
            </button>
          </form>
          <ErrorText message={error} />
          {created?.token === undefined ? null : (
            <SecretBox testId="new-token">
              <p>
                <strong>{created.name}</strong>: copy it now, it is not shown again.
              </p>
              <code data-testid="new-token-value">{created.token}</code>
              <CopyButton text={created.token} label="Copy token" />
            </SecretBox>
          )}
          <ListState load={tokens} label="tokens" empty={emptyText('No tokens yet.')}>
            {(list) => (
              <DataTable
                testId="token-list"
                columns={['Name', 'Starts with', 'Created', 'Last used', ACTIONS_COLUMN]}
              >
                {list.map((token) => (
                  <tr key={token._id} data-testid="token-row">
                    <td>{token.name}</td>
                    <td>
                      <code>{token.prefix}…</code>
                    </td>
                    <td>{formatDate(token.createdAt)}</td>
                    <td>{token.lastUsedAt === null ? 'Never' : formatDate(token.lastUsedAt)}</td>
                    <td>
                      <ConfirmButton
                        question={`Revoke ${token.name}? Anything using it stops working at once.`}
                        onConfirm={() => revoke(token)}
                      >
                        Revoke
                      </ConfirmButton>
                    </td>
                  </tr>
                ))}
              </DataTable>
            )}
          </ListState>
        </>
      )}
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteErrorBoundary
