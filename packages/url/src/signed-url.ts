import { describeType, IllegalArgumentError, MESSAGES } from './errors.ts'
import { QUERY_OPTION_KEYS } from './options.ts'
import { splitUrl } from './split-url.ts'

/** Query parameters of a signed URL: signature, expiry (Unix seconds) and access key. */
export const SIGNATURE_PARAMS = { signature: 'pbs', expiry: 'pbe', accessKey: 'pbt' } as const

/**
 * The longest a signed URL may live: ten years. `signUrl` refuses a longer `expirySeconds`, and
 * `verifySignedUrl` refuses an expiry further away than this, whatever its signature.
 */
export const MAX_SIGNED_URL_LIFETIME_S = 10 * 366 * 24 * 60 * 60

/** Names the version of the signed message, so a later scheme can never collide with this one. */
const MESSAGE_VERSION = 'tessera-signed-url-v2'

/** Options of `signUrl`. */
export interface SignUrlOptions {
  /** The token's public id, written as `pbt`. */
  accessKey: string
  /** The token's secret value, the HMAC key. */
  token: string
  /** Seconds from now until the URL expires. */
  expirySeconds: number
  /** Current time in Unix seconds (for tests); defaults to the clock. */
  now?: number
}

/** Options of `verifySignedUrl`. */
export interface VerifySignedUrlOptions {
  /** Returns the secret value for an access key, or undefined when the key is unknown. */
  getToken: (accessKey: string) => string | undefined | Promise<string | undefined>
  /** Current time in Unix seconds (for tests); defaults to the clock. */
  now?: number
}

/** The outcome of `verifySignedUrl`. */
export type SignatureCheck =
  | { valid: true; accessKey: string; expiresAt: number }
  | {
      valid: false
      reason:
        | 'missing'
        | 'malformed'
        | 'expired'
        | 'unknown_key'
        | 'invalid_signature'
        | 'unknown_parameter'
    }

const encoder = new TextEncoder()

function nowInSeconds(now: number | undefined): number {
  return now ?? Math.floor(Date.now() / 1000)
}

/** Hex HMAC-SHA256 of `message` keyed by `key` (Web Crypto). */
export async function hmacHex(key: string, message: string): Promise<string> {
  const cryptoKey = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const signature = new Uint8Array(
    await globalThis.crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message)),
  )
  let hex = ''
  for (const byte of signature) hex += byte.toString(16).padStart(2, '0')
  return hex
}

/** Compares two strings in time that depends only on their lengths. */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}

/**
 * The signed message: a version line, then the path (without its leading slash), the query
 * other than the signature parameters (pairs joined by `&`) and the expiry, each field prefixed
 * by its length. Pixelbin's message runs path, query and expiry together, so characters could
 * move from one field to the next (digits at the end of the query into the expiry) without
 * changing the signature; with lengths no field can borrow from its neighbour
 * (docs/decisions/004-signed-url-canonical-message.md).
 */
export function signedMessage(pathname: string, query: readonly string[], expiry: string): string {
  const fields = [pathname.slice(1), query.join('&'), expiry]
  return [MESSAGE_VERSION, ...fields.map((field) => `${field.length}:${field}`)].join('\n')
}

function splitQuery(search: string): string[] {
  return search.length > 1 ? search.slice(1).split('&') : []
}

function queryKey(pair: string): string {
  const equals = pair.indexOf('=')
  return equals === -1 ? pair : pair.slice(0, equals)
}

/**
 * Signs a delivery URL so it cannot be altered and expires: appends `pbs` (hex HMAC-SHA256 of
 * the length-prefixed path, query and expiry, keyed by the token; see `signedMessage`), `pbe` (expiry, Unix seconds) and `pbt`
 * (the access key). Uses Web Crypto, so it runs in browsers and Node alike.
 *
 * @throws {IllegalArgumentError} for missing arguments, a non-numeric or too long expiry, a URL
 *   that is already signed, or a query parameter other than the delivery options.
 * @example await signUrl('https://cdn.example.com/v2/demo/original/a.jpg',
 *   { accessKey: 'key-id', token: 'secret', expirySeconds: 3600 })
 */
