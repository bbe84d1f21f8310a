// Where the public content APIs answer (SPEC §7.2) and what their lists give by default: the
// routers, the OpenAPI part and the tests read these.
import { PUBLIC_API_PATHS } from '@tessera/url'

export const APPS = PUBLIC_API_PATHS.apps
/** The public predictions catalogue (the prediction jobs live under the panel's). */
export const TRANSFORMATION = PUBLIC_API_PATHS.transformation
export const CMS = PUBLIC_API_PATHS.cms
export const ANNOUNCEMENTS = PUBLIC_API_PATHS.announcements

/** Page size of the dynamic-app list when the client gives none. */
export const APPS_PAGE_SIZE = 12
