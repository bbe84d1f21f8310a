// Where accounts answer: the base paths the routers are mounted under, the OpenAPI part and the
// tests name.
import { PANEL_API_PATHS } from '@tessera/url'

/** Sign-up, login, logout, Google one-tap, the session and profile meta. */
export const USERS = PANEL_API_PATHS.users
/** The user's organisations, and under `/{orgId}` one organisation's details and people. */
export const ORGANIZATION = PANEL_API_PATHS.organization
