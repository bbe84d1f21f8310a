// The pages' Content-Security-Policy (issue 9): scripts run only from this origin or with the
// response's nonce (React Router's inline scripts and the runtime configuration carry it), so an
// injected inline script or a script from elsewhere does not run. A third party's hosts are
// allowed only when its integration is configured. No page may be framed (clickjacking).
import type { RuntimeConfig } from './runtime-config.ts'

/** A fresh nonce for one response: 16 random bytes, base64. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
}

/** The origin of an absolute http(s) URL; undefined for a relative or empty base (this origin). */
export function originOf(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

// What the vendors' scripts load or call beyond their own origin, allowed only with the default
// script address (a self-hosted stand-in needs just its own origin).
const ANALYTICS_HOSTS = [
  'https://*.googletagmanager.com',
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
]
const CHAT_HOSTS = ['https://*.freshchat.com', 'wss://*.freshchat.com']
const DEFAULT_SCRIPTS = {
  analytics: 'https://www.googletagmanager.com/gtm.js',
  chat: 'https://wchat.freshchat.com/js/widget.js',
}

function list(values: (string | undefined)[]): string {
  return [...new Set(values.filter((value): value is string => value !== undefined))].join(' ')
}

/** The `Content-Security-Policy` header of a page rendered with this configuration and nonce. */
export function contentSecurityPolicy(config: RuntimeConfig, nonce: string): string {
  const google = config.googleClientId === '' ? [] : [originOf(config.scripts.google)]
  const analytics =
    config.analyticsId === ''
      ? []
      : [
          originOf(config.scripts.analytics),
          ...(config.scripts.analytics === DEFAULT_SCRIPTS.analytics ? ANALYTICS_HOSTS : []),
        ]
  const chat =
    config.chatToken === ''
      ? []
      : [
          originOf(config.scripts.chat),
          ...(config.scripts.chat === DEFAULT_SCRIPTS.chat ? CHAT_HOSTS : []),
        ]
  // The captcha widget's script draws its challenge in a frame of the same origin.
  const captcha = config.captchaSiteKey === '' ? [] : [originOf(config.scripts.captcha)]
  const reporting = config.errorReportingDsn === '' ? [] : [originOf(config.errorReportingDsn)]
  const bases = [config.apiUrl, config.cmsUrl, config.deliveryUrl].map(originOf)
  const thirdParties = [...google, ...analytics, ...chat, ...captcha]
  const directives: [string, string][] = [
    ['default-src', "'self'"],
    ['script-src', list(["'self'", `'nonce-${nonce}'`, ...thirdParties])],
    // Components set style attributes, and Google's button styles itself.
    ['style-src', list(["'self'", "'unsafe-inline'", ...google, ...chat])],
    // Content (CMS, demo pages) may name images anywhere; an image runs no script.
    ['img-src', '* data: blob:'],
    ['font-src', list(["'self'", 'data:', ...chat])],
    // Vite inlines small assets (the captions track) as data: URLs.
    ['media-src', list(["'self'", 'data:', 'blob:', ...bases])],
    ['connect-src', list(["'self'", ...bases, ...thirdParties, ...reporting])],
    ['frame-src', thirdParties.length === 0 ? "'none'" : list([...google, ...chat, ...captcha])],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ]
  return directives.map(([name, value]) => `${name} ${value === '' ? "'none'" : value}`).join('; ')
}
