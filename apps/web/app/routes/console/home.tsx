// Console home: real data only (plan, credits, whether the library has anything), read on the
// server so the first paint is already right. Numbers the API does not give yet (storage used,
// files count, derived-image cache use) are left out rather than guessed.
import { Link } from 'react-router'
import { formatDate } from '../../components/console/console-context.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { serverApi } from '../../lib/api.server.ts'
import { logout } from '../../lib/api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { type Credits, consoleApi, type LibraryItem } from '../../lib/console-api.ts'
import { ORG_COOKIE, pickOrganization, readCookie } from '../../lib/console-org.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/home.ts'
import { requireConsoleUser } from './console.server.ts'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Console', noIndex: true })

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, organizations } = await requireConsoleUser(request, context)
  const active = pickOrganization(
    organizations,
    undefined,
    readCookie(request.headers.get('cookie'), ORG_COOKIE),
  )
  if (active === undefined) return { user, active: null, credits: null, top: null }
  const api = serverApi(request, context)
  const calls = consoleApi(api.client, api.config, active._id)
  const [credits, top] = await Promise.all([
    calls.credits().catch((): Credits | null => null),
    calls
      .listFiles({ path: '', pageNo: 1, pageSize: 8 })
      .catch((): { items: LibraryItem[]; page: { itemTotal: number } } | null => null),
  ])
  return { user, active, credits, top }
}

export default function ConsoleHome({ loaderData }: Route.ComponentProps) {
  const config = useConfig()
  const session = useSession()
  const { user, active, credits, top } = loaderData
  const signOut = async () => {
    try {
      await logout(session.client, config)
    } finally {
      window.location.assign('/')
    }
  }
  const orgPath = active === null ? '' : `/console/organization/${encodeURIComponent(active._id)}`
  const files = top?.items.filter((item) => item.type === 'file') ?? []
  const isEmpty = top !== null && top.page.itemTotal === 0
  return (
    <div className="console-panel is-wide" data-testid="console-home">
      <p className="eyebrow">Console</p>
      <h1>Welcome, {user.firstName}</h1>
      {active === null ? (
        <p className="lead">You are not a member of any organisation yet.</p>
      ) : (
        <>
          <p className="lead">
            You are working in{' '}
            <strong data-testid="active-org">{active.name ?? active.cloudName}</strong>.
          </p>
          <div className="stat-grid">
            <div className="card">
              <span>Cloud name</span>
              <strong data-testid="cloud-name">{active.cloudName ?? '—'}</strong>
            </div>
            <div className="card">
              <span>Plan</span>
              {credits === null ? (
                <strong data-testid="plan-unavailable">Not available</strong>
              ) : (
                <strong data-testid="plan">{credits.plan?.name ?? 'Free'}</strong>
              )}
              <Link to={`${orgPath}/billing/plans/subscription`}>Plans</Link>
            </div>
            <div className="card">
              <span>Credits</span>
              {credits === null ? (
                <strong data-testid="credits-unavailable">Not available</strong>
              ) : (
                <strong data-testid="credits">{credits.balance.toLocaleString('en-US')}</strong>
              )}
              <Link to={`${orgPath}/billing/plans/topup`}>Top up</Link>
            </div>
          </div>
          {isEmpty ? (
            <div className="card console-empty" data-testid="home-empty">
              <h2>Start with your first images</h2>
              <p>Upload images, then change their size, crop or format by editing the URL.</p>
              <div className="button-row is-centered">
                <Link to="/console/editor/upload" className="button is-primary">
                  Upload files
                </Link>
                <Link to="/console/editor/url" className="button is-secondary">
                  Upload from URL
                </Link>
              </div>
            </div>
          ) : top === null ? null : (
            <section className="card" aria-labelledby="home-library">
              <h2 id="home-library">Library</h2>
              {files.length === 0 ? (
                <p>Your files are in folders.</p>
              ) : (
                <ul className="home-files" data-testid="home-files">
                  {files.map((file) =>
                    file.type === 'file' ? (
                      <li key={file._id}>
                        <span>{file.name}</span>
                        <small>{formatDate(file.updatedAt)}</small>
                      </li>
                    ) : null,
                  )}
                </ul>
              )}
              <Link to="/console/editor" className="button is-secondary is-small">
                Open the media library
              </Link>
            </section>
          )}
          <div className="card">
            <h2 className="card-heading">Your delivery URLs</h2>
            <p>Change the size, crop or format of any image by editing its URL:</p>
            <pre className="code-block">
              <code>{`/v2/${active.cloudName ?? '{cloudName}'}/t.resize(w:600)/{filePath}`}</code>
            </pre>
            <div className="button-row">
              <Link to={`${orgPath}/presets`} className="button is-small is-secondary">
                Presets
              </Link>
              <a href={`${orgPath}/playground`} className="button is-small is-secondary">
                Playground
              </a>
              <Link to={`${orgPath}/settings/apps`} className="button is-small is-secondary">
                API tokens
              </Link>
            </div>
          </div>
        </>
      )}
      <div className="button-row space-above-6">
        <Link to="/" className="button is-secondary" reloadDocument>
          Back to website
        </Link>
        <Link to="/console/choose-org" className="button is-secondary">
          Switch organisation
        </Link>
        <button type="button" className="button is-ghost" onClick={signOut}>
          Log out
        </button>
      </div>
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
