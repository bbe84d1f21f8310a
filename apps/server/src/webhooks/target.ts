// Where a webhook may point (decision 016): the remote-source rules of `assets/remote.ts` (http(s)
// only, no credentials, no loopback, private or link-local address unless the host is in
// REMOTE_ALLOW_HOSTS), plus HTTPS required for every host not allow-listed. Checked when an
// endpoint is registered (the name resolved now) and again at every delivery (the address checked
// at connect time, so a name rebound to a private address later is refused then).
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { checkUrl, isBlockedAddress, RemoteError } from '../assets/remote.ts'
import { HttpError } from '../http/errors.ts'

/** The longest webhook URL kept. */
export const MAX_WEBHOOK_URL = 2048

/** A webhook target's URL, checked without a lookup; 400 `invalid_webhook_url` naming why. */
export function checkTargetUrl(text: unknown, allowHosts: readonly string[], field = 'url'): URL {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new HttpError(400, 'invalid_webhook_url', `${field} must be an https URL`)
  }
  if (text.length > MAX_WEBHOOK_URL) {
    throw new HttpError(
      400,
      'invalid_webhook_url',
      `${field} must be at most ${MAX_WEBHOOK_URL} characters`,
    )
  }
  let checked: { url: URL; allowPrivate: boolean }
  try {
    checked = checkUrl(text.trim(), allowHosts)
  } catch (error) {
    if (error instanceof RemoteError) {
      throw new HttpError(400, `webhook_${error.code}`, `${field}: ${error.message}`)
    }
    throw error
  }
  if (checked.url.protocol !== 'https:' && !checked.allowPrivate) {
    throw new HttpError(400, 'invalid_webhook_url', `${field} must use https`)
  }
  return checked.url
}

/**
 * `checkTargetUrl`, and the host's addresses now: a name that resolves to a private or local
 * address (any of them) is refused unless allow-listed; one that does not resolve is refused too.
 */
export async function assertTarget(
  text: unknown,
  allowHosts: readonly string[],
  field = 'url',
): Promise<string> {
  const url = checkTargetUrl(text, allowHosts, field)
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (allowHosts.includes(host) || isIP(host) !== 0) return url.toString()
  let addresses: { address: string }[]
  try {
    addresses = await lookup(host, { all: true })
  } catch {
    throw new HttpError(400, 'webhook_unreachable', `${field}: ${host} does not resolve`)
  }
  if (addresses.length === 0 || addresses.some((entry) => isBlockedAddress(entry.address))) {
    throw new HttpError(
      400,
      'webhook_blocked_address',
      `${field}: ${host} resolves to a private or local address`,
    )
  }
  return url.toString()
}
