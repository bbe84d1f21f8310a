// Where the public content APIs answer (SPEC §7.2) and what their lists give by default: the
// routers, the OpenAPI part and the tests read these.

export const APPS = '/service/public/apps/v1.0'
/** The public predictions catalogue (the prediction jobs live under the panel's). */
export const TRANSFORMATION = '/service/public/transformation/v1.0'
export const CMS = '/cms/api'
export const ANNOUNCEMENTS = '/api/announcements'

/** Page size of the dynamic-app list when the client gives none. */
export const APPS_PAGE_SIZE = 12
