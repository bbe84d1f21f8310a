// A first API token for the demo organisation, so a new self-hoster can try the upload API at
// once: made at start when the demo organisation has no live token, and printed once (only its
// hash is stored). Revoke it in the organisation's token list; a restart then makes a new one.
import { API_TOKEN_PREFIX, randomToken, sha256 } from '../accounts/auth.ts'
import type { AppContext } from '../context.ts'
import { DEMO_CLOUD_NAME } from './seed.ts'

export const DEMO_TOKEN_NAME = 'demo (printed at start)'

/** The new token, or undefined when the demo organisation already has one (or does not exist). */
export async function ensureDemoToken(
  app: Pick<AppContext, 'repo' | 'logger'>,
): Promise<string | undefined> {
  const organisation = await app.repo.findOrganisationByCloudName(DEMO_CLOUD_NAME)
  if (organisation === undefined) return undefined
  if ((await app.repo.listApiTokens(organisation.id)).length > 0) return undefined
  const token = `${API_TOKEN_PREFIX}${randomToken()}`
  await app.repo.createApiToken(organisation.id, {
    name: DEMO_TOKEN_NAME,
    tokenHash: sha256(token),
    prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
    createdBy: null,
  })
  app.logger.warn(
    { organisation: DEMO_CLOUD_NAME },
    `API token for the demo organisation (shown this once): ${token}`,
  )
  return token
}
