// The signing-key lookup every signed-URL check uses. `pbs` and `pbe` are shape-checked by
// `verifySignedUrl` before it asks for a key; `pbt` is checked here, before any cache or database
// lookup: a byte the database refuses (NUL) must be an invalid signature (401), never a 500.
import type { AppContext } from '../context.ts'

/**
 * What an access key (`pbt`, decoded) may look like: URL-safe characters, at most 128 of them.
 * Keys this server makes are 32 hex digits; Pixelbin's are UUIDs.
 */
export const ACCESS_KEY_SHAPE = /^[A-Za-z0-9._~-]{1,128}$/

/** `getToken` for `verifySignedUrl`: the secret of an organisation's live key, or undefined. */
export function signingKeyOf(lookups: AppContext['lookups'], organisationId: string) {
  return async (accessKey: string): Promise<string | undefined> => {
    if (!ACCESS_KEY_SHAPE.test(accessKey)) return undefined
    const key = await lookups.signingKey(accessKey)
    return key !== undefined && key.organisationId === organisationId ? key.secret : undefined
  }
}
