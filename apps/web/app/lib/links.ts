// Links out of the website: the console (SPEC §2.2), login and sign-up (SPEC §2.3) and the
// sibling tools' cross-sell links (SPEC §1).
import { joinUrl } from './runtime-config.ts'

/** Console paths of SPEC §2.2. */
export const CONSOLE_PATHS = {
  root: '/',
  editor: '/editor',
  editorUpload: '/editor/upload',
  editorUrl: '/editor/url',
  chooseOrg: '/choose-org',
  login: '/auth/login',
  signup: '/auth/signup',
} as const

type Params = Record<string, string | undefined>

function withParams(url: string, params: Params): string {
  const entries = Object.entries(params).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  )
  if (entries.length === 0) return url
  const query = new URLSearchParams(entries).toString()
  return `${url}${url.includes('?') ? '&' : '?'}${query}`
}

/** A console URL: the console base, a path of SPEC §2.2 and its query parameters. */
export function consoleUrl(base: string, path: string, params: Params = {}): string {
  return withParams(joinUrl(base, path === '/' ? '' : path) || '/', params)
}

/** The organisation's playground in the console, through the chooser when no id is known. */
export function playgroundUrl(base: string, orgId?: string): string {
  return orgId === undefined
    ? consoleUrl(base, CONSOLE_PATHS.chooseOrg, { redirectTo: 'playground' })
    : consoleUrl(base, `/organization/${encodeURIComponent(orgId)}/playground`)
}

/** The billing page of a kind, with the plan or addon chosen on the pricing page. */
function billingPath(kind: 'subscription' | 'topup', itemId: number | undefined): string {
  const choice = itemId === undefined ? '' : `?${kind === 'topup' ? 'addonId' : 'planId'}=${itemId}`
  return `billing/plans/${kind}${choice}`
}

/**
 * Buy a subscription or a top-up: through the chooser with redirectUrl (SPEC §2.2); the billing
 * page preselects `itemId` when given.
 */
export function billingUrl(
  base: string,
  orgId: string,
  kind: 'subscription' | 'topup',
  itemId?: number,
): string {
  return consoleUrl(base, CONSOLE_PATHS.chooseOrg, {
    redirectUrl: `organization/${orgId}/${billingPath(kind, itemId)}`,
  })
}

/** A visitor buying: sign up, then the chooser and the billing page with the choice kept. */
export function signupToBuyUrl(
  base: string,
  kind: 'subscription' | 'topup',
  itemId?: number,
): string {
  return consoleUrl(base, CONSOLE_PATHS.signup, { redirectTo: billingPath(kind, itemId) })
}

/** The apps settings: through the chooser with redirectTo (SPEC §2.2). */
export function appsSettingsUrl(base: string): string {
  return consoleUrl(base, CONSOLE_PATHS.chooseOrg, { redirectTo: 'settings/apps' })
}

/** Where a visitor is on the site, as far as the login URL cares. */
export interface PageLocation {
  pathname: string
  search: string
  /** The absolute URL of the page. */
  href: string
}

/**
 * The query parameters of login and sign-up links (SPEC §2.3): on an AI tool page come back to
 * the app (`redirectTo=/apps/{slug}`); on API pages an isolated flow back to the same API page;
 * anywhere else `redirectUrl` is the current URL.
 */
export function authParams(page: PageLocation): Params {
  const tool = /^\/ai-tools\/([^/]+)\/?$/.exec(page.pathname)
  if (tool?.[1] !== undefined) return { redirectTo: `/apps/${tool[1]}` }
  if (page.pathname === '/api/plugin' || page.pathname === '/api/plugin/') {
    const plugin = new URLSearchParams(page.search).get('plugin')
    return {
      isolateFlow: 'true',
      redirectTo: plugin === null ? '/api' : `/api/plugin?plugin=${plugin}`,
    }
  }
  if (page.pathname === '/api' || page.pathname.startsWith('/api/')) {
    return { isolateFlow: 'true', redirectTo: '/api' }
  }
  return { redirectUrl: page.href }
}

/** The console's login URL for a visitor on `page`. */
export function loginUrl(base: string, page: PageLocation): string {
  return consoleUrl(base, CONSOLE_PATHS.login, authParams(page))
}

/** The console's sign-up URL for a visitor on `page`. */
export function signupUrl(base: string, page: PageLocation): string {
  return consoleUrl(base, CONSOLE_PATHS.signup, authParams(page))
}

/**
 * The header's sign-up (issue 24 item 7): a new account lands in the console, not back on the
 * marketing page it came from; the flows that bring a visitor back on purpose (an AI tool page,
 * the API pages) keep their `redirectTo`.
 */
export function headerSignupUrl(base: string, page: PageLocation): string {
  const params = authParams(page)
  return consoleUrl(base, CONSOLE_PATHS.signup, 'redirectUrl' in params ? {} : params)
}

/**
 * A cross-sell link to a sibling tool (SPEC §1): utm_source, utm_campaign=cross-sell and ref,
 * with a locale prefix on the path for languages other than English.
 */
export function crossSellUrl(
  toolUrl: string,
  options: { source: string; ref: string; locale?: string },
): string {
  const absolute = /^https?:\/\//i.test(toolUrl)
  const url = new URL(toolUrl, 'http://relative.invalid')
  const locale = options.locale?.toLowerCase()
  if (locale !== undefined && locale !== '' && !locale.startsWith('en')) {
    url.pathname = `/${encodeURIComponent(locale)}${url.pathname === '/' ? '' : url.pathname}`
  }
  url.searchParams.set('utm_source', options.source)
  url.searchParams.set('utm_campaign', 'cross-sell')
  url.searchParams.set('ref', options.ref)
  return absolute ? url.href : `${url.pathname}${url.search}${url.hash}`
}

/** Is this link to another site (opened with rel=noopener)? */
export function isExternal(url: string): boolean {
  return /^https?:\/\//i.test(url)
}
