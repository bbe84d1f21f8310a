// Console home: real data only (plan, credits, storage used, files count, derived-image cache use,
// recent uploads in every folder), read on the server so the first paint is already right; more
// recent uploads page in from the browser. A number the API could not give says so.
import { formatBytes } from '@tessera/url'
import { useState } from 'react'
import { Link } from 'react-router'
import { useConsole } from '../../components/console/console-context.tsx'
import { ErrorText, formatDate } from '../../components/console/console-ui.tsx'
import { UsageCharts } from '../../components/console/usage-charts.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useAction } from '../../components/use-action.ts'
import { serverApi } from '../../lib/api.server.ts'
import { logout } from '../../lib/api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import {
  type Credits,
  consoleApi,
  type FileItem,
  type Paged,
  type Usage,
} from '../../lib/console-api.ts'
import { ORG_COOKIE, pickOrganization, readCookie } from '../../lib/console-org.ts'
import { thumbnailUrl } from '../../lib/console-urls.ts'
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
  if (active === undefined) {
    return { user, active: null, credits: null, usage: null, recent: null }
  }
  const api = serverApi(request, context)
  const calls = consoleApi(api.client, api.config, active._id)
  const [credits, usage, recent] = await Promise.all([
    calls.credits().catch((): Credits | null => null),
    calls.usage().catch((): Usage | null => null),
    calls.recentFiles(1, RECENT_PAGE).catch((): Paged<FileItem> | null => null),
  ])
  // Thumbnails come through the session's preview path, signed URLs required or not.
  return { user, active, credits, usage, recent }
}

const RECENT_PAGE = 8

/** The folder of a file in the media library. */
const libraryLink = (file: FileItem) =>
  `/console/editor?${new URLSearchParams({ ...(file.path === '' ? {} : { path: file.path }), file: file._id })}`

/** The organisation's newest files in every folder; further pages load on request. */
function RecentUploads({ first }: { first: Paged<FileItem> }) {
  const { api } = useConsole()
  const [pages, setPages] = useState<Paged<FileItem>[]>([first])
  const { busy: loading, error, run } = useAction()
  const last = pages[pages.length - 1] ?? first
  const files = pages.flatMap((page) => page.items)
  const more = () =>
    run(async () => {
      const next = await api.recentFiles(last.page.current + 1, RECENT_PAGE)
      setPages([...pages, next])
    })
  return (
    <>
      <ul className="home-files" data-testid="home-files">
        {files.map((file) => (
          <li key={file._id} data-testid="recent-file">
            <span className="recent-thumb" aria-hidden="true">
              {file.assetType !== 'raw' ? (
                <img src={thumbnailUrl(file.url, 96)} alt="" loading="lazy" />
              ) : (
                <span className="raw-icon">{file.format.toUpperCase()}</span>
              )}
            </span>
            <span className="recent-name">
              <Link to={libraryLink(file)}>{file.name}</Link>
              <small>{file.path === '' ? 'Top level' : file.path}</small>
            </span>
            <small className="recent-meta">
              {formatBytes(file.size)} · {formatDate(file.updatedAt)}
            </small>
          </li>
        ))}
      </ul>
      <ErrorText message={error} testId="recent-error" />
      {last.page.hasNext ? (
        <button
          type="button"
          className="button is-secondary is-small"
          onClick={() => void more()}
          disabled={loading}
          data-testid="recent-more"
        >
          {loading ? 'Loading…' : 'Show more'}
        </button>
      ) : null}
    </>
  )
}

export default function ConsoleHome({ loaderData }: Route.ComponentProps) {
  const config = useConfig()
  const session = useSession()
  const { user, active, credits, usage, recent } = loaderData
  const signOut = async () => {
    try {
      await logout(session.client, config)
    } finally {
      window.location.assign('/')
    }
  }
  const orgPath = active === null ? '' : `/console/organization/${encodeURIComponent(active._id)}`
  const isEmpty = recent !== null && recent.page.itemTotal === 0
  const cache = usage?.derivedCache
  const cacheShare =
    cache === undefined || cache.budgetBytes === 0
      ? 0
      : Math.min(100, (cache.bytes / cache.budgetBytes) * 100)
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
          <div className="stat-grid home-stats">
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
            <div className="card">
              <span>Storage</span>
              {usage === null ? (
                <strong data-testid="usage-unavailable">Not available</strong>
              ) : (
                <>
                  <strong data-testid="storage-bytes">{formatBytes(usage.storage.bytes)}</strong>
                  <small data-testid="files-count">
                    {usage.storage.files.toLocaleString('en-US')}{' '}
                    {usage.storage.files === 1 ? 'file' : 'files'}
                  </small>
                </>
              )}
              <Link to="/console/editor">Media library</Link>
            </div>
            <div className="card">
              <span>Derived-image cache</span>
              {cache === undefined ? (
                <strong>Not available</strong>
              ) : (
                <>
                  <strong data-testid="cache-bytes">{formatBytes(cache.bytes)}</strong>
                  <small data-testid="cache-entries">
                    {cache.entries.toLocaleString('en-US')} transformed{' '}
                    {cache.entries === 1 ? 'image' : 'images'} stored
                  </small>
                  <meter
                    className="cache-meter"
                    min={0}
                    max={100}
                    value={cacheShare}
                    aria-label="Share of the server's derived-image cache budget"
                  />
                  <small data-testid="cache-budget">
                    of the server's {formatBytes(cache.budgetBytes)} budget; the least recently used
                    go first
                  </small>
                </>
              )}
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
          ) : recent === null ? (
            <p className="form-alert is-error" data-testid="recent-unavailable">
              Recent uploads could not be loaded. Reload the page to try again.
            </p>
          ) : (
            <section className="card" aria-labelledby="home-library">
              <h2 id="home-library">Recent uploads</h2>
              <RecentUploads first={recent} />
              <div className="button-row">
                <Link to="/console/editor" className="button is-secondary is-small">
                  Open the media library
                </Link>
                <Link to="/console/editor/upload" className="button is-secondary is-small">
                  Upload files
                </Link>
              </div>
            </section>
          )}
          <UsageCharts />
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
