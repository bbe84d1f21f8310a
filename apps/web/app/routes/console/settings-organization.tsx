// Organisation settings: its name and its cloud name (the first segment of every delivery URL).
import { type FormEvent, useState } from 'react'
import {
  ErrorText,
  ListState,
  useConsole,
  useLoad,
} from '../../components/console/console-context.tsx'
import { SettingsPage } from '../../components/console/settings-nav.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useConfig } from '../../lib/app-context.tsx'
import { type OrganisationDetails, problemOf } from '../../lib/console-api.ts'
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
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const [busy, setBusy] = useState(false)
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
    setBusy(true)
    setError(null)
    setSaved(false)
    try {
      onSaved(await api.updateDetails(body))
      setSaved(true)
    } catch (reason) {
      setError(problemOf(reason))
    } finally {
      setBusy(false)
    }
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
      <ErrorText message={error} />
      {saved ? (
        <p className="form-alert is-success" role="status">
          Saved.
        </p>
      ) : null}
      {isOwner ? (
        <button type="submit" className="button is-primary" disabled={busy}>
          Save
        </button>
      ) : (
        <p>Only owners and admins can change these.</p>
      )}
    </form>
  )
}

/**
 * Where the organisation's images are delivered. Custom domains are not offered: delivery would
 * serve a registered domain, but nothing registers or verifies one yet, so there is no control
 * here, only what is true (docs/delivery.md, "Hosts").
 */
function DeliveryDomain({ cloudName }: { cloudName: string | undefined }) {
  const config = useConfig()
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
        <strong>Custom domains are not offered yet.</strong> Serving images from your own host name
        (such as img.example.com) needs the domain to be verified as yours, which this server does
        not do yet. Put a CDN or proxy of your own in front of the delivery URL instead.
      </p>
    </section>
  )
}

export default function OrganizationSettings() {
  const { api, org } = useConsole()
  const details = useLoad(() => api.details(), `details:${org._id}`)
  return (
    <SettingsPage testId="settings-organization" title="Organisation">
      <ListState
        state={details.state}
        label="the organisation"
        onRetry={() => void details.reload()}
        empty={() => null}
      >
        {(data) => <DetailsForm details={data} onSaved={details.set} />}
      </ListState>
      <DeliveryDomain
        cloudName={details.state.status === 'ready' ? details.state.data.cloudName : org.cloudName}
      />
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteErrorBoundary
