// Where the Tessera REST API answers: the base path of every API family. The server mounts its
// routers under these and the website's client calls them, so both read one list.

/** The public API families: no session or token needed. */
export const PUBLIC_API_PATHS = {
  /** The dynamic-app (AI tool) list and one app by slug. */
  apps: '/service/public/apps/v1.0',
  /** The public predictions catalogue: `…/predictions`, `…/predictions/schema/{id}`. */
  transformation: '/service/public/transformation/v1.0',
  /** The website's visitor playground calls: `…/sign`, `…/uploads`. */
  playground: '/service/public/playground/v1.0',
  /** The CMS collections (Strapi shape). */
  cms: '/cms/api',
  /** The announcement bar. */
  announcements: '/api/announcements',
  /** The OpenAPI document of every route. */
  openapi: '/service/openapi.json',
} as const

/** The panel API families: a session cookie or an API token. */
export const PANEL_API_PATHS = {
  /** Sign-up, login, logout, Google one-tap, the session and profile meta. */
  users: '/service/panel/users/v1.0',
  /** The user's organisations and, under `/{orgId}`, one organisation's details and people. */
  organization: '/service/panel/organization/v1.0',
  /** Uploads (`…/upload/direct`, `…/upload/url`) and, under `/org/{orgId}`, files and presets. */
  assets: '/service/panel/assets/v1.0',
  /** Plans and addons, and under `/org/{orgId}` credits, checkouts and payments. */
  billing: '/service/panel/billing/v1.0',
  /** The transformation context and, under `/org/{orgId}`, prediction jobs. */
  transformation: '/service/panel/transformation/v1.0',
  /** A member's playground calls: `…/org/{orgId}/sign`. */
  playground: '/service/panel/playground/v1.0',
} as const

/** The prefix every panel call shares: clients sign these and send credentials. */
export const PANEL_API_PREFIX = '/service/panel/'

/** The segment that puts an organisation's id in a panel path: `{family}/org/{orgId}/…`. */
export const ORG_SEGMENT = 'org'
