// Where accounts answer: the base paths the routers are mounted under, the OpenAPI part and the
// tests name.

/** Sign-up, login, logout, Google one-tap, the session and profile meta. */
export const USERS = '/service/panel/users/v1.0'
/** The user's organisations, and under `/{orgId}` one organisation's details and people. */
export const ORGANIZATION = '/service/panel/organization/v1.0'
