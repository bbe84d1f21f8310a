// Organisation settings: its name and its cloud name (the first segment of every delivery URL).
import { type FormEvent, type ReactNode, useState } from 'react'
import { Link } from 'react-router'
import { useConsole } from '../../components/console/console-context.tsx'
import { ErrorText } from '../../components/console/console-ui.tsx'
import { ListState, useLoad } from '../../components/console/load-state.tsx'
import { SettingsPage } from '../../components/console/settings-nav.tsx'
import { useTeamApi } from '../../components/console/use-team-api.ts'
import '../../components/console/team.css'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import { useConfig } from '../../lib/app-context.tsx'
import type { OrganisationDetails } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/settings-organization.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Organisation settings', noIndex: true })

/** The cloud name rules of docs/api.md: 3 to 40 of a-z, 0-9 and -. */
export function cloudNameProblem(value: string): string | null {
  if (value.length < 3 || value.length > 40) return 'Use 3 to 40 characters.'
  if (!/^[a-z0-9-]+$/.test(value)) return 'Use only lower-case letters, digits and hyphens.'
  return null
}

/** The end of a settings form: its error or "Saved.", then Save, or why the caller cannot. */
function SaveFooter({
  error,
  saved,
  busy,
  canSave,
  label,
  children,
}: {
  error: string | null
  saved: boolean
  busy: boolean
  canSave: boolean
  label: string
  /** Said instead of the button to those who cannot save. */
  children: ReactNode
}) {
  return (
    <>
      <ErrorText message={error} />
      {saved ? (
        <p className="form-alert is-success" role="status">
          Saved.
        </p>
      ) : null}
      {canSave ? (
        <button type="submit" className="button is-primary" disabled={busy}>
          {label}
        </button>
      ) : (
        <p>{children}</p>
      )}
    </>
  )
}

function DetailsForm({
  details,
  onSaved,
}: {
  details: OrganisationDetails
  onSaved: (d: OrganisationDetails) => void
}) {
  const { api } = useConsole()
  const [name, setName] = useState(details.name)
  const [cloudName, setCloudName] = useState(details.cloudName)
  const { busy, error, run } = useAction()
  const [saved, setSaved] = useState(false)
  const isOwner = details.role === 'owner' || details.role === 'admin'
  const cloudProblem = cloudName === details.cloudName ? null : cloudNameProblem(cloudName)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (cloudProblem !== null) return
    const body: { name?: string; cloudName?: string } = {}
    if (name.trim() !== details.name) body.name = name.trim()
    if (cloudName !== details.cloudName) {
      if (
        !window.confirm(
          `Change the cloud name to ${cloudName}? Every delivery URL changes with it.`,
        )
      )
        return
      body.cloudName = cloudName
    }
    setSaved(false)
    await run(async () => {
      onSaved(await api.updateDetails(body))
      setSaved(true)
    })
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="card settings-card">
      <div className="field">
        <label htmlFor="org-name">Name</label>
        <input
          id="org-name"
          value={name}
          maxLength={100}
          disabled={!isOwner}
          onChange={(e) => setName(e.target.value)}
          data-testid="org-name"
        />
      </div>
      <div className="field">
        <label htmlFor="cloud-name">Cloud name</label>
        <input
          id="cloud-name"
          value={cloudName}
          disabled={!isOwner}
          onChange={(e) => setCloudName(e.target.value.toLowerCase())}
          aria-describedby="cloud-name-rules"
          aria-invalid={cloudProblem !== null}
          data-testid="cloud-name-input"
        />
        <small id="cloud-name-rules">
          3 to 40 lower-case letters, digits and hyphens, unique across the service. It is part of
          every delivery URL: /v2/{cloudName || '…'}/original/photo.jpg — changing it changes them
          all.
        </small>
        {cloudProblem === null ? null : <p className="field-error">{cloudProblem}</p>}
      </div>
      <SaveFooter error={error} saved={saved} busy={busy} canSave={isOwner} label="Save">
        Only owners and admins can change these.
      </SaveFooter>
    </form>
  )
}

/** The origins typed one per line (or with commas), as the settings API takes them. */
export function parseOrigins(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((value) => value.trim())
    .filter((value) => value !== '')
}

/**
 * Who may read the organisation's delivered images from another site's scripts (`fetch`, a
 * canvas): anyone, listed origins, or no one (docs/delivery.md, "CORS").
 */
