import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { isUrlError } from '@tessera/url'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { createAssets } from './assets.ts'
import { registerAssetApi } from './assets-api.ts'
import { registerBillingApi } from './billing-api.ts'
import type { AppContext } from './context.ts'
import { assertNoTraversal, type createDelivery } from './delivery.ts'
import { errorImage, HttpError, wantsImage } from './http-error.ts'
import { registerIdentityApi } from './identity.ts'
import type { Logger } from './logger.ts'
import { registerOrganizationApi } from './organization-api.ts'
import { registerPredictionsApi } from './predictions-api.ts'
import { registerPublicApi } from './public-api.ts'
import { signatureGuard } from './signature-guard.ts'
import { registerWeb } from './web.ts'

/** What every handler can read from the context (`c.get`). */
export type AppEnv = { Variables: { requestId: string; log: Logger; route: string } }
type Env = AppEnv

const ASSETS = '/service/panel/assets/v1.0'

function rawTarget(c: Context): { path: string; search: string } {
  // The path as sent, percent-escapes and dot segments untouched (a parsed URL would resolve
  // `..` before delivery could refuse it).
  const raw = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.url ?? c.req.url
  const target = raw.startsWith('/') ? raw : raw.replace(/^[a-z]+:\/\/[^/]*/i, '')
  const query = target.indexOf('?')
  return query === -1
    ? { path: target, search: '' }
    : { path: target.slice(0, query), search: target.slice(query) }
}

function hostOf(c: Context): string {
  return (c.req.header('host') ?? '').toLowerCase().replace(/:\d+$/, '')
}

/**
 * Builds the HTTP application over the app's services. Bad input always gets a 4xx with a JSON
 * body `{ code, message }` (or an error image for image requests); unexpected failures answer
 * 500 without internals and are logged.
 */
export function createApp(
  app: AppContext,
  parts: { delivery: ReturnType<typeof createDelivery>; assets: ReturnType<typeof createAssets> },
): Hono<Env> {
  const { logger, metrics, config } = app
  const hono = new Hono<Env>()

  hono.use(async (c, next) => {
    const given = c.req.header('x-request-id')
    const requestId = given !== undefined && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID()
    const log = logger.child({ requestId })
    c.set('requestId', requestId)
    c.set('log', log)
    c.set('route', 'other')
    const started = performance.now()
    await next()
    // Set on the response itself: `c.header` after `next()` would rebuild (and copy) the body.
    c.res.headers.set('x-request-id', requestId)
    const seconds = (performance.now() - started) / 1000
    const route = c.get('route')
    metrics.requests.inc({ method: c.req.method, route, status: String(c.res.status) })
    metrics.latency.observe({ route }, seconds)
    log.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(seconds * 1000),
      },
      'request',
    )
  })

  const deliver = async (c: Context<Env>, customDomainOrganisationId?: string) => {
    c.set('route', 'delivery')
    const { path, search } = rawTarget(c)
    return parts.delivery.deliver({
      method: c.req.method,
      path,
      search,
      url: c.req.url,
      headers: c.req.raw.headers,
      ...(customDomainOrganisationId === undefined ? {} : { customDomainOrganisationId }),
    })
  }

  // Before routing (a parsed URL has already resolved `..`), refuse traversal attempts outright.
  hono.use(async (c, next) => {
    assertNoTraversal(rawTarget(c).path)
    await next()
  })

  // A configured delivery (CDN) host is delivery whole, also in the version-less v1 form; a
  // registered custom domain is delivery whole for its organisation (no cloud name in the path).
  const ownHosts = new Set(['localhost', '127.0.0.1', '[::1]', new URL(config.publicUrl).hostname])
  hono.use(async (c, next) => {
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
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      throw new HttpError(405, 'method_not_allowed', 'Delivery answers GET and HEAD only')
    }
    c.res = await deliver(c, organisationId)
  })

  hono.get('/healthz', (c) => {
    c.set('route', 'healthz')
    return c.json({ status: 'ok' })
  })
  hono.get('/readyz', async (c) => {
    c.set('route', 'readyz')
    const checks = await Promise.allSettled([app.database.ping(), app.storage.check()])
    const [database, storage] = checks.map((check) =>
      check.status === 'fulfilled' ? 'ok' : 'unavailable',
    )
    const ready = database === 'ok' && storage === 'ok'
    return c.json({ status: ready ? 'ok' : 'unavailable', database, storage }, ready ? 200 : 503)
  })
  hono.get('/metrics', async (c) => {
    c.set('route', 'metrics')
    return c.body(await metrics.registry.metrics(), 200, {
      'content-type': metrics.registry.contentType,
    })
  })

  hono.get('/v1/*', (c) => deliver(c))
  hono.get('/v2/*', (c) => deliver(c))

  // Panel calls: signatures checked when present, required with a session cookie on changes.
  hono.use('/service/panel/*', signatureGuard(app))

  hono.post(`${ASSETS}/upload/direct`, (c) => {
    c.set('route', 'upload')
    return parts.assets.uploadDirect(c)
  })
  hono.post(
    `${ASSETS}/upload/url`,
    bodyLimit({
      maxSize: 64 * 1024,
      onError: () => {
        throw new HttpError(413, 'too_large', 'The JSON body is larger than 64 KB')
      },
    }),
    (c) => {
      c.set('route', 'upload')
      return parts.assets.uploadFromUrl(c)
    },
  )
  hono.get(`${ASSETS}/proxy/download`, (c) => {
    c.set('route', 'proxy')
    return parts.assets.proxyDownload(c)
  })

  // ── Public content APIs (plans, addons, dynamic apps, predictions, CMS, announcements,
  // OpenAPI): read-only, no session; see public-api.ts and docs/api.md. ──────────────────────
  registerPublicApi(hono, app)
  // ── end of public content APIs ──────────────────────────────────────────────────────────────

  // Identity: sign-up, login, logout, session, profile meta, organisations (identity.ts).
  registerIdentityApi(hono, app)
  registerBillingApi(hono, app) // credits, checkouts, payment webhooks (billing-api.ts)
  registerPredictionsApi(hono, app) // prediction jobs (predictions-api.ts)
  registerAssetApi(hono, app) // files, folders and presets of an organisation (assets-api.ts)
  // Organisation details, members, invitations and API tokens (organization-api.ts).
  registerOrganizationApi(hono, app)

  registerWeb(hono, app) // the website and console (web.ts): every remaining page path

  hono.notFound((c) =>
    c.json({ code: 'not_found', message: `No route for ${c.req.method} ${c.req.path}` }, 404),
  )

  hono.onError((error, c) => {
    let failure: HttpError
    if (error instanceof HttpError) failure = error
    else if (isUrlError(error)) failure = new HttpError(400, error.code, error.message)
    else {
      c.get('log')?.error({ err: error }, 'unexpected error')
      failure = new HttpError(500, 'internal_error', 'The server could not answer this request')
    }
    if (failure.status >= 500 && failure.status !== 500) {
      c.get('log')?.warn({ err: error, code: failure.code }, 'request failed')
    }
    const headers = { ...failure.headers, 'cache-control': 'no-store' }
    if (wantsImage(c.req.header('accept'), c.req.header('sec-fetch-dest'))) {
      return new Response(errorImage(failure.status, failure.message), {
        status: failure.status,
        headers: {
          ...headers,
          'content-type': 'image/svg+xml',
          'x-content-type-options': 'nosniff',
        },
      })
    }
    return new Response(JSON.stringify({ code: failure.code, message: failure.message }), {
      status: failure.status,
      headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
    })
  })
  return hono
}
