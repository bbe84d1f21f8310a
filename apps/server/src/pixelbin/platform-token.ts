// Pixelbin's platform calls are made with an API token only (`Authorization: Bearer
// base64(token)`, as `@pixelbin/admin` sends it): a session cookie is not enough there, since
// these paths carry no request signature and a cookie travels with requests a page did not mean.
import type { Context } from 'hono'
import { type Auth, bearerToken, type Caller } from '../accounts/auth.ts'
import { HttpError } from '../http/errors.ts'

/** The caller of a platform call: the API token's organisation; 401 without a token. */
export function requirePlatformToken(auth: Auth, c: Context): Promise<Caller> {
  if (bearerToken(c) === undefined) {
    throw new HttpError(
      401,
      'unauthenticated',
      'Platform calls need an API token: Authorization: Bearer <token>',
    )
  }
  // Tokens act as members (decision 019).
  return auth.requireAnyOrganisation(c, { role: 'member' })
}
