// Which organisation the console works in: the one in the page's path when it names one, else
// the one last picked (a cookie, so server-rendered pages agree), else the first (SPEC §6).

export const ORG_COOKIE = 'tessera_org'

export interface HasId {
  _id: string
}

export function readCookie(header: string | null, name: string): string | undefined {
  if (header === null) return undefined
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('='))
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

/**
 * The organisation to show. `fromPath` must be one of the user's (else undefined: the page
 * answers 404); the cookie is only a preference and falls back to the first.
 */
export function pickOrganization<T extends HasId>(
  organizations: T[],
  fromPath: string | undefined,
  fromCookie: string | undefined,
): T | undefined {
  if (fromPath !== undefined) return organizations.find((org) => org._id === fromPath)
  return organizations.find((org) => org._id === fromCookie) ?? organizations[0]
}

/** The cookie that remembers a choice for a year, for every console page. */
export function orgCookie(orgId: string): string {
  return `${ORG_COOKIE}=${encodeURIComponent(orgId)}; Path=/; Max-Age=31536000; SameSite=Lax`
}

/** Remembers the organisation picked, for the server-rendered pages that follow. */
export function rememberOrg(orgId: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and Safari; the server must read this choice
  document.cookie = orgCookie(orgId)
}

/** The same page for another organisation: an id in the path is swapped, anything else kept. */
export function switchOrgPath(pathname: string, search: string, orgId: string): string {
  const match = /^(.*\/organization\/)([^/]+)(\/.*)?$/.exec(pathname)
  if (match === null) return `${pathname}${search}`
  return `${match[1]}${encodeURIComponent(orgId)}${match[3] ?? ''}`
}
