// Request signing of panel calls (SPEC §7.1, DESIGN §6): a signature is checked whenever a
// request carries one, and required on state-changing calls made with a session cookie (the
// calls a forged cross-site form could make). Calls with a valid API token need none; any other
// Authorization header (malformed, unknown or revoked token) lifts nothing, since the routes that
// act on the session cookie (profile, logout, invitations) would still act for the cookie's user. A fresh
// signature may be used once: state-changing signatures are remembered until they go stale, so
// an identical change sent twice with the same credentials in the same second (the signing
// time's resolution) is refused the second time; the client signs again.
import { REQUEST_SIGNATURE_HEADERS, verifyRequestSignature } from '@tessera/url'
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { MAX_JSON_BYTES } from '../http/json-body.ts'
import { bearerToken, SESSION_COOKIE, sha256 } from './auth.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

const REASONS = {
  missing: 'The request must be signed (x-ebg-param and x-ebg-signature headers)',
  malformed: 'The request signature headers are malformed',
  stale: 'The request signature is too old or from the future: check the clock and sign again',
  invalid_signature: 'The request signature does not match the request',
} as const

/** Middleware for `/service/panel/*`. */
export function signatureGuard(app: Pick<AppContext, 'repo' | 'config'>): MiddlewareHandler {
  const { repo, config } = app

  /** Whether the request carries a live API token (not merely some Authorization header). */
  async function validToken(c: Context): Promise<boolean> {
    let token: string | undefined
    try {
      token = bearerToken(c)
    } catch {
      return false
    }
    return token !== undefined && (await repo.useApiToken(sha256(token))) !== undefined
  }

  return async (c, next) => {
    const param = c.req.header(REQUEST_SIGNATURE_HEADERS.param)
    const signature = c.req.header(REQUEST_SIGNATURE_HEADERS.signature)
    const changesState = !SAFE_METHODS.has(c.req.method)
    if (param === undefined && signature === undefined) {
      if (changesState && getCookie(c, SESSION_COOKIE) !== undefined && !(await validToken(c))) {
        throw new HttpError(400, 'signature_missing', REASONS.missing)
      }
      return next()
    }
    const multipart = /^multipart\//i.test(c.req.header('content-type') ?? '')
    let body: string | undefined
    if (changesState && !multipart && c.req.raw.body !== null) {
      // The body is read here (Hono keeps it for the route), so its size is checked first.
      const length = c.req.header('content-length')
      if (c.req.header('transfer-encoding') !== undefined) {
        throw new HttpError(411, 'length_required', 'A signed request body needs a Content-Length')
      }
      if (Number(length ?? 0) > MAX_JSON_BYTES) {
        throw new HttpError(413, 'too_large', 'The JSON body is larger than 64 KB')
      }
      if (length !== undefined) body = await c.req.text()
    }
    const check = await verifyRequestSignature(
      { method: c.req.method, url: c.req.url, body, param, signature },
      { key: config.signing.key, maxAgeSeconds: config.signing.maxAgeSeconds },
    )
    if (!check.valid) {
      const code =
        check.reason === 'invalid_signature' ? 'signature_invalid' : `signature_${check.reason}`
      throw new HttpError(400, code, REASONS[check.reason])
    }
    if (changesState) {
      const until = new Date(check.signedAt + config.signing.maxAgeSeconds * 1000)
      // Remembered with the credentials it came with: the signature does not cover cookies, so
      // the same request of another session is not a replay of this one.
      const credential = getCookie(c, SESSION_COOKIE) ?? c.req.header('authorization') ?? ''
      if (!(await repo.useSignature(sha256(`${check.signature}\n${credential}`), until))) {
        throw new HttpError(400, 'signature_replayed', 'This signed request was already made once')
      }
    }
    return next()
  }
}
