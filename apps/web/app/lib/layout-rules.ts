// SPEC §2.4: where the header, the footer and the top padding appear.

const startsWithSegment = (pathname: string, prefix: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`)

/** Playground paths: /playground and anything under it. */
export function isPlaygroundPath(pathname: string): boolean {
  return startsWithSegment(pathname, '/playground')
}

/** The header is hidden on playground paths and inside the mobile app (hideInApp). */
export function isHeaderHidden(pathname: string, hideInApp: boolean): boolean {
  return hideInApp || isPlaygroundPath(pathname)
}

/** The footer is hidden on /playground and inside the mobile app. */
export function isFooterHidden(pathname: string, hideInApp: boolean): boolean {
  return hideInApp || isPlaygroundPath(pathname)
}

const FLUSH_PREFIXES = ['/pricing', '/ai-tools', '/apps', '/api']

/** Top padding is removed on /pricing, /ai-tools*, /apps*, /api* and inside the mobile app. */
export function hasTopPadding(pathname: string, hideInApp: boolean): boolean {
  if (hideInApp) return false
  return !FLUSH_PREFIXES.some((prefix) => pathname.startsWith(prefix))
}

/** The hideInApp flag: `?hideInApp=true` (pages embedded in the mobile apps). */
export function readHideInApp(search: string): boolean {
  return new URLSearchParams(search).get('hideInApp') === 'true'
}
