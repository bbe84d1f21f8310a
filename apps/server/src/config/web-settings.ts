// The settings of the website and console the server hands to the web app (SPEC §7.2), read
// from `WEB_*` by `config.ts`.

/**
 * Settings of the website and console (`WEB_*`). Each is optional: an absent base means this
 * origin, an absent key switches its integration off (DESIGN §1).
 */
export interface WebSettings {
  /** Main domain of canonical links and share tags (`WEB_MAIN_URL`; default: the request's). */
  mainUrl: string | undefined
  /** Console base (`WEB_CONSOLE_URL`, default `/console` on this origin). */
  consoleUrl: string
  apiUrl: string | undefined
  deliveryUrl: string | undefined
  webhookUrl: string | undefined
  /** CMS base (`WEB_CMS_URL`, default `/cms`: the built-in Strapi-shaped API). */
  cmsUrl: string
  docsUrl: string | undefined
  blogUrl: string | undefined
  /** Book a Demo's meeting scheduler (`WEB_SCHEDULER_URL`; default the contact page). */
  schedulerUrl: string | undefined
  supportUrl: string | undefined
  affiliateUrl: string | undefined
  analyticsId: string | undefined
  chatToken: string | undefined
  errorReportingDsn: string | undefined
  captchaSiteKey: string | undefined
  paymentsClientToken: string | undefined
  /** Product tag sent to billing and the CMS (`WEB_PRODUCT_TAG`, default `tessera`). */
  productTag: string
  /** Sibling tools (`WEB_TOOL_*_URL`; default the website's own AI tool pages). */
  tools: {
    backgroundRemover: string | undefined
    upscaler: string | undefined
    watermarkRemover: string | undefined
    compressor: string | undefined
    converter: string | undefined
  }
  appStores: { ios: string | undefined; android: string | undefined }
  /** Integration scripts (`WEB_*_SCRIPT_URL`; default the vendors' own addresses). */
  scripts: {
    google: string | undefined
    analytics: string | undefined
    chat: string | undefined
    captcha: string | undefined
  }
}
