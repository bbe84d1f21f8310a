// Where the console's login and sign-up pages send a visitor afterwards (SPEC §2.2, §2.3):
// `redirectUrl` (an absolute URL on the site), `redirectTo` (a site path such as /apps/{slug},
// or a console path such as settings/apps, reached through the organisation chooser) and
// `isolateFlow` (straight back, no console in between).
import { CONSOLE_PATHS, consoleUrl } from './links.ts'

export interface AuthFlow {
  redirectUrl: string | undefined
  redirectTo: string | undefined
  isolateFlow: boolean
}

export function readAuthFlow(search: string): AuthFlow {
  const params = new URLSearchParams(search)
  const value = (name: string) => {
    const raw = params.get(name)?.trim()
    return raw === undefined || raw === '' ? undefined : raw
  }
  return {
    redirectUrl: value('redirectUrl'),
    redirectTo: value('redirectTo'),
    isolateFlow: params.get('isolateFlow') === 'true',
  }
}

/** The query that carries a flow on to the next auth page (login ⇄ sign-up, chooser). */
export function flowParams(flow: AuthFlow): Record<string, string | undefined> {
  return {
    redirectUrl: flow.redirectUrl,
    redirectTo: flow.redirectTo,
    isolateFlow: flow.isolateFlow ? 'true' : undefined,
  }
}

/** A site path: one leading slash, not `//host` or `/\host` (which browsers treat as a host). */
function isSitePath(value: string): boolean {
  return /^\/(?![/\\])/.test(value)
}

/**
 * The target after a successful login or sign-up. Only URLs on the site's own origins are
 * followed, so the parameters cannot send a visitor to someone else's site.
 */
export function postAuthTarget(
  flow: AuthFlow,
  options: { consoleBase: string; allowedOrigins: string[] },
): string {
  if (flow.redirectUrl !== undefined) {
    try {
      const url = new URL(flow.redirectUrl)
      if (options.allowedOrigins.includes(url.origin)) return url.href
    } catch {
      // not absolute: treated below as a console path
    }
    if (!/^[a-z][a-z0-9+.-]*:/i.test(flow.redirectUrl) && !flow.redirectUrl.startsWith('//')) {
      const path = flow.redirectUrl.replace(/^\/+/, '')
      return consoleUrl(options.consoleBase, `/${path}`)
    }
  }
  if (flow.redirectTo !== undefined) {
    if (isSitePath(flow.redirectTo)) return flow.redirectTo
    if (!/^[a-z][a-z0-9+.-]*:/i.test(flow.redirectTo) && !flow.redirectTo.startsWith('//')) {
      return consoleUrl(options.consoleBase, CONSOLE_PATHS.chooseOrg, {
        redirectTo: flow.redirectTo,
      })
    }
  }
  return consoleUrl(options.consoleBase, CONSOLE_PATHS.root)
}

/** Where the chooser goes once an organisation is picked. */
export function afterChoosingOrg(
  flow: AuthFlow,
  orgId: string,
  options: { consoleBase: string },
): string {
  const fill = (path: string) => path.replaceAll('{orgId}', encodeURIComponent(orgId))
  const safe = (value: string) => !/^[a-z][a-z0-9+.-]*:/i.test(value) && !value.startsWith('//')
  if (flow.redirectUrl !== undefined && safe(flow.redirectUrl)) {
    return consoleUrl(options.consoleBase, `/${fill(flow.redirectUrl).replace(/^\/+/, '')}`)
  }
  if (flow.redirectTo !== undefined && safe(flow.redirectTo)) {
    const path = flow.redirectTo.replace(/^\/+/, '')
    return consoleUrl(options.consoleBase, `/organization/${encodeURIComponent(orgId)}/${path}`)
  }
  return consoleUrl(options.consoleBase, CONSOLE_PATHS.root)
}