function CorsForm({ isOwner }: { isOwner: boolean }) {
  const { org } = useConsole()
  const team = useTeamApi()
  const settings = useLoad(() => team.cors(), `cors:${org._id}`)
  const [mode, setMode] = useState<'any' | 'list' | 'none' | undefined>(undefined)
  const [text, setText] = useState<string | undefined>(undefined)
  const { busy, error, setError, run } = useAction()
  const [saved, setSaved] = useState(false)
  const current = settings.state.status === 'ready' ? settings.state.data.corsOrigins : undefined
  const currentMode =
    current === undefined
      ? 'any'
      : current.includes('*')
        ? 'any'
        : current.length === 0
          ? 'none'
          : 'list'
  const shownMode = mode ?? currentMode
  const shownText =
    text ?? (current !== undefined && currentMode === 'list' ? current.join('\n') : '')
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const corsOrigins =
      shownMode === 'any' ? ['*'] : shownMode === 'none' ? [] : parseOrigins(shownText)
    if (shownMode === 'list' && corsOrigins.length === 0) {
      setError('List at least one origin, such as https://shop.example.com.')
      return
    }
    setSaved(false)
    await run(async () => {
      settings.set(await team.updateCors(corsOrigins))
      setMode(undefined)
      setText(undefined)
      setSaved(true)
    })
  }
  const choice = (value: 'any' | 'list' | 'none', label: string) => (
    <label className="radio-row">
      <input
        type="radio"
        name="cors-mode"
        value={value}
        checked={shownMode === value}
        disabled={!isOwner}
        onChange={() => setMode(value)}
        data-testid={`cors-${value}`}
      />{' '}
      {label}
    </label>
  )
  return (
    <section
      className="card settings-card"
      aria-labelledby="cors-title"
      data-testid="cors-settings"
    >
      <h2 id="cors-title">Cross-origin access (CORS)</h2>
      <p>
        Which other websites’ scripts may read your delivered images, with fetch() or from a canvas.
        Plain &lt;img&gt; tags work everywhere whatever you choose. Signed URLs get the same answer:
        their signature is what protects them.
      </p>
      {settings.state.status === 'error' ? <ErrorText message={settings.state.message} /> : null}
      <form onSubmit={(event) => void submit(event)}>
        <fieldset className="field">
          <legend>Allow</legend>
          {choice('any', 'Any website (Access-Control-Allow-Origin: *)')}
          {choice('list', 'Only these origins')}
          {choice('none', 'No other website')}
        </fieldset>
        {shownMode === 'list' ? (
          <div className="field">
            <label htmlFor="cors-origins">Origins, one per line</label>
            <textarea
              id="cors-origins"
              rows={3}
              value={shownText}
              disabled={!isOwner}
              placeholder="https://shop.example.com"
              onChange={(e) => setText(e.target.value)}
              data-testid="cors-origins"
            />
          </div>
        ) : null}
        <SaveFooter error={error} saved={saved} busy={busy} canSave={isOwner} label="Save CORS">
          Only owners can change this.
        </SaveFooter>
      </form>
    </section>
  )
}

/**
 * Where the organisation's images are delivered: the default host, and its own domains
 * (Settings → Domains registers and verifies them; docs/delivery.md, "Hosts").
 */
function DeliveryDomain({ cloudName }: { cloudName: string | undefined }) {
  const config = useConfig()
  const { org } = useConsole()
  const base = config.deliveryUrl === '' ? '' : config.deliveryUrl.replace(/\/+$/, '')
  return (
    <section
      className="card settings-card"
      aria-labelledby="delivery-domain"
      data-testid="delivery-domain"
    >
      <h2 id="delivery-domain">Delivery domain</h2>
      <p>Your images are delivered from:</p>
      <pre className="code-block">
        <code data-testid="delivery-base">{`${base}/v2/${cloudName ?? '{cloudName}'}/{pattern}/{filePath}`}</code>
      </pre>
      <p data-testid="custom-domains-note">
        To serve them from your own host name (such as img.example.com), add it under{' '}
        <Link to={`/console/organization/${encodeURIComponent(org._id)}/settings/domains`}>
          Domains
        </Link>
        : once verified,{' '}
        <code>
          https://img.example.com/v2/{'{pattern}'}/{'{filePath}'}
        </code>{' '}
        delivers the same images.
      </p>
    </section>
  )
}

export default function OrganizationSettings() {
  const { api, org } = useConsole()
  const details = useLoad(() => api.details(), `details:${org._id}`)
  return (
    <SettingsPage testId="settings-organization" title="Organisation">
      <ListState load={details} label="the organisation">
        {(data) => <DetailsForm details={data} onSaved={details.set} />}
      </ListState>
      <DeliveryDomain
        cloudName={details.state.status === 'ready' ? details.state.data.cloudName : org.cloudName}
      />
      <CorsForm isOwner={org.role === 'owner' || org.role === 'admin'} />
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteErrorBoundary
