// The runtime configuration of SPEC §7.2: every base URL and browser-side key the website and the
// console use, built by the server from its environment and injected into the page. A base left
// empty means "this origin" (the default, where one process serves everything).

/** Sibling tools linked from the header, footer and promos (SPEC §1). */
export interface SiblingTools {
  backgroundRemover: string
  upscaler: string
  watermarkRemover: string
  compressor: string
  converter: string
}

/** Everything the browser may know about its environment; never put a secret here. */
export interface RuntimeConfig {
  /** The main domain used in canonical links and share tags; empty = the request's origin. */
  mainUrl: string
  /** The console base (DESIGN §1), e.g. `/console` or `https://console.example.com`. */
  consoleUrl: string
  /** The REST API base (`/service/...` lives under it); empty = this origin. */
  apiUrl: string
  /** The delivery base for image URLs; empty = this origin. */
  deliveryUrl: string
  webhookUrl: string
  /** The CMS base (`/api/product-sections`, `/api/websites` under it). */
  cmsUrl: string
  /** The documentation site; empty = the website's own API pages. */
  docsUrl: string
  /** The blog (an external CMS site with /search and /internal paths). */
  blogUrl: string
  /** The meeting scheduler behind Book a Demo, opened in a new tab. */
  schedulerUrl: string
  supportUrl: string
  affiliateUrl: string
  /** Key for the `x-ebg-*` signature on panel calls (SPEC §7.1); it guards integrity only. */
  panelSigningKey: string
  paymentsClientToken: string
  captchaSiteKey: string
  googleClientId: string
  /** Analytics tag manager container id; analytics is off when empty. */
  analyticsId: string
  /** Chat-support widget token; the widget is off when empty. */
  chatToken: string
  /** Error-reporting endpoint (DSN); reporting is off when empty. */
  errorReportingDsn: string
  /** The product tag sent to billing and the CMS site configuration. */
  productTag: string
  freePlanId: number
  freePlanCredits: number
  siblingTools: SiblingTools
  /** App-store links of the mobile apps; a badge shows only when its link is set. */
  appStores: { ios: string; android: string }
  /** Where each integration's script is loaded from (a local stand-in in the browser tests). */
  scripts: IntegrationScripts
}

/** Third-party script addresses; each loads only when its integration's key is set. */
export interface IntegrationScripts {
  /** Google Identity Services (one-tap), used with `googleClientId`. */
  google: string
  /** The tag manager container script, loaded with `?id={analyticsId}`. */
  analytics: string
  /** The chat-support widget, used with `chatToken`. */
  chat: string
  /** The captcha widget (Cloudflare Turnstile's API), used with `captchaSiteKey`. */
  captcha: string
}

/** The configuration a server with no `WEB_*` settings uses: everything on one origin. */
export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = {
  mainUrl: '',
  consoleUrl: '/console',
  apiUrl: '',
  deliveryUrl: '',
  webhookUrl: '',
  cmsUrl: '/cms',
  docsUrl: '',
  blogUrl: '',
  schedulerUrl: '/contactus?topic=demo',
  supportUrl: '/contactus?topic=support',
  affiliateUrl: '/contactus?topic=affiliate',
  panelSigningKey: '',
  paymentsClientToken: '',
  captchaSiteKey: '',
  googleClientId: '',
  analyticsId: '',
  chatToken: '',
  errorReportingDsn: '',
  productTag: 'tessera',
  freePlanId: -994,
  freePlanCredits: 50,
  siblingTools: {
    backgroundRemover: '/ai-tools/background-remover',
    upscaler: '/ai-tools/image-upscaler',
    watermarkRemover: '/ai-tools/watermark-remover',
    compressor: '/ai-tools/image-compressor',
    converter: '/ai-tools/format-converter',
  },
  appStores: { ios: '', android: '' },
  scripts: {
    google: 'https://accounts.google.com/gsi/client',
    analytics: 'https://www.googletagmanager.com/gtm.js',
    chat: 'https://wchat.freshchat.com/js/widget.js',
    captcha: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
  },
}

/** Joins a base (absolute, relative or empty) and a path without doubling the slash. */
export function joinUrl(base: string, path: string): string {
  if (path === '') return base
  const trimmed = base.replace(/\/+$/, '')
  return `${trimmed}${path.startsWith('/') ? path : `/${path}`}`
}

/** Makes a URL absolute against `origin` when it is relative (`/x` or empty). */
export function absoluteUrl(url: string, origin: string): string {
  return /^https?:\/\//i.test(url) ? url : new URL(url === '' ? '/' : url, origin).href
}
