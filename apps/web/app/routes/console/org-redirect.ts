import { redirect } from 'react-router'
import { orgCookie } from '../../lib/console-org.ts'
import type { Route } from './+types/org-redirect.ts'

// Pages without an organisation in their path (home, the library, uploads), reached through the
// chooser (`redirectTo=editor/upload` → /console/organization/{orgId}/editor/upload): the choice
// is remembered and the page opens for it.
export function loader({ params }: Route.LoaderArgs) {
  const rest = params['*'] ?? ''
  const target = rest === '' ? '/console' : `/console/${rest.replace(/^\/+/, '')}`
  return redirect(target, { headers: { 'Set-Cookie': orgCookie(params.orgId) } })
}
