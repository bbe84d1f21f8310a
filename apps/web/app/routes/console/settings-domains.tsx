// Custom domains (/console/organization/{orgId}/settings/domains, issue 24): add a domain, see
// the DNS TXT record (or HTTP file) that proves it is yours, check it, and once verified its
// delivery base; remove it. Owners change them, members see them.
import { type FormEvent, useState } from 'react'
import { managesSettings, useConsole } from '../../components/console/console-context.tsx'
import {
  ConfirmButton,
  CopyButton,
  ErrorText,
  formatDate,
} from '../../components/console/console-ui.tsx'
import { emptyText, ListState, useLoad } from '../../components/console/load-state.tsx'
import { SettingsPage } from '../../components/console/settings-nav.tsx'
import { useTeamApi } from '../../components/console/use-team-api.ts'
import { Field } from '../../components/form-field.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import '../../components/console/team.css'
import { metaFor } from '../../lib/seo.ts'
import type { CustomDomain } from '../../lib/team-api.ts'
import type { Route } from './+types/settings-domains.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Custom domains', noIndex: true })

const STATUS_TEXT: Record<CustomDomain['status'], string> = {
  pending: 'Pending',
  verified: 'Verified',
  failed: 'Not verified',
}

function DomainCard({
  domain,
  canChange,
  onChanged,
  onRemoved,
}: {
  domain: CustomDomain
  canChange: boolean
  onChanged: (domain: CustomDomain) => void
  onRemoved: () => Promise<void>
}) {
  const team = useTeamApi()
  const { busy, error, run } = useAction()
  const check = () => run(async () => onChanged(await team.checkDomain(domain._id)))
  // Busy until the list without it is back and the card is gone.
  const remove = () =>
    run(async () => {
      await team.removeDomain(domain._id)
      await onRemoved()
    })
  const example = `${domain.deliveryBase}/original/{filePath}`
  return (
    <li className="card settings-card" data-testid="domain-row" data-host={domain.host}>
      <h2>
        {domain.host}{' '}
        <span className={`status-badge is-${domain.status}`} data-testid="domain-status">
          {STATUS_TEXT[domain.status]}
        </span>
      </h2>
      {domain.status === 'verified' ? (
        <p>
          Delivering: <code data-testid="domain-example">{example}</code>{' '}
          <CopyButton text={domain.deliveryBase} label="Copy base URL" />
        </p>
      ) : null}
      {domain.status !== 'verified' && domain.challenge !== null ? (
        <div className="challenge" data-testid="domain-challenge">
          <p>
            Prove the domain is yours: add this DNS record at your DNS provider, then press Check.
          </p>
          <dl className="challenge-record">
            <dt>Type</dt>
            <dd>TXT</dd>
            <dt>Name</dt>
            <dd>
              <code>{domain.challenge.dns.name}</code>
            </dd>
            <dt>Value</dt>
            <dd>
              <code data-testid="domain-txt">{domain.challenge.dns.value}</code>{' '}
              <CopyButton text={domain.challenge.dns.value} />
            </dd>
          </dl>
          <p>
            Or serve the text <code>{domain.challenge.http.body}</code> at{' '}
            <code>{domain.challenge.http.url}</code>. Then point the domain at this service (a CNAME
            record) so that visitors reach it.
          </p>
        </div>
      ) : null}
      {domain.lastError === null ? null : (
        <p className="form-alert is-error" data-testid="domain-error">
          {domain.lastError}
        </p>
      )}
      <small>
        Added {formatDate(domain.createdAt)}
        {domain.checkedAt === null ? '' : `, last checked ${formatDate(domain.checkedAt)}`}
      </small>
      <ErrorText message={error} />
      {canChange ? (
        <div className="row-actions">
          <button
            type="button"
            className="button is-secondary is-small"
            disabled={busy}
            onClick={() => void check()}
            data-testid="domain-check"
          >
            {busy ? 'Checking…' : domain.status === 'verified' ? 'Check again' : 'Check'}
          </button>
          <ConfirmButton
            question={`Remove ${domain.host}? Its URLs stop delivering at once.`}
            onConfirm={remove}
            disabled={busy}
          >
            Remove
          </ConfirmButton>
        </div>
      ) : null}
    </li>
  )
}

export default function DomainSettings() {
  const { org } = useConsole()
  const team = useTeamApi()
  const domains = useLoad(() => team.domains(), `domains:${org._id}`)
  const canChange = managesSettings(org.role)
  const [host, setHost] = useState('')
  const { busy, error, run } = useAction()
  const add = (event: FormEvent) => {
    event.preventDefault()
    return run(async () => {
      await team.addDomain(host.trim())
      setHost('')
      await domains.reload()
    })
  }
  const replace = (changed: CustomDomain) => {
    if (domains.state.status !== 'ready') return
    domains.set(domains.state.data.map((d) => (d._id === changed._id ? changed : d)))
  }
  return (
    <SettingsPage testId="settings-domains" title="Custom domains">
      <p className="lead">
        Deliver your images from your own host name, such as img.example.com: once the domain is
        verified, https://img.example.com/v2/{'{pattern}'}/{'{filePath}'} serves the same images as
        your cloud name’s URLs. HTTPS certificates are issued by the service’s proxy.
      </p>
      {canChange ? (
        <form className="card settings-card" onSubmit={(event) => void add(event)}>
          <Field
            id="domain-host"
            label="Domain"
            value={host}
            required
            maxLength={253}
            placeholder="img.example.com"
            autoCapitalize="none"
            spellCheck={false}
            onChange={(e) => setHost(e.target.value)}
            data-testid="domain-host"
          />
          <button type="submit" className="button is-primary" disabled={busy}>
            Add domain
          </button>
        </form>
      ) : (
        <p className="form-alert">Only owners and admins can add or check domains.</p>
      )}
      <ErrorText message={error} />
      <ListState load={domains} label="domains" empty={emptyText('No custom domains yet.')}>
        {(list) => (
          <ul className="plain-list" data-testid="domain-list">
            {list.map((domain) => (
              <DomainCard
                key={domain._id}
                domain={domain}
                canChange={canChange}
                onChanged={replace}
                onRemoved={domains.reload}
              />
            ))}
          </ul>
        )}
      </ListState>
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteErrorBoundary
