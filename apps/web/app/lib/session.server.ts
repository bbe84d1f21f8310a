// The session check of SPEC §4, run by the root loader while the page renders: the visitor's
// cookie goes along in-process. No cookie, no call (an anonymous visitor causes no failing
// request); preview mode blocks the check; any failure means logged out (SPEC §8).
import type { ServerApi } from './api.server.ts'
import { getSession } from './api.ts'
import { hasSessionCookie, isPreviewMode, type SessionUser } from './session.ts'

export async function resolveSession(
  request: Request,
  api: ServerApi,
): Promise<SessionUser | null> {
  if (isPreviewMode(new URL(request.url).search)) return null
  if (!hasSessionCookie(request.headers.get('cookie'))) return null
  try {
    return await getSession(api.client, api.config)
  } catch {
    return null
  }
}
