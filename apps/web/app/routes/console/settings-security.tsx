// Security: signed URLs (signing keys, made and revoked here; the secret is shown once),
// whether delivery requires them, and strict transformations. A URL can be signed right here
// with a new key, to check what delivery accepts.
import { signUrl } from '@tessera/url'
import { type FormEvent, useState } from 'react'
import { managesSettings, useConsole } from '../../components/console/console-context.tsx'
import {
  ConfirmButton,
  CopyButton,
  ErrorText,
  formatDate,
} from '../../components/console/console-ui.tsx'
import { emptyText, ListState, useLoad } from '../../components/console/load-state.tsx'
import { SecretBox, SettingsPage } from '../../components/console/settings-nav.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import type { OrgSettings, SigningKey } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/settings-security.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Security', noIndex: true })

const TOGGLES: [keyof OrgSettings, string, string][] = [
  [
    'requireSignedUrls',
    'Require signed URLs',
    'Delivery answers 401 to a URL without a valid signature (pbs, pbe, pbt).',
  ],
  [
    'strictTransformations',
    'Strict transformations',
    'Operations that cost credits run only from your presets or in signed URLs.',
  ],
  [
    'allowRawFiles',
    'Allow files that are not images',
    'Uploads may store other files; they are delivered as attachments.',
  ],
]

function Toggles({
  settings,
  onSaved,
}: {
  settings: OrgSettings
  onSaved: (s: OrgSettings) => void
}) {
  const { api } = useConsole()
  const { busy, error, run } = useAction()
  const change = (key: keyof OrgSettings, value: boolean) =>
    run(async () => onSaved(await api.updateSettings({ [key]: value })))
  return (
    <div className="card settings-card">
      {TOGGLES.map(([key, label, hint]) => (
        <div className="toggle-row" key={key}>
          <label>
            <input
              type="checkbox"
              checked={settings[key]}
              disabled={busy}
              onChange={(event) => void change(key, event.target.checked)}
              data-testid={`setting-${key}`}
            />{' '}
            <strong>{label}</strong>
          </label>
          <small>{hint}</small>
        </div>
      ))}
      <ErrorText message={error} testId="settings-error" />
    </div>
  )
}

function Signer({ secret, accessKey }: { secret: string; accessKey: string }) {
  const [url, setUrl] = useState('')
  const [hours, setHours] = useState('1')
  const [signed, setSigned] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    try {
      setSigned(
        await signUrl(url.trim(), {
          accessKey,
          token: secret,
          expirySeconds: Math.round(Number(hours) * 3600),
        }),
      )
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : String(reason))
    }
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="signer">
      <h3>Sign a URL with this key</h3>
      <div className="field">
        <label htmlFor="sign-url">Delivery URL</label>
        <input
          id="sign-url"
          value={url}
          required
          onChange={(e) => setUrl(e.target.value)}
          data-testid="sign-url"
        />
      </div>
      <div className="field">
        <label htmlFor="sign-hours">Valid for (hours)</label>
        <input
          id="sign-hours"
          type="number"
          min="0.01"
          step="any"
          value={hours}
          onChange={(e) => setHours(e.target.value)}
        />
      </div>
      <button type="submit" className="button is-secondary is-small" data-testid="sign-submit">
        Sign
      </button>
      <ErrorText message={error} />
      {signed === null ? null : (
        <>
          <code className="url-box" data-testid="signed-url">
            {signed}
          </code>
          <CopyButton text={signed} label="Copy signed URL" />
        </>
      )}
    </form>
  )
}

export default function Security() {
  const { api, org } = useConsole()
  const canManage = managesSettings(org.role)
  const settings = useLoad(() => api.settings(), `settings:${org._id}`)
  return (
    <SettingsPage testId="settings-security" title="Security">
      <h2>Delivery</h2>
      <ListState load={settings} label="the security settings">
        {(data) =>
          canManage ? (
            <Toggles settings={data} onSaved={settings.set} />
          ) : (
            <ul className="simple-list" data-testid="settings-readonly">
              {TOGGLES.map(([key, label]) => (
                <li key={key}>
                  <span>
                    <strong>{label}</strong>: {data[key] ? 'on' : 'off'}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </ListState>
      <h2>Signing keys</h2>
      <p>
        A signed URL carries pbs (the signature), pbe (its expiry) and pbt (the key). Sign in your
        server with signUrl from @tessera/url and the key's secret.
      </p>
      {canManage ? (
        <SigningKeys />
      ) : (
        <p data-testid="signing-keys-role">
          Owners and admins make and revoke signing keys and change these settings; you are{' '}
          {org.role}.
        </p>
      )}
    </SettingsPage>
  )
}

/** The signing keys (owners and admins only: the server refuses other roles). */
function SigningKeys() {
  const { api, org } = useConsole()
  const keys = useLoad(() => api.signingKeys(), `keys:${org._id}`)
  const [created, setCreated] = useState<SigningKey | null>(null)
  const { error, attempt } = useAction()
  const create = () =>
    attempt(async () => {
      setCreated(await api.createSigningKey())
      await keys.reload()
    })
  // Revoking changes what the settings allow (the last key cannot go while URLs must be signed).
  const revoke = (key: SigningKey) =>
    attempt(async () => {
      await api.revokeSigningKey(key._id)
      if (created?._id === key._id) setCreated(null)
      await keys.reload()
    })
  return (
    <>
      <ErrorText message={error} />
      <button
        type="button"
        className="button is-primary is-small"
        onClick={() => void create()}
        data-testid="create-signing-key"
      >
        New signing key
      </button>
      {created?.secret === undefined ? null : (
        <SecretBox testId="new-signing-key">
          <p>
            Key <code data-testid="new-key-access">{created.accessKey}</code>: copy its secret now,
            it is not shown again.
          </p>
          <code data-testid="new-key-secret">{created.secret}</code>
          <CopyButton text={created.secret} label="Copy secret" />
          <Signer secret={created.secret} accessKey={created.accessKey} />
        </SecretBox>
      )}
      <ListState load={keys} label="signing keys" empty={emptyText('No signing keys yet.')}>
        {(list) => (
          <ul className="simple-list" data-testid="signing-keys">
            {list.map((key) => (
              <li key={key._id}>
                <span>
                  <code>{key.accessKey}</code> made {formatDate(key.createdAt)}
                  {key.revokedAt ? `, revoked ${formatDate(key.revokedAt)}` : ''}
                </span>
                {!key.revokedAt ? (
                  <ConfirmButton
                    question={`Revoke ${key.accessKey}? URLs signed with it stop working.`}
                    onConfirm={() => revoke(key)}
                  >
                    Revoke
                  </ConfirmButton>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </ListState>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
