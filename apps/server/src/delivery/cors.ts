// CORS on delivery (issue 24, item 2): a page of another site may read delivered images with
// `fetch()` or draw them on a canvas it then reads, as Cloudinary and ImageKit allow. Each
// organisation chooses who may (`corsOrigins`): `['*']` (anyone, the default), a list of
// origins (the request's Origin is echoed when listed, and answers vary on Origin), or `[]`
// (no header: browsers keep the bytes from other sites' scripts). Signed and private URLs get
// the same header: the signature in the URL is the guard, and no credentials are ever allowed,
// so a cross-site script reads only what its URL already grants.

import type { UsageMeter } from '../platform/usage-meter.ts'

/** Response headers a cross-site script may read besides the CORS-safelisted ones. */
const EXPOSED = 'ETag, Content-Length, Content-Range, Retry-After, X-AI-Frames'
/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = '86400'

/** The CORS part of a delivery answer to a request from `origin` (null: no Origin header). */
export interface CorsAnswer {
  headers: Record<string, string>
  /** Whether the answer depends on the request's Origin (a list, not `*`): `Vary: Origin`. */
  varyOrigin: boolean
}

/** The CORS headers of a GET or HEAD answer. */
export function corsHeaders(allowed: readonly string[], origin: string | null): CorsAnswer {
  if (allowed.includes('*')) {
    return {
      headers: { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED },
      varyOrigin: false,
    }
  }
  if (allowed.length === 0) return { headers: {}, varyOrigin: false }
  if (origin === null || !allowed.includes(origin.toLowerCase())) {
    return { headers: {}, varyOrigin: true }
  }
  return {
    headers: { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED },
    varyOrigin: true,
  }
}

/** `response` with the CORS headers set (an answer made elsewhere, like the 202 of a job). */
export function withCors(response: Response, cors: CorsAnswer): Response {
  for (const [name, value] of Object.entries(cors.headers)) response.headers.set(name, value)
  return response
}

/**
 * Counts a delivery answer in its organisation's usage (issue 24: in memory, written in
 * batches by `platform/usage-meter.ts`): one request and its body's bytes. Answers `response`.
 */
export function countDelivery(
  usage: Pick<UsageMeter, 'count'>,
  organisationId: string,
  method: string,
  response: Response,
): Response {
  const length = Number(response.headers.get('content-length') ?? 0)
  usage.count(organisationId, {
    requests: 1,
    bytes: method === 'HEAD' || !Number.isFinite(length) ? 0 : length,
  })
  return response
}

/** Adds the CORS headers to an answer's headers (and `Origin` to its `Vary` when needed). */
export function addCors(headers: Record<string, string>, cors: CorsAnswer): void {
  Object.assign(headers, cors.headers)
  if (cors.varyOrigin) varyOnOrigin(headers)
}

/** Adds `Origin` to an answer's `Vary` header. */
export function varyOnOrigin(headers: Record<string, string>): void {
  headers.vary = headers.vary === undefined ? 'Origin' : `${headers.vary}, Origin`
}

/**
 * The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`): 204 allowing GET
 * and HEAD and the request headers asked for (they carry no credentials: none are allowed),
 * or 204 without CORS headers when the origin may not (the browser then refuses the request).
 */
export function preflightResponse(
  allowed: readonly string[],
  origin: string | null,
  requestHeaders: string | null,
): Response {
  const { headers } = corsHeaders(allowed, origin)
  const answer: Record<string, string> = {
    'cache-control': 'no-store',
    vary: 'Origin, Access-Control-Request-Headers',
  }
  if (headers['access-control-allow-origin'] !== undefined) {
    answer['access-control-allow-origin'] = headers['access-control-allow-origin']
    answer['access-control-allow-methods'] = 'GET, HEAD'
    answer['access-control-max-age'] = PREFLIGHT_MAX_AGE
    const asked = (requestHeaders ?? '').trim()
    // Header names only (tokens): anything else is not echoed.
    if (/^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/.test(asked)) {
      answer['access-control-allow-headers'] = asked
    }
  }
  return new Response(null, { status: 204, headers: answer })
}

/** The most origins an organisation may list. */
export const MAX_CORS_ORIGINS = 50

/**
 * An origin as an organisation lists it: `*`, or `scheme://host[:port]` of http(s), lower case,
 * default port dropped (what browsers send in `Origin`). Undefined for anything else.
 */
export function normaliseOrigin(value: string): string | undefined {
  const trimmed = value.trim()
  if (trimmed === '*') return '*'
  if (!/^https?:\/\/[^/?#]+\/?$/i.test(trimmed)) return undefined
  try {
    const url = new URL(trimmed)
    if (url.username !== '' || url.password !== '') return undefined
    return url.origin.toLowerCase()
  } catch {
    return undefined
  }
}
