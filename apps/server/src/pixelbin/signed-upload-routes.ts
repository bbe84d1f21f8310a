// Signed uploads' calls (decision 016): the URL makers for API tokens (Pixelbin's
// `createSignedUrl` and `createSignedUrlV2`) and for the console (under the organisation), and
// the signed URL itself, which browsers call from any origin with no other credential.
import { Hono, type MiddlewareHandler } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import type { AppContext, AppEnv } from '../context.ts'
import { jsonLimit, readJson } from '../http/json-body.ts'
import { requirePlatformToken } from './platform-token.ts'
import type { SignedUploads } from './signed-upload.ts'

// The URL is the credential (no cookie is read), so any page may call it: CORS lets browsers
// upload from the customer's own site.
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'PUT, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
}

// A preflight is answered here (no OPTIONS route: the API description lists only the calls).
const cors: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === 'OPTIONS') return c.body(null, 204, CORS_HEADERS)
  await next()
  for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value)
  return undefined
}

/** The JSON limit for a completion; a v1 upload's multipart body is limited by the upload's. */
const completionLimit: MiddlewareHandler<AppEnv> = (c, next) =>
  (c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')
    ? next()
    : jsonLimit(c, next)

/** `PUT /:uploadId?signature&partNumber`, `POST /:uploadId?signature` under SIGNED_UPLOAD_BASE. */
export function signedUploadRoutes(
  _app: AppContext,
  { signedUploads }: { signedUploads: SignedUploads },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  router.use('*', cors)
  router.put('/:uploadId', (c) => signedUploads.putPart(c))
  router.post('/:uploadId', completionLimit, (c) => signedUploads.complete(c))
  return router
}

/** `POST /v1.0/upload/signed-url` and `/v2.0/upload/signed-url` under PLATFORM_ASSETS_ROOT. */
export function platformSignedUrlRoutes(
  _app: AppContext,
  { auth, signedUploads }: { auth: Auth; signedUploads: SignedUploads },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  router.post('/v1.0/upload/signed-url', jsonLimit, async (c) => {
    const { organisation } = await requirePlatformToken(auth, c)
    const { url, fields } = await signedUploads.create(organisation, 1, await readJson(c))
    return c.json({ s3PresignedUrl: { url, fields } }, 200, { 'cache-control': 'no-store' })
  })
  router.post('/v2.0/upload/signed-url', jsonLimit, async (c) => {
    const { organisation } = await requirePlatformToken(auth, c)
    const { url, fields } = await signedUploads.create(organisation, 2, await readJson(c))
    return c.json({ presignedUrl: { url, fields } }, 200, { 'cache-control': 'no-store' })
  })
  return router
}

/** The console's mirror: `POST /:orgId/upload/signed-url` (parts, v2) under ASSET_API_BASE. */
export function panelSignedUrlRoutes(
  _app: AppContext,
  { auth, signedUploads }: { auth: Auth; signedUploads: SignedUploads },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  router.post('/:orgId/upload/signed-url', jsonLimit, async (c) => {
    const { organisation } = await auth.requirePathOrganisation(c, { role: 'member' })
    const body = await readJson(c)
    const { url, fields, expiresAt } = await signedUploads.create(organisation, 2, body)
    return c.json(
      {
        presignedUrl: { url, fields },
        expiresAt: expiresAt.toISOString(),
        partMaxBytes: signedUploads.partLimit,
      },
      200,
      { 'cache-control': 'no-store' },
    )
  })
  return router
}
