// Where the activity log answers: beside the organisation's other calls.
import { PANEL_API_PATHS } from '@tessera/url'

/** `/{orgId}/activity`. */
export const ACTIVITY_BASE = PANEL_API_PATHS.organization
