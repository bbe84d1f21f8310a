// The HTTP application: the middleware every request passes, then each feature's router under
// its base path, then the web app.
import { createHash, timingSafeEqual } from 'node:crypto'
import { isUrlError, PANEL_API_PREFIX } from '@tessera/url'
import { Hono } from 'hono'
import { SESSION_COOKIE } from './accounts/auth.ts'
import { identityRoutes } from './accounts/identity-routes.ts'
import { organisationRoutes } from './accounts/organisation-routes.ts'
import { ORGANIZATION, USERS } from './accounts/paths.ts'
import { signatureGuard } from './accounts/signature-guard.ts'
import { ACTIVITY_BASE } from './activity/paths.ts'
import { activityRoutes } from './activity/routes.ts'
import { ASSET_API_BASE, ASSETS } from './assets/paths.ts'
import { assetRoutes } from './assets/routes.ts'
import { proxyRoutes, uploadRoutes } from './assets/upload-routes.ts'
import { paymentWebhookRoutes, testCheckoutRoutes } from './billing/checkout-routes.ts'
import {
  BILLING,
  BILLING_ORG_BASE,
  PAYMENT_WEBHOOK_BASE,
  TEST_CHECKOUT_PATH,
} from './billing/paths.ts'
import { planRoutes } from './billing/plan-routes.ts'
import { billingRoutes } from './billing/routes.ts'
import { ANNOUNCEMENTS, APPS, CMS, TRANSFORMATION } from './content/paths.ts'
import {
  announcementRoutes,
  appRoutes,
  CONTENT_CACHE_CONTROL,
  cmsRoutes,
  predictionCatalogueRoutes,
} from './content/routes.ts'
import type { AppContext, AppEnv } from './context.ts'
import { isDatabaseUnavailable } from './db/index.ts'
import type { Delivery } from './delivery/delivery.ts'
import { DELIVERY_ROUTE, deliveryHosts, deliveryRoutes } from './delivery/routes.ts'
import { DOMAINS_BASE, TLS_ASK_PATH } from './domains/paths.ts'
import { domainRoutes, tlsAskRoutes } from './domains/routes.ts'
import type { FeatureServices } from './features.ts'
import { createEdge, type Edge } from './http/edge.ts'
import { errorImage, HttpError, wantsImage } from './http/errors.ts'
import { OPENAPI_PATH, type OpenApiDocument } from './http/openapi-kit.ts'
import type { PageCache } from './http/page-cache.ts'
import { clientAddress, isLoopback, rawTarget } from './http/request.ts'
import { assertNoTraversal } from './http/traversal.ts'
import { createWebPageCache, registerWeb } from './http/web.ts'
import { PLATFORM, PLATFORM_ASSETS_ROOT } from './pixelbin/paths.ts'
import { platformPredictionRoutes } from './pixelbin/prediction-routes.ts'
import { pixelbinRoutes } from './pixelbin/routes.ts'
import { SIGNED_UPLOAD_BASE } from './pixelbin/signed-upload.ts'
import {
  panelSignedUrlRoutes,
  platformSignedUrlRoutes,
  signedUploadRoutes,
} from './pixelbin/signed-upload-routes.ts'
import { MEMBER_PLAYGROUND, PUBLIC_PLAYGROUND } from './playground/paths.ts'
import { memberPlaygroundRoutes, playgroundRoutes } from './playground/routes.ts'
import { PREDICTIONS_ORG_BASE } from './predictions/paths.ts'
import { PLATFORM_PREDICTIONS } from './predictions/platform-json.ts'
import { predictionRoutes } from './predictions/routes.ts'
import { StorageError } from './storage/index.ts'
import { TRANSFORMATION_CONTEXT, TRANSFORMATION_PREVIEW } from './transformation/paths.ts'
import { previewRoutes } from './transformation/preview-routes.ts'
import { transformationRoutes } from './transformation/routes.ts'
import { WEBHOOKS_ORG_BASE } from './webhooks/paths.ts'
import { webhookRoutes } from './webhooks/routes.ts'

