// The delivery URL a transformation call names in its `url` query (an absolute URL of this
// server or of a custom domain, or a path), read and checked before delivery sees it, and the
// delivery request the caller makes for it.
import type { Context } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import { bearerToken } from '../accounts/auth.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { DeliveryRequest } from '../delivery/delivery.ts'
import { HttpError } from '../http/errors.ts'
import { clientAddress } from '../http/request.ts'
import { isWellFormedText } from '../http/text.ts'
import { assertNoTraversal } from '../http/traversal.ts'

/** The longest `url` the API reads. */
export const MAX_CONTEXT_URL = 4096

const ABSOLUTE = /^https?:\/\/([^/?#\s]+)(\/[^?#]*)?(\?[^#]*)?(#.*)?$/i
const RELATIVE = /^(\/[^?#]*)(\?[^#]*)?(#.*)?$/

export const invalidUrl = (message: string) => new HttpError(400, 'invalid_url', message)

/** The delivery URL a `url` query names: its host (when absolute), raw path and query. */
export function readTarget(text: string | undefined) {
  if (text === undefined || text.trim() === '') {
    throw invalidUrl('url is required: a delivery URL or its path (/v2/<cloud>/<pattern>/<file>)')
  }
  if (text.length > MAX_CONTEXT_URL) {
    throw invalidUrl(`url must be at most ${MAX_CONTEXT_URL} characters`)
  }
  const trimmed = text.trim()
  const absolute = ABSOLUTE.exec(trimmed)
  const relative = absolute === null ? RELATIVE.exec(trimmed) : null
  if (absolute === null && relative === null) {
    throw invalidUrl('url must be an http(s) delivery URL or a path starting with /')
  }
  const host = absolute?.[1]?.toLowerCase().replace(/:\d+$/, '')
  const path = (absolute === null ? relative?.[1] : absolute[2]) ?? '/'
  const search = (absolute === null ? relative?.[2] : absolute[3]) ?? ''
  if (!isWellFormedText(path) || /\s/.test(path)) {
    throw invalidUrl('url has spaces or control characters')
  }
  assertNoTraversal(path)
  return { host, path, search }
}

export type Target = ReturnType<typeof readTarget>

/**
 * The caller first (a session or an API token: an anonymous caller learns nothing about the
 * URL), then the delivery URL its `url` query names, with the organisation whose custom domain
 * the URL's host is (undefined for this server's own hosts and for a path).
 */
export async function readCalledTarget(app: AppContext, auth: Auth, c: Context<AppEnv>) {
  if (bearerToken(c) === undefined) await auth.requireUser(c)
  const target = readTarget(c.req.query('url'))
  const domain =
    target.host === undefined || app.config.deliveryHosts.includes(target.host)
      ? undefined
      : await app.lookups.organisationByDomain(target.host)
  return { target, domain }
}

/** The delivery request of `target` as the caller of `c` makes it, read through `domain`. */
export const targetRequest = (
  app: AppContext,
  c: Context<AppEnv>,
  { target, domain }: { target: Target; domain: { id: string } | undefined },
  { method, headers }: Pick<DeliveryRequest, 'method' | 'headers'>,
): DeliveryRequest => ({
  method,
  path: target.path,
  search: target.search,
  url: `${app.config.publicUrl}${target.path}${target.search}`,
  headers,
  clientAddress: clientAddress(c),
  ...(domain === undefined ? {} : { customDomainOrganisationId: domain.id }),
})
