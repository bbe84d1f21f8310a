// Mounts the website and console (@tessera/web): pages and /static/ assets for every path no
// API or delivery route answered. API-shaped paths keep their JSON 404.
import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash } from 'node:crypto'
import {
  type ContactMessage,
  type ContactSaved,
  chooseEncoding,
  compressResponse,
  createWebHandler,
  DEFAULT_RUNTIME_CONFIG,
  type RuntimeConfig,
  STATIC_PREFIX,
} from '@tessera/web'
import type { Hono } from 'hono'
import type { ServerConfig } from '../config.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { Logger } from '../platform/logger.ts'
import { HSTS, type InProcessEnv } from './edge.ts'
import { HttpError } from './errors.ts'
import { createPageCache, type PageCache } from './page-cache.ts'
import { clientAddress, isHttps } from './request.ts'

/** Path prefixes that belong to the API or delivery, never to a page. */
const NOT_PAGES = ['/service/', '/cms/', '/v1/', '/v2/']

/** The largest body any page action or route may be sent: read no further, answer 413. */
export const PAGE_BODY_MAX_BYTES = 64 * 1024
/**
 * Stricter caps of actions by page path (`.data` is React Router's client-side call of the same
 * action). The contact form's fields hold at most ~5,500 characters; 32 KB leaves room for them
 * percent-encoded in any script.
 */
export const ACTION_BODY_MAX_BYTES: Readonly<Record<string, number>> = {
  '/contactus': 32 * 1024,
}

/** The body cap of a page request to `path`. */
export function pageBodyCap(path: string): number {
  const page = path.endsWith('.data') ? path.slice(0, -'.data'.length) : path
  return ACTION_BODY_MAX_BYTES[page.replace(/\/+$/, '') || '/'] ?? PAGE_BODY_MAX_BYTES
}

/**
 * `request` with its body read into memory, at most `max` bytes of it: a longer body (declared
 * or sent) is refused before anything parses it.
 *
 * @throws {HttpError} 413 `too_large`.
 */
export async function capBody(request: Request, max: number): Promise<Request> {
  const tooLarge = () =>
    new HttpError(413, 'too_large', `The request body is larger than ${max} bytes`)
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (!Number.isFinite(declared) || declared > max) throw tooLarge()
  if (request.body === null) return request
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>
    try {
      chunk = await reader.read()
    } catch {
      throw new HttpError(400, 'invalid_body', 'The request body was cut short')
    }
    const { done, value } = chunk
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value)
  }
  const headers = new Headers(request.headers)
  headers.delete('transfer-encoding')
  headers.set('content-length', String(size))
  return new Request(request.url, {
    method: request.method,
    headers,
    body: Buffer.concat(chunks),
    signal: request.signal,
  })
}

/** What the pages' contact form calls to keep a message (content/contact.ts). */
export type SaveContact = (
  message: ContactMessage,
  captchaToken: string | undefined,
  address: string,
) => Promise<ContactSaved>

/** The runtime configuration the pages get (SPEC §7.2), from the server's settings. */
export function runtimeConfigFor(config: ServerConfig): RuntimeConfig {
  const web = config.web
  const defaults = DEFAULT_RUNTIME_CONFIG
  const tools = defaults.siblingTools
  return {
    ...defaults,
    mainUrl: web.mainUrl ?? '',
    consoleUrl: web.consoleUrl,
    apiUrl: web.apiUrl ?? '',
    deliveryUrl: web.deliveryUrl ?? '',
    webhookUrl: web.webhookUrl ?? '',
    cmsUrl: web.cmsUrl,
    docsUrl: web.docsUrl ?? '',
    blogUrl: web.blogUrl ?? '',
    schedulerUrl: web.schedulerUrl ?? defaults.schedulerUrl,
    supportUrl: web.supportUrl ?? defaults.supportUrl,
    affiliateUrl: web.affiliateUrl ?? defaults.affiliateUrl,
    panelSigningKey: config.signing.key,
    paymentsClientToken: web.paymentsClientToken ?? '',
    captchaSiteKey: web.captchaSiteKey ?? '',
    googleClientId: config.google.clientId ?? '',
    analyticsId: web.analyticsId ?? '',
    chatToken: web.chatToken ?? '',
    errorReportingDsn: web.errorReportingDsn ?? '',
    productTag: web.productTag,
    freePlanId: config.freePlan.id,
    freePlanCredits: config.freePlan.credits,
    siblingTools: {
      backgroundRemover: web.tools.backgroundRemover ?? tools.backgroundRemover,
      upscaler: web.tools.upscaler ?? tools.upscaler,
      watermarkRemover: web.tools.watermarkRemover ?? tools.watermarkRemover,
      compressor: web.tools.compressor ?? tools.compressor,
      converter: web.tools.converter ?? tools.converter,
    },
    appStores: { ios: web.appStores.ios ?? '', android: web.appStores.android ?? '' },
    scripts: {
      google: web.scripts.google ?? defaults.scripts.google,
      analytics: web.scripts.analytics ?? defaults.scripts.analytics,
      chat: web.scripts.chat ?? defaults.scripts.chat,
      captcha: web.scripts.captcha ?? defaults.scripts.captcha,
    },
  }
}

