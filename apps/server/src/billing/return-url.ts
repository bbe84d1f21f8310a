// Where a checkout sends the buyer back: a page of the console, given when the checkout is made.
// Only the console's own origin (and path) is accepted, so a checkout link can never be used to
// send someone elsewhere (an open redirect). The test provider carries the address in its
// checkout URL with an HMAC over the checkout reference and the address, as a real provider keeps
// the success URL it was given with the checkout session.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { ServerConfig } from '../config.ts'

/** Longest return address accepted. */
export const MAX_RETURN_URL = 2048

type ReturnConfig = Pick<ServerConfig, 'publicUrl' | 'web'>

/** The console's base as an absolute URL (`WEB_CONSOLE_URL`, a path on `PUBLIC_URL` by default). */
function consoleBase(config: ReturnConfig): URL {
  return new URL(config.web.consoleUrl, `${config.publicUrl}/`)
}

/** The console's origin, or undefined when it is the server's own (`PUBLIC_URL`). */
export function consoleOrigin(config: ReturnConfig): string | undefined {
  const origin = consoleBase(config).origin
  return origin === new URL(config.publicUrl).origin ? undefined : origin
}

/**
 * `value` as an absolute URL when it is a page of the console: the console's origin, a path
 * under the console's base, no user name or password. A path (`/console/…`) is taken on the
 * console's origin. Undefined for anything else.
 */
export function consoleReturnUrl(value: string, config: ReturnConfig): URL | undefined {
  if (value.length > MAX_RETURN_URL || /[\s\\]/.test(value)) return undefined
  const base = consoleBase(config)
  let url: URL
  try {
    // `//host/…` is a path to URL but another host to a browser: refused below by the origin.
    url = new URL(value, base)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  if (url.origin !== base.origin || url.username !== '' || url.password !== '') return undefined
  const root = base.pathname.replace(/\/+$/, '')
  if (url.pathname !== root && !url.pathname.startsWith(`${root}/`)) return undefined
  url.hash = ''
  return url
}

/** The address a settled checkout goes back to, with the payment's id and status added. */
export function returnWith(url: URL, paymentId: string, status: string): string {
  const next = new URL(url)
  next.searchParams.set('paymentId', paymentId)
  next.searchParams.set('status', status)
  return next.toString()
}

/** Signs and checks the return address a test checkout URL carries. */
export type ReturnSigner = ReturnType<typeof createReturnSigner>

export function createReturnSigner(config: Pick<ServerConfig, 'signing'>) {
  const key = createHmac('sha256', config.signing.key)
    .update('tessera test checkout return')
    .digest()
  const sign = (providerRef: string, returnUrl: string) =>
    createHmac('sha256', key).update(`${providerRef}\n${returnUrl}`).digest('base64url')
  return {
    sign,
    /** Whether `signature` is the one of this reference and address. */
    verify(providerRef: string, returnUrl: string, signature: string): boolean {
      const expected = Buffer.from(sign(providerRef, returnUrl))
      const given = Buffer.from(signature)
      return expected.length === given.length && timingSafeEqual(expected, given)
    },
  }
}
