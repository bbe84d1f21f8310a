// The SSR output cache (issue 14): a page rendered for an anonymous visitor is kept in memory and
// answered again to the next anonymous visitor of the same URL, until the content changes or its
// time is up. Signed-in visitors, other methods, errors, redirects and anything that sets a cookie
// always render. Every answer from the cache gets a fresh Content-Security-Policy nonce, so two
// visitors of this process never share one (a CDN in front does share it, for `s-maxage`).
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { createTtlCache } from '../platform/cache.ts'

/** How long a CDN may serve a cached page after it went stale while it fetches a new one (s). */
export const STALE_WHILE_REVALIDATE_SECONDS = 300

/** Settings of the page cache (`PAGE_CACHE_*`). */
export interface PageCacheSettings {
  /** Bytes of page bodies kept in all (least recently used go first); 0 turns the cache off. */
  maxBytes: number
  /** Pages kept at most. */
  maxEntries: number
  /** Seconds a page is answered from memory, and the `s-maxage` a CDN gets. */
  maxAgeSeconds: number
}

export interface PageCacheOptions extends PageCacheSettings {
  /**
   * What else decides a page besides its URL: the runtime configuration the pages get. Part of
   * every key, so pages rendered under another configuration are never answered.
   */
  configKey: string
  /** The session cookie's name: a request that carries one (or `Authorization`) is signed in. */
  sessionCookie: string
  /** Compresses an answer for the visitor's `Accept-Encoding` (pages are kept uncompressed). */
  compress: (request: Request, response: Response) => Response
  /** The encoding to answer with for an `Accept-Encoding` header (none: undefined). */
  chooseEncoding: (acceptEncoding: string | null) => 'br' | 'gzip' | undefined
}

/** What the server adds to an answer made before routing (`PageCache.answerRaw`). */
export interface RawAnswerHooks {
  /** Headers every answer carries (the request id, HSTS over HTTPS). */
  headers: (incoming: IncomingMessage) => Record<string, string>
  /** Counts and logs the answer, as the app's middleware does for routed requests. */
  answered: (incoming: IncomingMessage, headers: Record<string, string>, ms: number) => void
}

/** How a page was answered, in the `x-page-cache` header. */
export type PageCacheOutcome = 'hit' | 'miss' | 'bypass'

export interface PageCache {
  /** Answers `request` from the cache or with `render`, keeping the result when it may. */
  serve(request: Request, render: (request: Request) => Promise<Response>): Promise<Response>
  /**
   * Answers a node:http request from the cache before any routing when it is an anonymous GET
   * of a kept page whose URL is exactly the key (already normalised: no `..`, no escapes that
   * normalising would change); returns false, having written nothing, otherwise.
   */
  answerRaw(incoming: IncomingMessage, outgoing: ServerResponse, hooks: RawAnswerHooks): boolean
  /** Forgets every page (the content changed); renders under way are not kept. */
  invalidate(): void
  readonly entries: number
  readonly bytes: number
}

interface Entry {
  /** The body cut at every occurrence of the nonce it was rendered with. */
  parts: Buffer[]
  /** The nonce the page was rendered with ('' when it has none). */
  nonce: string
  headers: [string, string][]
  bytes: number
}

const NONCE = /'nonce-([A-Za-z0-9+/=]{16,})'/
const brotliOnce = promisify(brotliCompress)
const gzipOnce = promisify(gzip)

/** True when a `Cookie` header carries a non-empty cookie called `name`. */
export function hasCookie(header: string | null | undefined, name: string): boolean {
  if (header === null || header === undefined) return false
  return header.split(';').some((part) => {
    const [key, ...value] = part.split('=')
    return key?.trim() === name && value.join('=').trim() !== ''
  })
}
const SIGNED_IN_CACHE_CONTROL = 'private, no-store'

// Random bytes are drawn 4 KiB at a time: one system call per 256 nonces instead of one each.
const POOL_BYTES = 4096
let pool = Buffer.alloc(0)
let poolAt = POOL_BYTES

/** The nonce a new answer gets: 16 random bytes, base64, as the web app makes them. */
function freshNonce(): string {
  if (poolAt + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES)
    poolAt = 0
  }
  poolAt += 16
  return pool.toString('base64', poolAt - 16, poolAt)
}

