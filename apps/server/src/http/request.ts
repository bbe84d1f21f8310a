// What the edge reads of a request beyond Hono's parsed view: the target exactly as sent, the
// host it was sent to, and the TCP peer.
import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'

function incoming(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
}

/**
 * The path and query as sent, percent-escapes and dot segments untouched (a parsed URL would
 * resolve `..` before delivery could refuse it).
 */
export function rawTarget(c: Context): { path: string; search: string } {
  const raw = incoming(c)?.url ?? c.req.url
  const target = raw.startsWith('/') ? raw : raw.replace(/^[a-z]+:\/\/[^/]*/i, '')
  const query = target.indexOf('?')
  return query === -1
    ? { path: target, search: '' }
    : { path: target.slice(0, query), search: target.slice(query) }
}

/** The host the request names, lower-cased, without a port. */
export function hostOf(c: Context): string {
  return (c.req.header('host') ?? '').toLowerCase().replace(/:\d+$/, '')
}

/**
 * The address limits count by (login, sign-up, delivery renders): the TCP peer, or the client a
 * trusted proxy names (set by the app's first middleware with `forwardedClient`).
 */
export function clientAddress(c: Context): string {
  const forwarded = (c.var as { clientAddress?: unknown }).clientAddress
  if (typeof forwarded === 'string') return forwarded
  return peerAddress(c)
}

/** The TCP peer of the request. */
export function peerAddress(c: Context): string {
  return incoming(c)?.socket.remoteAddress ?? 'unknown'
}

const plain = (address: string) =>
  address
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(?=\d)/, '')

/**
 * The client behind trusted proxies: when the peer is one, the rightmost `X-Forwarded-For` entry
 * that is not itself a trusted proxy (entries to its left were written by the client and prove
 * nothing); otherwise the peer.
 */
export function forwardedClient(
  peer: string,
  forwardedFor: string | undefined,
  trusted: readonly string[],
): string {
  const proxies = new Set(trusted.map(plain))
  if (!proxies.has(plain(peer)) || forwardedFor === undefined) return peer
  const hops = forwardedFor
    .split(',')
    .map(plain)
    .filter((hop) => hop !== '')
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string
    if (!proxies.has(hop)) return hop
  }
  return peer
}

/** Whether a peer address is this machine. */
export function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address)
}

/** Whether the request arrived over HTTPS (directly or through a proxy that says so). */
export function isHttps(c: Context, publicUrl: string): boolean {
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  return forwarded === 'https' || publicUrl.startsWith('https:') || c.req.url.startsWith('https:')
}

/**
 * Whether the request came from a page loader in this process, not over the network: only
 * `hono.fetch` called by `createLocalFetch` (`http/web.ts`) sets this env, no client can.
 */
export function isInProcess(c: Context): boolean {
  return (c.env as { inProcess?: unknown } | undefined)?.inProcess === true
}
