import { redirect } from 'react-router'
import type { Route } from './+types/settings-index.ts'

// Settings open on the organisation's details.
export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/console/organization/${encodeURIComponent(params.orgId)}/settings/organization`)
}