/**
 * How the pages call this server's API in-process: under the visitor's request id (so a page's
 * calls share its id in the logs) and address (limits count the visitor, not the server), marked
 * in-process (counted under `internal:` in metrics, no log line of their own), and never over
 * the network.
 */
export function createLocalFetch(hono: Hono<AppEnv>, logger?: Logger) {
  const visitor = new AsyncLocalStorage<{ requestId: string; address: string | undefined }>()
  return {
    /** Writes a page's failure at error level, under the request id of the visit. */
    log: (message: string, details: { err: unknown }): void => {
      logger?.error({ requestId: visitor.getStore()?.requestId, ...details }, message)
    },
    /** Runs `render` (a page) for the visitor request `requestId` from `address`. */
    asVisitor: <T>(requestId: string, render: () => T, address?: string): T =>
      visitor.run({ requestId, address }, render),
    localFetch: async (request: Request): Promise<Response> => {
      const visit = visitor.getStore()
      if (visit !== undefined) request.headers.set('x-request-id', visit.requestId)
      const env: InProcessEnv =
        visit?.address === undefined
          ? { inProcess: true }
          : { inProcess: true, visitorAddress: visit.address }
      return hono.fetch(request, env)
    },
  }
}

/**
 * The page cache of this server's website (`page-cache.ts`): keyed by the runtime configuration
 * the pages get, emptied whenever `contentChanged` fires.
 */
export function createWebPageCache(
  app: Pick<AppContext, 'config' | 'contentChanged'>,
  sessionCookie: string,
): PageCache {
  const pageCache = createPageCache({
    ...app.config.pageCache,
    configKey: createHash('sha256')
      .update(JSON.stringify(runtimeConfigFor(app.config)))
      .digest('base64url'),
    sessionCookie,
    compress: compressResponse,
    chooseEncoding,
  })
  app.contentChanged.subscribe(() => pageCache.invalidate())
  return pageCache
}

/**
 * Answers every remaining page path with the web app (register it last, before not-found).
 * Anonymous pages go through `pageCache` (see `createWebPageCache`).
 */
export function registerWeb(
  hono: Hono<AppEnv>,
  app: Pick<AppContext, 'config' | 'logger'>,
  pageCache: PageCache,
  saveContact: SaveContact,
): void {
  const { localFetch, asVisitor, log } = createLocalFetch(hono, app.logger)
  const runtimeConfig = runtimeConfigFor(app.config)
  // The client address of the page request an action runs for (limits count by it).
  const visitorAddress = new AsyncLocalStorage<string>()
  const handler = createWebHandler({
    config: runtimeConfig,
    localFetch,
    log,
    saveContact: (message, captchaToken) =>
      saveContact(message, captchaToken, visitorAddress.getStore() ?? 'unknown'),
  })
  hono.all('*', async (c, next) => {
    const path = c.req.path
    if (NOT_PAGES.some((prefix) => path.startsWith(prefix))) return next()
    c.set('route', 'web')
    const requestId = c.get('requestId')
    const address = clientAddress(c)
    // A body is read whole, within its cap, before React Router parses it.
    const request =
      c.req.method === 'GET' || c.req.method === 'HEAD'
        ? c.req.raw
        : await capBody(c.req.raw, pageBodyCap(path))
    const response = path.startsWith(STATIC_PREFIX)
      ? await handler(request)
      : await visitorAddress.run(address, () =>
          pageCache.serve(request, (page) => asVisitor(requestId, () => handler(page), address)),
        )
    // Only over HTTPS: a browser ignores it on plain HTTP, and a local install must stay reachable.
    if (isHttps(c, app.config.publicUrl)) {
      const headers = new Headers(response.headers)
      headers.set('strict-transport-security', HSTS)
      return new Response(response.body, { status: response.status, headers })
    }
    return response
  })
}