function splitOn(body: Buffer, separator: string): Buffer[] {
  if (separator === '') return [body]
  const needle = Buffer.from(separator)
  const parts: Buffer[] = []
  let from = 0
  for (let at = body.indexOf(needle, from); at !== -1; at = body.indexOf(needle, from)) {
    parts.push(body.subarray(from, at))
    from = at + needle.length
  }
  parts.push(body.subarray(from))
  return parts
}

/** True when the rendered answer may be kept for other anonymous visitors. */
function isKeepable(response: Response): boolean {
  if (response.status !== 200) return false
  const headers = response.headers
  if (headers.has('set-cookie')) return false
  if (!/^text\/html\b/i.test(headers.get('content-type') ?? '')) return false
  if (/\b(no-store|private|no-cache)\b/i.test(headers.get('cache-control') ?? '')) return false
  const vary = headers.get('vary') ?? ''
  const varied = vary.split(',').map((name) => name.trim().toLowerCase())
  if (varied.some((name) => name !== '' && name !== 'accept-encoding')) return false
  return true
}

/** Creates the page cache; with `maxBytes` 0 every page renders (and still gets its headers). */
export function createPageCache(options: PageCacheOptions): PageCache {
  const enabled = options.maxBytes > 0 && options.maxEntries > 0 && options.maxAgeSeconds > 0
  const entries = createTtlCache<string, Entry>({
    ttlMs: enabled ? options.maxAgeSeconds * 1000 : 0,
    maxEntries: options.maxEntries,
    weigh: (entry) => entry.bytes,
    maxWeight: options.maxBytes,
  })
  const rendering = new Map<string, Promise<Entry | undefined>>()
  let generation = 0
  const publicCacheControl = `public, max-age=0, s-maxage=${options.maxAgeSeconds}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}`

  /**
   * The body (as pieces: the kept page's cuts with the new nonce between them) and headers of an
   * answer from a kept page, with its own nonce.
   */
  const made = (entry: Entry, outcome: PageCacheOutcome) => {
    const nonce = entry.nonce === '' ? '' : freshNonce()
    // A plain object, not Headers: the Node adapter writes it as it is.
    const headers: Record<string, string> = {}
    for (const [name, value] of entry.headers) {
      headers[name] =
        nonce === '' || !value.includes(entry.nonce) ? value : value.replaceAll(entry.nonce, nonce)
    }
    headers['cache-control'] = publicCacheControl
    headers.vary = 'Accept-Encoding, Cookie'
    headers['x-page-cache'] = outcome
    const pieces = entry.parts.length === 1 ? entry.parts : joinParts(entry.parts, nonce)
    let length = 0
    for (const piece of pieces) length += piece.length
    headers['content-length'] = String(length)
    return { pieces, length, headers }
  }

  const whole = (pieces: Buffer[], length: number): Buffer =>
    pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, length)

  /** An answer made from a kept page, with its own nonce. */
  const answer = (request: Request, entry: Entry, outcome: PageCacheOutcome): Response => {
    const { pieces, length, headers } = made(entry, outcome)
    const response = new Response(whole(pieces, length), { status: 200, headers })
    // Only a client that asks for compression pays for the compressor.
    return request.headers.get('accept-encoding') ? options.compress(request, response) : response
  }

  const isSignedIn = (cookie: string | null | undefined, authorization: unknown) =>
    (authorization !== null && authorization !== undefined) ||
    hasCookie(cookie, options.sessionCookie)

  /** Renders the page without compression; keeps it when it may be kept. */
  const renderAndKeep = async (
    key: string,
    request: Request,
    render: (request: Request) => Promise<Response>,
  ): Promise<{ entry?: Entry; response?: Response }> => {
    const started = generation
    const headers = new Headers(request.headers)
    headers.delete('accept-encoding')
    const response = await render(new Request(request.url, { method: 'GET', headers }))
    if (!isKeepable(response)) return { response }
    const body = Buffer.from(await response.arrayBuffer())
    const nonce = NONCE.exec(response.headers.get('content-security-policy') ?? '')?.[1] ?? ''
    const kept: [string, string][] = []
    for (const [name, value] of response.headers) {
      if (name === 'content-length' || name === 'cache-control' || name === 'vary') continue
      kept.push([name, value])
    }
    const entry: Entry = {
      parts: splitOn(body, nonce),
      nonce,
      headers: kept,
      bytes: body.length,
    }
    if (generation === started) entries.set(key, entry)
    return { entry }
  }

  const bypass = (response: Response, signedIn: boolean): Response => {
    const headers = new Headers(response.headers)
    if (signedIn) headers.set('cache-control', SIGNED_IN_CACHE_CONTROL)
    else if (!headers.has('cache-control')) headers.set('cache-control', SIGNED_IN_CACHE_CONTROL)
    headers.set('x-page-cache', 'bypass')
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    })
  }

  return {
    async serve(request, render) {
      const signedIn = isSignedIn(
        request.headers.get('cookie'),
        request.headers.get('authorization'),
      )
      if (!enabled || signedIn || request.method !== 'GET') {
        return bypass(await render(request), signedIn)
      }
      const key = `${options.configKey}\n${request.url}`
      const found = entries.get(key)
      if (found !== undefined) return answer(request, found, 'hit')
      // Visitors who ask while the page renders wait for that render instead of starting theirs.
      const pending = rendering.get(key)
      if (pending !== undefined) {
        const entry = await pending
        if (entry !== undefined) return answer(request, entry, 'hit')
        return bypass(await render(request), false)
      }
      const run = renderAndKeep(key, request, render)
      const shared = run.then(
        (result) => result.entry,
        () => undefined,
      )
      rendering.set(key, shared)
      try {
        const result = await run
        if (result.entry !== undefined) return answer(request, result.entry, 'miss')
        return bypass(options.compress(request, result.response as Response), false)
      } finally {
        if (rendering.get(key) === shared) rendering.delete(key)
      }
    },
    answerRaw(incoming, outgoing, hooks) {
      const started = performance.now()
      const target = incoming.url
      const host = incoming.headers.host
      if (!enabled || incoming.method !== 'GET' || target === undefined || host === undefined) {
        return false
      }
      if (
        target.charCodeAt(0) !== 47 ||
        isSignedIn(incoming.headers.cookie, incoming.headers.authorization)
      ) {
        return false
      }
      const entry = entries.get(`${options.configKey}\nhttp://${host}${target}`)
      if (entry === undefined) return false
      const { pieces, length, headers } = made(entry, 'hit')
      Object.assign(headers, hooks.headers(incoming))
      const accepted = incoming.headers['accept-encoding']
      const encoding = options.chooseEncoding(typeof accepted === 'string' ? accepted : null)
      const send = (data: Buffer[]) => {
        let bytes = 0
        for (const piece of data) bytes += piece.length
        headers['content-length'] = String(bytes)
        outgoing.writeHead(200, headers)
        // The pieces go out as they are (one writev): no 60 KB copy per answer to allocate and
        // collect.
        outgoing.cork()
        for (const piece of data) outgoing.write(piece)
        outgoing.end()
        hooks.answered(incoming, headers, performance.now() - started)
      }
      if (encoding === undefined) {
        send(pieces)
        return true
      }
      const body = whole(pieces, length)
      headers['content-encoding'] = encoding
      const compressed =
        encoding === 'br'
          ? brotliOnce(body, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 5,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            })
          : gzipOnce(body, { level: 6 })
      compressed.then(
        (data) => send([data]),
        () => {
          // Compression failing is not expected; the visitor still gets the page.
          delete headers['content-encoding']
          send([body])
        },
      )
      return true
    },
    invalidate() {
      generation++
      entries.clear()
      rendering.clear()
    },
    get entries() {
      return entries.count
    },
    get bytes() {
      return entries.weight
    },
  }
}

function joinParts(parts: Buffer[], nonce: string): Buffer[] {
  const separator = Buffer.from(nonce)
  const joined: Buffer[] = []
  for (const [index, part] of parts.entries()) {
    if (index > 0) joined.push(separator)
    joined.push(part)
  }
  return joined
}
