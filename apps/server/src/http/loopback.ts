// One origin in development (issue 24, item 1). `PUBLIC_URL` defaults to `http://localhost:PORT`
// while the server listens on 127.0.0.1: a page opened at the other loopback name is another
// origin to the browser, so its Content-Security-Policy refuses the images and API calls the
// pages make to PUBLIC_URL, and its session cookie is not the other name's. So a browser that
// navigates to a loopback name other than PUBLIC_URL's, on PUBLIC_URL's port, is sent there
// (307, before routing); API clients and delivery are answered where they are. Production
// (a PUBLIC_URL that is not local) is untouched: there PUBLIC_URL must be the one address users
// open (docs/web.md, "The address to open").
import type { IncomingMessage } from 'node:http'
import { isLocalUrl, type ServerConfig } from '../config.ts'

const LOOPBACK_NAMES = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/

/** A request Host header's name (lower case, IPv6 in brackets) and port (`''` when absent). */
function splitHost(host: string): { name: string; port: string } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host.trim().toLowerCase())
  return { name: match?.[1] ?? '', port: match?.[2] ?? '' }
}

/** Whether the request is a browser opening a page (not a script's call or an image). */
function isNavigation(incoming: IncomingMessage): boolean {
  const mode = incoming.headers['sec-fetch-mode']
  if (mode !== undefined) return mode === 'navigate'
  // Browsers without Fetch Metadata: a GET that asks for HTML first.
  return /^\s*text\/html/i.test(incoming.headers.accept ?? '')
}

/**
 * Where a navigation to another loopback name of this server goes: a function answering the
 * redirect's `Location`, or undefined when the request stays. Undefined altogether (no check at
 * all) when PUBLIC_URL is not local.
 */
export function createLoopbackRedirect(
  config: Pick<ServerConfig, 'publicUrl'>,
): ((incoming: IncomingMessage) => string | undefined) | undefined {
  if (!isLocalUrl(config.publicUrl)) return undefined
  const publicUrl = new URL(config.publicUrl)
  const publicName = publicUrl.hostname.toLowerCase()
  const publicPort = publicUrl.port === '' ? '80' : publicUrl.port
  if (!LOOPBACK_NAMES.test(publicName)) return undefined
  return (incoming) => {
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') return undefined
    const { name, port } = splitHost(incoming.headers.host ?? '')
    if (name === publicName || !LOOPBACK_NAMES.test(name)) return undefined
    if ((port === '' ? '80' : port) !== publicPort) return undefined
    const target = incoming.url ?? '/'
    if (!target.startsWith('/') || target.startsWith('//') || !isNavigation(incoming)) {
      return undefined
    }
    return `${publicUrl.origin}${target}`
  }
}

/**
 * The start-up line: the address to open is PUBLIC_URL (what links, cookies and the pages'
 * policy are made for), whatever address the listener is bound to.
 */
export function startupMessage(config: Pick<ServerConfig, 'publicUrl'>, boundUrl: string): string {
  return boundUrl === config.publicUrl
    ? `Tessera is ready: open ${config.publicUrl}`
    : `Tessera is ready: open ${config.publicUrl} (listening on ${boundUrl})`
}
