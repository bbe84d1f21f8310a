import { lazy, Suspense, startTransition, useCallback, useEffect, useState } from 'react'
import { Link, redirect } from 'react-router'
import { Logo } from '../components/icons.tsx'
import { PlaygroundShell } from '../components/playground-shell.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { serverApi } from '../lib/api.server.ts'
import { getSession } from '../lib/api.ts'
import { useConfig } from '../lib/app-context.tsx'
import { playgroundUrl } from '../lib/links.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/playground.ts'

/** The playground's own code loads after hydration (the page's first scripts stay small). */
const loadPlayground = () => import('../components/playground/playground.tsx')
const Playground = lazy(() => loadPlayground().then((module) => ({ default: module.Playground })))

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Playground',
    description: 'Chain transformations and presets on a sample image and copy the delivery URL.',
  })

// SPEC §2.1: a signed-in visitor goes to the organisation chooser, on to the org's playground.
export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  if (request.headers.get('cookie')?.includes('bg.session=') === true) {
    const user = await getSession(api.client, api.config).catch(() => null)
    if (user !== null) throw redirect(playgroundUrl(api.config.consoleUrl))
  }
  // A shared `?url=` opens on its own image: the shell then shows no sample in the meantime.
  return { shared: new URL(request.url).searchParams.has('url') }
}

/**
 * The anonymous playground renders only in the browser (SPEC §2.1); until it mounts, the server's
 * shell shows the default sample where the playground will (the page's LCP, early).
 */
export default function PlaygroundPage({ loaderData }: Route.ComponentProps) {
  const [mounted, setMounted] = useState(false)
  // Its code is fetched at once; the playground takes over once the shell's sample is on screen
  // (so the page's largest image is the one from the HTML), in a transition that keeps the
  // shell showing until that code has loaded.
  useEffect(() => {
    // A failed fetch is the lazy component's to report (the route's error boundary), not here.
    loadPlayground().catch(() => undefined)
  }, [])
  const settled = useCallback(() => startTransition(() => setMounted(true)), [])
  const config = useConfig()
  return (
    <div className="playground">
      <header className="playground-bar">
        <Link to="/" className="site-logo">
          <Logo /> <span>Tessera</span> <span className="pill playground-pill">Playground</span>
        </Link>
        <a className="button is-primary is-small" href={playgroundUrl(config.consoleUrl)}>
          Use your own images
        </a>
      </header>
      <div className="playground-main">
        <h1 className="visually-hidden">Playground</h1>
        <Suspense fallback={<PlaygroundShell sample={!loaderData.shared} />}>
          {mounted ? (
            <Playground />
          ) : (
            <PlaygroundShell sample={!loaderData.shared} onSettled={settled} />
          )}
        </Suspense>
      </div>
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
