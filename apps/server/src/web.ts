// Mounts the website and console (@tessera/web): pages and /static/ assets for every path no
// API or delivery route answered. API-shaped paths keep their JSON 404.
import { createWebHandler, DEFAULT_RUNTIME_CONFIG, type RuntimeConfig } from '@tessera/web'
import type { Hono } from 'hono'
import type { AppEnv } from './app.ts'
import type { ServerConfig } from './config.ts'
import type { AppContext } from './context.ts'

/** Path prefixes that belong to the API or delivery, never to a page. */
const NOT_PAGES = ['/service/', '/cms/', '/v1/', '/v2/']

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
    },
  }
}

/** Answers every remaining page path with the web app (register it last, before not-found). */
export function registerWeb(hono: Hono<AppEnv>, app: Pick<AppContext, 'config' | 'repo'>): void {
  const handler = createWebHandler({
    config: runtimeConfigFor(app.config),
    localFetch: async (request) => hono.fetch(request),
    saveContact: async (message) => {
      await app.repo.saveContactMessage({
        name: message.name,
        email: message.email,
        company: message.company,
        topic: message.topic,
        message: message.message,
      })
    },
  })
  hono.all('*', async (c, next) => {
    if (NOT_PAGES.some((prefix) => c.req.path.startsWith(prefix))) return next()
    c.set('route', 'web')
    return handler(c.req.raw)
  })
}
