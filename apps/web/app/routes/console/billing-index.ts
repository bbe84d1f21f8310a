import { redirect } from 'react-router'
import type { Route } from './+types/billing-index.ts'

// Billing opens on the plans.
export function loader({ params }: Route.LoaderArgs) {
  return redirect(
    `/console/organization/${encodeURIComponent(params.orgId)}/billing/plans/subscription`,
  )
}