/** What a 503 for a database or store out of reach asks clients to wait, in seconds. */
const RETRY_AFTER_SECONDS = 5

/** A 503 for a part out of reach, asking the client to come back shortly. */
function unavailable(code: string, what: string, cause: unknown): HttpError {
  return new HttpError(503, code, `${what} cannot be reached; try again shortly`, {
    cause,
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  })
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

/**
 * Builds the HTTP application over the app's services: the middleware every request passes
 * (request id, logs, metrics, the traversal guard, delivery hosts), then each feature's router
 * mounted under its base path with its metrics label, then the web app for every page path.
 * Bad input always gets a 4xx with a JSON body `{ code, message }` (or an error image for image
 * requests); unexpected failures answer 500 without internals and are logged.
 */
export function createApp(
  app: AppContext,
  parts: {
    delivery: Delivery
    features: FeatureServices
    /** The edge shared with the answers made before routing (server.ts); built here without. */
    edge?: Edge
    /** The OpenAPI document, made when first asked for. */
    openApi: () => OpenApiDocument
    pageCache?: PageCache
  },
): Hono<AppEnv> {
  const { metrics, config } = app
  const { features } = parts
  const hono = new Hono<AppEnv>()

  // Request id, client address, metrics and the log line: the edge every answer shares.
  hono.use((parts.edge ?? createEdge(app)).middleware)

  /** Mounts a feature's router under `base`; its requests are counted as `route` in metrics. */
  const mount = (base: string, route: string, router: Hono<AppEnv>) => {
    hono.use(`${base}/*`, async (c, next) => {
      c.set('route', route)
      await next()
    })
    hono.route(base, router)
  }

  // Before routing (a parsed URL has already resolved `..`), refuse traversal attempts outright.
  hono.use(async (c, next) => {
    assertNoTraversal(rawTarget(c).path)
    await next()
  })

  // A configured delivery (CDN) host or a custom domain is delivery whole.
  hono.use(deliveryHosts(app, parts.delivery))

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
  // Metrics tell who uses what and how busy the server is: with METRICS_TOKEN set they need
  // `Authorization: Bearer <token>`; without it only a client on this machine may read them.
  hono.get('/metrics', async (c) => {
    c.set('route', 'metrics')
    if (config.metricsToken !== undefined) {
      const given = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? ''
      if (!timingSafeEqual(sha256(given), sha256(config.metricsToken))) {
        throw new HttpError(
          401,
          'unauthorized',
          'Metrics need Authorization: Bearer <METRICS_TOKEN>',
          {
            headers: { 'www-authenticate': 'Bearer realm="metrics"' },
          },
        )
      }
    } else if (!isLoopback(clientAddress(c))) {
      throw new HttpError(
        403,
        'forbidden',
        'Metrics are served to this machine only; set METRICS_TOKEN to read them from elsewhere',
      )
    }
    await parts.delivery.refreshCacheMetrics()
    return c.body(await metrics.registry.metrics(), 200, {
      'content-type': metrics.registry.contentType,
    })
  })

  const delivery = deliveryRoutes(parts.delivery)
  mount('/v1', DELIVERY_ROUTE, delivery)
  mount('/v2', DELIVERY_ROUTE, delivery)

  // Panel calls: signatures checked when present, required with a session cookie on changes.
  hono.use(`${PANEL_API_PREFIX}*`, signatureGuard(app))

  mount(`${ASSETS}/upload`, 'upload', uploadRoutes(app, features))
  mount(`${ASSETS}/proxy`, 'proxy', proxyRoutes(app, features))

  // The public content calls: read-only, no session (docs/api.md).
  mount(BILLING, 'billing', planRoutes(app))
  mount(APPS, 'apps', appRoutes(app))
  mount(TRANSFORMATION, 'predictions', predictionCatalogueRoutes(app))
  mount(CMS, 'cms', cmsRoutes(app))
  mount(ANNOUNCEMENTS, 'announcements', announcementRoutes(app))
  // Visitor calls of the playground and AI tool pages: no session, limited per address.
  mount(PUBLIC_PLAYGROUND, 'playground', playgroundRoutes(app, features))
  hono.get(OPENAPI_PATH, (c) => {
    c.set('route', 'openapi')
    c.header('cache-control', CONTENT_CACHE_CONTROL)
    return c.json(parts.openApi())
  })

  // Accounts, an organisation's credits and payments, prediction jobs, files and presets.
  mount(USERS, 'identity', identityRoutes(app, features))
  mount(BILLING_ORG_BASE, 'billing', billingRoutes(app, features))
  mount(PAYMENT_WEBHOOK_BASE, 'webhook', paymentWebhookRoutes(app, features))
  mount(TEST_CHECKOUT_PATH, 'test-checkout', testCheckoutRoutes(app, features))
  mount(PREDICTIONS_ORG_BASE, 'predictions', predictionRoutes(app, features))
  mount(
    TRANSFORMATION_CONTEXT,
    'transformation-context',
    transformationRoutes(app, { ...features, delivery: parts.delivery }),
  )
  mount(
    TRANSFORMATION_PREVIEW,
    'transformation-preview',
    previewRoutes(app, { ...features, delivery: parts.delivery }),
  )
  mount(ASSET_API_BASE, 'assets-api', assetRoutes(app, features))
  // Pixelbin's platform API (its SDKs unchanged): a token's organisation, mapped onto the above.
  mount(
    PLATFORM,
    'platform',
    pixelbinRoutes(app, features, (request, env) => hono.fetch(request, env)),
  )
  mount(ORGANIZATION, 'organization', organisationRoutes(app, features))
  // Custom domains (issue 24): beside the organisation's calls; their router labels its routes.
  hono.route(DOMAINS_BASE, domainRoutes(app, features))
  hono.route(ACTIVITY_BASE, activityRoutes(app, features))
  mount(TLS_ASK_PATH, 'tls-ask', tlsAskRoutes(app))
  mount(MEMBER_PLAYGROUND, 'playground', memberPlaygroundRoutes(app, features))
  // Signed uploads (decision 016): the URL makers, and the signed URLs browsers upload to.
  mount(PLATFORM_ASSETS_ROOT, 'platform-signed-url', platformSignedUrlRoutes(app, features))
  mount(ASSET_API_BASE, 'signed-url', panelSignedUrlRoutes(app, features))
  mount(SIGNED_UPLOAD_BASE, 'signed-upload', signedUploadRoutes(app, features))
  // Pixelbin's platform predictions, and an organisation's webhooks (decision 016).
  mount(PLATFORM_PREDICTIONS, 'platform-predictions', platformPredictionRoutes(app, features))
  mount(WEBHOOKS_ORG_BASE, 'webhooks', webhookRoutes(app, features))

  // The website and console: every remaining page path.
  registerWeb(
    hono,
    app,
    parts.pageCache ?? createWebPageCache(app, SESSION_COOKIE),
    features.contact.save,
  )

  hono.notFound((c) =>
    c.json({ code: 'not_found', message: `No route for ${c.req.method} ${c.req.path}` }, 404),
  )

  hono.onError((error, c) => {
    let failure: HttpError
    if (error instanceof HttpError) failure = error
    else if (isUrlError(error)) failure = new HttpError(400, error.code, error.message)
    else if (!(error instanceof StorageError) && isDatabaseUnavailable(error)) {
      // PostgreSQL restarting or out of reach: the request is fine, the moment is not.
      failure = unavailable('database_unavailable', 'The database', error)
    } else if (error instanceof StorageError && error.code === 'not_reachable') {
      failure = unavailable('storage_unavailable', 'The file store', error)
    } else {
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
