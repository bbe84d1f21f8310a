// Delivery over HTTP: `/v1/*` and `/v2/*` on the server's own hosts (app.ts mounts the router
// under each), and whole hosts: a configured delivery (CDN) host, or an organisation's custom
// domain, where every path is a delivery path.
import type { IncomingMessage } from 'node:http'
import type { Context, MiddlewareHandler } from 'hono'
import { Hono } from 'hono'
import type { AppContext, AppEnv } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { clientAddress, hostOf, rawTarget } from '../http/request.ts'
import { preflightResponse } from './cors.ts'
import type { Delivery } from './delivery.ts'
import { fastKeyOf } from './fast-lane.ts'
import { DELIVERY_ROUTE } from './paths.ts'

export { DELIVERY_ROUTE }

function rawOf(delivery: Delivery, incoming: IncomingMessage, key: string) {
  const generation = delivery.fastLane.arrivedAt(incoming)
  return {
    key,
    headers: incoming.headers,
    ...(generation === undefined ? {} : { generation }),
  }
}

/** The answer to a CORS preflight of a delivery URL, by its organisation's `corsOrigins`. */
async function preflight(
  delivery: Delivery,
  c: Context<AppEnv>,
  path: string,
  customDomainOrganisationId: string | undefined,
) {
  const organisation = await delivery.organisationOf({
    path,
    ...(customDomainOrganisationId === undefined ? {} : { customDomainOrganisationId }),
  })
  return preflightResponse(
    organisation.corsOrigins,
    c.req.header('origin') ?? null,
    c.req.header('access-control-request-headers') ?? null,
  )
}

function deliver(delivery: Delivery, c: Context<AppEnv>, customDomainOrganisationId?: string) {
  const { path, search } = rawTarget(c)
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  const key = fastKeyOf(incoming?.headers.host, incoming?.url)
  // A CORS preflight (issue 24): the organisation's allowed origins, nothing else looked up.
  if (c.req.method === 'OPTIONS') return preflight(delivery, c, path, customDomainOrganisationId)
  return delivery.deliver({
    method: c.req.method,
    path,
    search,
    url: c.req.url,
    headers: c.req.raw.headers,
    clientAddress: clientAddress(c),
    ...(incoming === undefined || key === undefined ? {} : { raw: rawOf(delivery, incoming, key) }),
    ...(customDomainOrganisationId === undefined ? {} : { customDomainOrganisationId }),
  })
}

/** `GET /*`: the rest of the path after `/v1` or `/v2` names the image. */
export function deliveryRoutes(delivery: Delivery): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  router.get('/*', (c) => deliver(delivery, c))
  router.options('/*', (c) => deliver(delivery, c))
  return router
}

/**
 * Middleware answering every request to a configured delivery (CDN) host, also in the
 * version-less v1 form, and to a registered custom domain, for its organisation (no cloud name
 * in the path). Requests to the server's own hosts pass on.
 */
export function deliveryHosts(
  app: Pick<AppContext, 'config' | 'lookups'>,
  delivery: Delivery,
): MiddlewareHandler<AppEnv> {
  const { config } = app
  const ownHosts = new Set(['localhost', '127.0.0.1', '[::1]', new URL(config.publicUrl).hostname])
  return async (c, next) => {
    const host = hostOf(c)
    const isDeliveryHost = config.deliveryHosts.includes(host)
    const organisationId =
      isDeliveryHost || ownHosts.has(host) || host === ''
        ? undefined
        : (await app.lookups.organisationByDomain(host))?.id
    if (!isDeliveryHost && organisationId === undefined) {
      await next()
      return
    }
    c.set('route', DELIVERY_ROUTE)
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.method !== 'OPTIONS') {
      throw new HttpError(405, 'method_not_allowed', 'Delivery answers GET and HEAD only')
    }
    c.res = await deliver(delivery, c, organisationId)
  }
}
