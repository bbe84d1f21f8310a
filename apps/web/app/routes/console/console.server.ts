// Console pages need a signed-in user: they read the session and organisations on the server
// (with the visitor's cookie) and send everyone else to the login page, keeping where they were.
import { type RouterContextProvider, redirect } from 'react-router'
import { serverApi } from '../../lib/api.server.ts'
import { getOrganizations, getSession, type Organization } from '../../lib/api.ts'
import { postAuthTarget, readAuthFlow } from '../../lib/auth-redirect.ts'
import { CONSOLE_PATHS, consoleUrl } from '../../lib/links.ts'
import type { SessionUser } from '../../lib/session.ts'

export async function requireConsoleUser(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ user: SessionUser; organizations: Organization[] }> {
  const api = serverApi(request, context)
  const user = await getSession(api.client, api.config).catch(() => null)
  if (user === null) {
    const url = new URL(request.url)
    const params = Object.fromEntries(url.searchParams)
    const flow =
      url.pathname.endsWith(CONSOLE_PATHS.chooseOrg) && Object.keys(params).length > 0
        ? params
        : { redirectUrl: url.href }
    throw redirect(consoleUrl('/console', CONSOLE_PATHS.login, flow))
  }
  const organizations = (await getOrganizations(api.client, api.config)) ?? []
  return { user, organizations }
}

/**
 * The auth pages send a visitor who is already signed in on, as a login would (to the flow's
 * target, or the console), instead of asking again. Preview mode stays logged out (SPEC §2.1).
 */
export async function redirectSignedIn(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<null> {
  const url = new URL(request.url)
  if (url.searchParams.get('__preview') === 'true') return null
  const api = serverApi(request, context)
  const user = await getSession(api.client, api.config).catch(() => null)
  if (user === null) return null
  const origins = [url.origin, api.config.mainUrl].filter((origin) => origin !== '')
  throw redirect(
    postAuthTarget(readAuthFlow(url.search), {
      consoleBase: api.config.consoleUrl,
      allowedOrigins: origins,
    }),
  )
}
