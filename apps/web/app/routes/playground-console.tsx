// The organisation's playground in the console (SPEC §2.2: /organization/{orgId}/playground):
// the same component as /playground, on the organisation's files and presets, and a way to save
// the chain as a preset (the presets page opens its form with it).
import { urlToObj } from '@tessera/url'
import { lazy, Suspense, useEffect, useState } from 'react'
import { data, useNavigate } from 'react-router'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { serverApi } from '../lib/api.server.ts'
import { consoleApi } from '../lib/console-api.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/playground-console.ts'
import { requireConsoleUser } from './console/console.server.ts'
// The page's layout (`.console-wide`) is styled from the server's first HTML, not once the
// playground's code (which imports the same stylesheet) has arrived.
import '../styles/sample-thumbs.css'
import '../components/playground/playground.css'
import '../components/playground/playground-panels.css'

/**
 * The playground's code is a chunk of its own, loaded the way /playground loads it: a static
 * import here would make that page's dynamic import ineffective (the build warns) and put the
 * whole playground into this route's first scripts. In the browser it is fetched as soon as this
 * module runs, as a static import's would be, not only once the page has mounted.
 */
const loadPlayground = () => import('../components/playground/playground.tsx')
if (typeof document !== 'undefined') loadPlayground().catch(() => undefined)
const Playground = lazy(() => loadPlayground().then((module) => ({ default: module.Playground })))

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Playground', noIndex: true })

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { organizations } = await requireConsoleUser(request, context)
  const org = organizations.find((candidate) => candidate._id === params.orgId)
  if (org === undefined) {
    throw data({ code: 'organisation_not_found', message: 'No such organisation' }, 404)
  }
  // With signed URLs required, the playground signs every image it shows (not only AI runs).
  const api = serverApi(request, context)
  const settings = await consoleApi(api.client, api.config, org._id)
    .settings()
    .catch(() => null)
  return {
    org: {
      id: org._id,
      cloudName: org.cloudName ?? '',
      name: org.name ?? org._id,
      requireSignedUrls: settings?.requireSignedUrls === true,
    },
  }
}

/** The chain the playground shows: it keeps its result URL in the address (`?url=`). */
function currentChain(): string {
  const shown = new URL(window.location.href).searchParams.get('url')
  if (shown === null) return ''
  try {
    return urlToObj(shown).pattern
  } catch {
    return ''
  }
}

export default function ConsolePlayground({ loaderData }: Route.ComponentProps) {
  const [mounted, setMounted] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const navigate = useNavigate()
  useEffect(() => setMounted(true), [])
  const saveAsPreset = () => {
    const chain = currentChain()
    if (chain === '') {
      setNotice('Add a transformation first: a preset is a chain of them.')
      return
    }
    navigate(
      `/console/organization/${encodeURIComponent(loaderData.org.id)}/presets?${new URLSearchParams({ transformation: chain })}`,
    )
  }
  return (
    <div className="console-wide">
      <div className="playground-console-head">
        <h1>Playground</h1>
        <button
          type="button"
          className="button is-secondary is-small"
          onClick={saveAsPreset}
          disabled={!mounted}
          data-testid="save-as-preset"
        >
          Save as preset
        </button>
      </div>
      {notice === null ? null : (
        <p className="form-alert" role="status" data-testid="save-as-preset-notice">
          {notice}
        </p>
      )}
      {mounted ? (
        <Suspense fallback={<div className="playground-loading" aria-busy="true" />}>
          <Playground org={loaderData.org} />
        </Suspense>
      ) : (
        <div className="playground-loading" aria-busy="true" />
      )}
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
