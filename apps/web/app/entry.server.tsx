import { isbot } from 'isbot'
import { renderToReadableStream } from 'react-dom/server'
import type { EntryContext, RouterContextProvider } from 'react-router'
import { ServerRouter } from 'react-router'
import { contentSecurityPolicy, createNonce } from './lib/content-security-policy.ts'
import { webContext } from './lib/context.ts'
import { NonceContext } from './lib/nonce.ts'

// The server sets the web context under this very key (see src/index.ts).
export { webContext } from './lib/context.ts'

export const streamTimeout = 5_000

export default async function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // One nonce per response: React Router's inline and streamed scripts, React's own and the
  // runtime configuration carry it; any other inline script is refused by the policy.
  const nonce = createNonce()
  headers.set(
    'content-security-policy',
    contentSecurityPolicy(loadContext.get(webContext).config, nonce),
  )
  headers.set('x-frame-options', 'DENY')
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status, headers })
  let responseStatus = status
  let shellRendered = false
  const body = await renderToReadableStream(
    <NonceContext value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceContext>,
    {
      nonce,
      signal: AbortSignal.timeout(streamTimeout + 1000),
      onError(error: unknown) {
        responseStatus = 500
        // Errors before the shell reject and are logged by React Router itself.
        if (shellRendered) console.error(error)
      },
    },
  )
  shellRendered = true
  // Crawlers get the whole page at once.
  const agent = request.headers.get('user-agent')
  if ((agent !== null && isbot(agent)) || routerContext.isSpaMode) await body.allReady
  headers.set('content-type', 'text/html; charset=utf-8')
  const styles = stylesheetsOf(routerContext)
  if (styles.length > 0) headers.set('link', styles.map(preloadStyle).join(', '))
  headers.set('x-content-type-options', 'nosniff')
  headers.set('referrer-policy', 'strict-origin-when-cross-origin')
  return new Response(body, { headers, status: responseStatus })
}

/**
 * The stylesheets of the matched routes. The page's `Link` header preloads them, so the browser
 * asks for the render-blocking CSS with the response headers, before the script preloads that
 * React places first in the head (on HTTP/1.1 the CSS would otherwise queue behind them).
 */
function stylesheetsOf(context: EntryContext): string[] {
  const hrefs = context.staticHandlerContext.matches.flatMap(
    (match) => context.manifest.routes[match.route.id]?.css ?? [],
  )
  return [...new Set(hrefs)]
}

const preloadStyle = (href: string) => `<${encodeURI(href)}>; rel=preload; as=style`
