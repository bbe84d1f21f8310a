// Webhooks (/console/organization/{orgId}/settings/webhooks, decision 016): register an HTTPS
// endpoint for the organisation's events (its signing secret is shown once), pause, ping or
// remove it, and read the delivery log. Owners change; members read.
import { type FormEvent, useMemo, useState } from 'react'
import { ownsOrg, useConsole } from '../../components/console/console-context.tsx'
import {
  ConfirmButton,
  CopyButton,
  ErrorText,
  formatDate,
} from '../../components/console/console-ui.tsx'
import { ACTIONS_COLUMN, DataTable } from '../../components/console/data-table.tsx'
import { emptyText, ListState, useLoad } from '../../components/console/load-state.tsx'
import { SecretBox, SettingsPage } from '../../components/console/settings-nav.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { metaFor } from '../../lib/seo.ts'
import { WEBHOOK_EVENTS, type Webhook, webhooksApi } from '../../lib/webhooks-api.ts'
import type { Route } from './+types/settings-webhooks.ts'
import './settings-webhooks.css'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Webhooks', noIndex: true })

const LOG_SIZE = 20

export default function Webhooks() {
  const { org } = useConsole()
  const config = useConfig()
  const session = useSession()
  const api = useMemo(
    () => webhooksApi(session.client, config.apiUrl, org._id),
    [session, config, org],
  )
  const isOwner = ownsOrg(org.role)
  const hooks = useLoad(() => api.list(), `webhooks:${org._id}`)
  const log = useLoad(() => api.deliveries(1, LOG_SIZE), `webhook-log:${org._id}`)
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [events, setEvents] = useState<string[]>(WEBHOOK_EVENTS.map(([event]) => event))
  const [created, setCreated] = useState<Webhook | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const { busy, error, attempt, run } = useAction()

  const act = (work: () => Promise<void>) => {
    setNotice(null)
    return attempt(work)
  }
  const create = (event: FormEvent) => {
    event.preventDefault()
    setNotice(null)
    return run(async () => {
      setCreated(await api.create({ url: url.trim(), events, description: description.trim() }))
      setUrl('')
      setDescription('')
      await hooks.reload()
    })
  }
  const ping = (hook: Webhook) =>
    act(async () => {
      const outcome = await api.ping(hook._id)
      setNotice(
        outcome.delivered
          ? `Ping delivered to ${hook.url} (${outcome.delivery.responseStatus}).`
          : `Ping not delivered: ${outcome.delivery.error ?? 'no answer'}.`,
      )
      await log.reload()
    })
  const toggle = (hook: Webhook) =>
    act(async () => {
      await api.update(hook._id, { active: !hook.active })
      await hooks.reload()
    })
  const remove = (hook: Webhook) =>
    act(async () => {
      await api.remove(hook._id)
      if (created?._id === hook._id) setCreated(null)
      await Promise.all([hooks.reload(), log.reload()])
    })

  return (
    <SettingsPage testId="settings-webhooks" title="Webhooks">
      <p className="lead">
        Tessera POSTs a JSON event to your HTTPS endpoint when a file is created or deleted, a
        folder is made or a prediction finishes. Each body is signed with the endpoint's secret in
        the x-tessera-signature header (see the API guide, "Webhooks"); failed deliveries are
        retried for about 15 minutes.
      </p>
      {isOwner ? (
        <form className="card settings-card" onSubmit={(event) => void create(event)}>
          <div className="field">
            <label htmlFor="webhook-url">Endpoint URL</label>
            <input
              id="webhook-url"
              type="url"
              required
              maxLength={2048}
              placeholder="https://example.com/tessera-events"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              data-testid="webhook-url"
            />
          </div>
          <div className="field">
            <label htmlFor="webhook-description">Description (optional)</label>
            <input
              id="webhook-description"
              maxLength={200}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
          <fieldset className="field webhook-events">
            <legend>Events</legend>
            {WEBHOOK_EVENTS.map(([name, label]) => (
              <label key={name} className="checkbox">
                <input
                  type="checkbox"
                  checked={events.includes(name)}
                  onChange={(e) =>
                    setEvents((list) =>
                      e.target.checked ? [...list, name] : list.filter((item) => item !== name),
                    )
                  }
                />{' '}
                <code>{name}</code> — {label}
              </label>
            ))}
          </fieldset>
          <button
            type="submit"
            className="button is-primary"
            disabled={busy || events.length === 0}
            data-testid="create-webhook"
          >
            Add webhook
          </button>
        </form>
      ) : (
        <p className="form-alert">Only owners can add and change webhooks.</p>
      )}
      <ErrorText message={error} />
      {notice === null ? null : (
        <p className="form-alert is-success" role="status" data-testid="webhook-notice">
          {notice}
        </p>
      )}
      {created?.secret === undefined ? null : (
        <SecretBox testId="new-webhook-secret">
          <p>
            Signing secret of <strong>{created.url}</strong>: copy it now, it is not shown again.
          </p>
          <code data-testid="new-webhook-secret-value">{created.secret}</code>
          <CopyButton text={created.secret} label="Copy secret" />
        </SecretBox>
      )}
      <h2>Endpoints</h2>
      <ListState load={hooks} label="webhooks" empty={emptyText('No webhooks yet.')}>
        {(list) => (
          <DataTable
            testId="webhook-list"
            columns={[
              'Endpoint',
              'Events',
              'Secret',
              'State',
              ...(isOwner ? [ACTIONS_COLUMN] : []),
            ]}
          >
            {list.map((hook) => (
              <tr key={hook._id} data-testid="webhook-row">
                <td className="is-breakable">
                  <code>{hook.url}</code>
                  {hook.description === '' ? null : <small> {hook.description}</small>}
                </td>
                <td>{hook.events.join(', ')}</td>
                <td>
                  <code>{hook.secretHint}</code>
                </td>
                <td>{hook.active ? 'Active' : 'Paused'}</td>
                {isOwner ? (
                  <td>
                    <div className="button-row">
                      <button
                        type="button"
                        className="button is-small is-secondary"
                        onClick={() => void ping(hook)}
                        data-testid="ping-webhook"
                      >
                        Ping
                      </button>
                      <button
                        type="button"
                        className="button is-small is-secondary"
                        onClick={() => void toggle(hook)}
                      >
                        {hook.active ? 'Pause' : 'Resume'}
                      </button>
                      <ConfirmButton
                        question={`Remove the webhook to ${hook.url}? Its log goes with it.`}
                        onConfirm={() => remove(hook)}
                      >
                        Remove
                      </ConfirmButton>
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
          </DataTable>
        )}
      </ListState>
      <div className="section-head">
        <h2>Delivery log</h2>
        <button
          type="button"
          className="button is-small is-ghost"
          onClick={() => void log.reload()}
          data-testid="reload-log"
        >
          Refresh
        </button>
      </div>
      <ListState load={log} label="deliveries" empty={emptyText('Nothing sent yet.')}>
        {(page) => (
          <DataTable
            testId="webhook-log"
            columns={['Event', 'Endpoint', 'Result', 'Attempts', 'Sent']}
          >
            {page.items.map((delivery) => (
              <tr key={delivery._id} data-testid="delivery-row">
                <td>
                  <code>{delivery.event}</code>
                </td>
                <td className="is-breakable">{delivery.url}</td>
                <td data-testid="delivery-status">
                  {delivery.status === 'delivered'
                    ? `Delivered (${delivery.responseStatus})`
                    : delivery.status === 'pending'
                      ? `Retrying${delivery.error === null ? '' : `: ${delivery.error}`}`
                      : `Failed: ${delivery.error ?? 'no answer'}`}
                </td>
                <td>{delivery.attempts}</td>
                <td>{formatDate(delivery.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </ListState>
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteErrorBoundary
