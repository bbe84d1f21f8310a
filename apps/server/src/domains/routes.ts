// Custom domains over HTTP (issue 24): an organisation's list, registration, check and removal
// under `/service/panel/organization/v1.0/{orgId}/domains` (owners change, members read), and
// the TLS proxy's `ask` (public: it only tells whether a name is served here).
import { Hono } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import { idParam, noStore } from '../accounts/organisation-http.ts'
import { actorOf, createActivityLog } from '../activity/activity.ts'
import type { AppContext, AppEnv } from '../context.ts'
import { jsonLimit, readBody } from '../http/json-body.ts'
import { createDomains, type Domains, domainJson } from './domains.ts'
import { domainBody } from './requests.ts'

/** The organisation's domain calls, relative to `DOMAINS_BASE`. */
export function domainRoutes(
  app: AppContext,
  { auth, domains = createDomains(app) }: { auth: Auth; domains?: Domains },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const activity = createActivityLog(app)
  const BASE = '/:orgId/domains'
  router.use(BASE, async (c, next) => {
    c.set('route', 'domains')
    await next()
  })
  router.use(`${BASE}/*`, async (c, next) => {
    c.set('route', 'domains')
    await next()
  })

  router.get(BASE, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer' })
    return c.json((await domains.list(caller.organisation.id)).map(domainJson))
  })

  router.post(BASE, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const { host } = await readBody(c, domainBody)
    const domain = await domains.register(caller.organisation, host)
    await activity.record(caller.organisation.id, actorOf(caller), {
      kind: 'domain.add',
      target: domain.host,
    })
    return c.json(domainJson(domain), 201)
  })

  router.post(`${BASE}/:domainId/check`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const id = idParam(c, 'domainId', 'domain')
    const { domain, method } = await domains.check(caller.organisation, id)
    await activity.record(caller.organisation.id, actorOf(caller), {
      kind: 'domain.check',
      target: domain.host,
      details: { status: domain.status, ...(method === undefined ? {} : { method }) },
    })
    return c.json({ ...domainJson(domain), ...(method === undefined ? {} : { method }) })
  })

  router.delete(`${BASE}/:domainId`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const id = idParam(c, 'domainId', 'domain')
    const removed = await domains.remove(caller.organisation, id)
    await activity.record(caller.organisation.id, actorOf(caller), {
      kind: 'domain.remove',
      target: removed.host,
    })
    return c.body(null, 204)
  })

  return router
}

/**
 * `GET ?domain=<host>`: 200 when the TLS proxy may get a certificate for the host, else 403
 * (any answer but a 2xx makes Caddy refuse the certificate).
 */
export function tlsAskRoutes(app: AppContext, domains: Domains = createDomains(app)) {
  const router = new Hono<AppEnv>()
  router.get('/', async (c) => {
    c.header('cache-control', 'no-store')
    const host = c.req.query('domain') ?? ''
    if (await domains.tlsAllowed(host)) return c.json({ domain: host, allowed: true })
    return c.json({ code: 'not_served', message: `${host.slice(0, 253)} is not served here` }, 403)
  })
  return router
}