export async function signUrl(url: string, options: SignUrlOptions): Promise<string> {
  const { accessKey, token, expirySeconds } = options ?? ({} as SignUrlOptions)
  if (!url || !accessKey || !token || expirySeconds === undefined || expirySeconds === null) {
    throw new IllegalArgumentError(MESSAGES.signRequired)
  }
  if (typeof expirySeconds !== 'number' || !Number.isFinite(expirySeconds)) {
    throw new IllegalArgumentError(MESSAGES.signExpiry(describeType(expirySeconds)))
  }
  if (expirySeconds > MAX_SIGNED_URL_LIFETIME_S) {
    throw new IllegalArgumentError(MESSAGES.signExpiryTooLong(MAX_SIGNED_URL_LIFETIME_S))
  }
  const parts = splitUrl(url)
  const query = splitQuery(parts.search)
  if (query.some((pair) => queryKey(pair) === SIGNATURE_PARAMS.signature)) {
    throw new IllegalArgumentError(MESSAGES.signAlreadySigned)
  }
  // The server refuses a signed URL with a parameter it does not know, so none is signed.
  const unknown = query.map(queryKey).find((key) => !QUERY_OPTION_KEYS.includes(key))
  if (unknown !== undefined) throw new IllegalArgumentError(MESSAGES.signUnknownParameter(unknown))
  const expiry = String(nowInSeconds(options.now) + Math.floor(expirySeconds))
  const signature = await hmacHex(token, signedMessage(parts.pathname, query, expiry))
  const signed = [
    ...query,
    `${SIGNATURE_PARAMS.signature}=${signature}`,
    `${SIGNATURE_PARAMS.expiry}=${expiry}`,
    `${SIGNATURE_PARAMS.accessKey}=${encodeURIComponent(accessKey)}`,
  ]
  return `${parts.protocol}//${parts.host}${parts.pathname}?${signed.join('&')}`
}

/**
 * Verifies a signed delivery URL: the signature must match (compared in constant time), the
 * expiry must not have passed nor lie more than `MAX_SIGNED_URL_LIFETIME_S` ahead, and the query
 * may hold only the delivery options (`dpr`, `f_auto`) besides `pbs`/`pbe`/`pbt`. Never throws
 * for a bad URL; it answers `{ valid: false, reason }`.
 */
export async function verifySignedUrl(
  url: string,
  options: VerifySignedUrlOptions,
): Promise<SignatureCheck> {
  let parts: ReturnType<typeof splitUrl>
  try {
    parts = splitUrl(url)
  } catch {
    return { valid: false, reason: 'malformed' }
  }
  const rest: string[] = []
  const found = new Map<string, string>()
  for (const pair of splitQuery(parts.search)) {
    const key = queryKey(pair)
    if (
      key === SIGNATURE_PARAMS.signature ||
      key === SIGNATURE_PARAMS.expiry ||
      key === SIGNATURE_PARAMS.accessKey
    ) {
      if (found.has(key)) return { valid: false, reason: 'malformed' }
      found.set(key, pair.slice(key.length + 1))
    } else if (QUERY_OPTION_KEYS.includes(key)) rest.push(pair)
    else return { valid: false, reason: 'unknown_parameter' }
  }
  const signature = found.get(SIGNATURE_PARAMS.signature)
  const expiry = found.get(SIGNATURE_PARAMS.expiry)
  const encodedKey = found.get(SIGNATURE_PARAMS.accessKey)
  if (signature === undefined || expiry === undefined || encodedKey === undefined) {
    return { valid: false, reason: 'missing' }
  }
  if (!/^\d{1,15}$/.test(expiry) || !/^[0-9a-f]{64}$/i.test(signature)) {
    return { valid: false, reason: 'malformed' }
  }
  const expiresAt = Number(expiry)
  const now = nowInSeconds(options.now)
  if (expiresAt < now) return { valid: false, reason: 'expired' }
  if (expiresAt > now + MAX_SIGNED_URL_LIFETIME_S) return { valid: false, reason: 'malformed' }
  let accessKey: string
  try {
    accessKey = decodeURIComponent(encodedKey)
  } catch {
    return { valid: false, reason: 'malformed' }
  }
  const token = await options.getToken(accessKey)
  if (token === undefined || token === '') return { valid: false, reason: 'unknown_key' }
  const expected = await hmacHex(token, signedMessage(parts.pathname, rest, expiry))
  if (!timingSafeEqual(expected, signature.toLowerCase())) {
    return { valid: false, reason: 'invalid_signature' }
  }
  return { valid: true, accessKey, expiresAt }
}
