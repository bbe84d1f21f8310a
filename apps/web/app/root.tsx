import { type ReactNode, use } from 'react'
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from 'react-router'
import type { Route } from './+types/root.ts'
import faviconUrl from './assets/favicon.svg?url'
import { SiteLinkNavigation } from './components/nav-link.tsx'
import { serverApi } from './lib/api.server.ts'
import { AppProvider } from './lib/app-context.tsx'
import { Integrations } from './lib/integrations/integrations.tsx'
import { NonceContext } from './lib/nonce.ts'
import { DEFAULT_RUNTIME_CONFIG } from './lib/runtime-config.ts'
import { resolveSession } from './lib/session.server.ts'
import { siteConfiguration } from './lib/website-config.server.ts'
import './styles/global.css'
import './styles/controls.css'
import './styles/page-pieces.css'

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: faviconUrl, type: 'image/svg+xml' },
]

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  const origin = new URL(request.url).origin
  // The session is resolved here, so the header's first paint is already right (SPEC §4).
  const [website, user] = await Promise.all([siteConfiguration(api), resolveSession(request, api)])
  return {
    config: api.config,
    origin,
    mainUrl: api.config.mainUrl === '' ? origin : api.config.mainUrl,
    website,
    user,
    year: new Date().getFullYear(),
  }
}

/** The runtime configuration as a script, for code that runs before React (SPEC §7.2). */
function configScript(config: unknown): string {
  return `window.__TESSERA_CONFIG__=${JSON.stringify(config).replace(/</g, '\\u003c')}`
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  // Set while rendering on the server; the browser hides a nonce from the DOM after parsing.
  const nonce = use(NonceContext)
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#4f46e5" />
        <Meta />
        <Links />
        {data === undefined ? null : (
          <script
            nonce={nonce}
            suppressHydrationWarning
            // biome-ignore lint/security/noDangerouslySetInnerHtml: serialised config, '<' escaped
            dangerouslySetInnerHTML={{ __html: configScript(data.config) }}
          />
        )}
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  )
}

export default function App({ loaderData }: Route.ComponentProps) {
  return (
    <AppProvider config={loaderData.config} serverUser={loaderData.user}>
      <Outlet />
      <Integrations />
      <SiteLinkNavigation />
    </AppProvider>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500
  const message =
    status === 404 ? 'This page does not exist.' : 'Something went wrong on our side. Try again.'
  if (!isRouteErrorResponse(error)) console.error(error)
  return (
    <AppProvider config={DEFAULT_RUNTIME_CONFIG}>
      <main className="container section" id="main">
        <p className="eyebrow">Error {status}</p>
        <h1>{status === 404 ? 'Page not found' : 'Something went wrong'}</h1>
        <p className="lead">{message}</p>
        <a className="button is-primary" href="/">
          Go to the home page
        </a>
      </main>
    </AppProvider>
  )
}
