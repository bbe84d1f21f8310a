import { IllegalArgumentError, MESSAGES } from './errors.ts'
import { hmacHex, timingSafeEqual } from './signed-url.ts'

/** The headers of a signed panel request (SPEC §7.1). */
export const REQUEST_SIGNATURE_HEADERS = {
  param: 'x-ebg-param',
  signature: 'x-ebg-signature',
} as const

/** A request as far as its signature covers it. */
export interface SignableRequest {
  method: string
  /** The absolute URL the request goes to. */
  url: string
  /**
   * The body exactly as sent: a string (JSON is signed as the text sent). Leave it out for
   * requests without a body and for multipart bodies, which are not covered.
   */
  body?: string | undefined
}

/** The two headers `signRequest` adds. */
export interface RequestSignature {
  'x-ebg-param': string
  'x-ebg-signature': string
}

/** Options of `verifyRequestSignature`. */
export interface VerifyRequestOptions {
  key: string
  /** How far the signing time may lie from now, either way, in seconds. */
  maxAgeSeconds: number
  /** Current time in milliseconds (for tests); defaults to the clock. */
  now?: number
}

/** The outcome of `verifyRequestSignature`. */
export type RequestSignatureCheck =
  | { valid: true; signedAt: number; signature: string }
  | { valid: false; reason: 'missing' | 'malformed' | 'stale' | 'invalid_signature' }

const encoder = new TextEncoder()
const SIGNING_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(
    await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text)),
  )
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return hex
}

/** `20261121T093000Z`: the ISO time without `-`, `:` and milliseconds. */
export function formatSigningTime(milliseconds: number): string {
  return new Date(milliseconds)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
}

function parseSigningTime(text: string): number | undefined {
  const match = SIGNING_TIME.exec(text)
  if (match === null) return undefined
  const [, year, month, day, hour, minute, second] = match.map(Number)
  const time = Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second)
  return formatSigningTime(time) === text ? time : undefined
}

const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  )

// Both ends normalise the query the same way: decoded, sorted by key then value, re-encoded.
function canonicalQuery(search: string): string {
  const pairs = [...new URLSearchParams(search)]
  pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0))
  return pairs.map(([key, value]) => `${rfc3986(key)}=${rfc3986(value)}`).join('&')
}

async function signatureFor(request: SignableRequest, url: URL, time: string, key: string) {
  const canonical = [
    request.method.toUpperCase(),
    url.pathname,
    canonicalQuery(url.search),
    `host:${url.host}\nx-ebg-param:${time}\n`,
    'host;x-ebg-param',
    await sha256Hex(request.body ?? ''),
  ].join('\n')
  return `v1:${await hmacHex(key, `${time}\n${await sha256Hex(canonical)}`)}`
}

function parseUrl(url: unknown): URL | undefined {
  if (typeof url !== 'string' || url === '') return undefined
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

/**
 * Signs a panel request (SPEC §7.1, the `x-ebg-*` scheme): an HMAC-SHA256 over the method, the
 * path, the sorted query, the host and signing time, and the sha256 of the body. The signature
 * guards integrity and freshness; the session or API token says who is calling.
 *
 * @throws {IllegalArgumentError} 'No URL present in request config, unable to sign request'
 *   when the request has no absolute URL, or when the key is empty.
 * @example const headers = await signRequest({ method: 'GET', url: 'https://api.example.com/x' }, key)
 */
export async function signRequest(
  request: SignableRequest,
  key: string,
  options: { now?: number } = {},
): Promise<RequestSignature> {
  const url = parseUrl(request?.url)
  if (url === undefined) throw new IllegalArgumentError(MESSAGES.signRequestNoUrl)
  if (typeof key !== 'string' || key === '') {
    throw new IllegalArgumentError(MESSAGES.signRequestNoKey)
  }
  const time = formatSigningTime(options.now ?? Date.now())
  return {
    [REQUEST_SIGNATURE_HEADERS.param]: btoa(time),
    [REQUEST_SIGNATURE_HEADERS.signature]: await signatureFor(request, url, time, key),
  } as RequestSignature
}

/**
 * Checks a signed panel request: both headers present and well-formed, the signing time within
 * `maxAgeSeconds` of now, and the signature equal (in constant time) to the one recomputed from
 * the request. Never throws; it answers `{ valid: false, reason }`. Rejecting a replay of a
 * fresh signature needs memory of the signatures seen, which the caller keeps.
 */
export async function verifyRequestSignature(
  request: SignableRequest & { param: string | undefined; signature: string | undefined },
  options: VerifyRequestOptions,
): Promise<RequestSignatureCheck> {
  if (!request.param || !request.signature) return { valid: false, reason: 'missing' }
  const url = parseUrl(request.url)
  if (url === undefined || !/^v1:[0-9a-f]{64}$/.test(request.signature)) {
    return { valid: false, reason: 'malformed' }
  }
  let time: string
  try {
    time = atob(request.param)
  } catch {
    return { valid: false, reason: 'malformed' }
  }
  const signedAt = parseSigningTime(time)
  if (signedAt === undefined) return { valid: false, reason: 'malformed' }
  const now = options.now ?? Date.now()
  if (Math.abs(now - signedAt) > options.maxAgeSeconds * 1000) {
    return { valid: false, reason: 'stale' }
  }
  const expected = await signatureFor(request, url, time, options.key)
  return timingSafeEqual(expected, request.signature)
    ? { valid: true, signedAt, signature: request.signature }
    : { valid: false, reason: 'invalid_signature' }
}
