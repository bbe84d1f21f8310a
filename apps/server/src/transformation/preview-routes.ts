// The console's previews (issue 24 item 5): `GET …/preview?url=<delivery URL or path>` answers
// the image of a delivery URL of the caller's organisation, authorised by the session (or an API
// token) instead of a URL signature, so library thumbnails, Home's recent uploads and the file
// panel keep working when the organisation requires signed URLs. Only members see it: any other
// organisation's URL answers 404 as one no organisation has. It never spends credits (an AI
// chain not run yet answers 409 `not_run`), and answers are private to the browser that asked.
import { Hono } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { Delivery } from '../delivery/delivery.ts'
import { unknownCloudName } from '../delivery/resolve.ts'
import { HttpError } from '../http/errors.ts'
import { readCalledTarget, targetRequest } from './target.ts'

/** How long a browser keeps a preview (it is the member's own file; no shared cache keeps it). */
export const PREVIEW_MAX_AGE = 3600

/** Registers `GET /` (mounted at `TRANSFORMATION_PREVIEW`). */
export function previewRoutes(
  app: AppContext,
  { auth, delivery }: { auth: Auth; delivery: Delivery },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  router.get('/', async (c) => {
    // A custom domain's URL names its organisation by the host; any other host is read by its
    // path, as the transformation context reads it.
    const called = await readCalledTarget(app, auth, c)
    const { target } = called
    const headers = new Headers()
    const etag = c.req.header('if-none-match')
    if (etag !== undefined) headers.set('if-none-match', etag)
    const accept = c.req.header('accept')
    if (accept !== undefined) headers.set('accept', accept)
    const request = targetRequest(app, c, called, {
      method: c.req.method === 'HEAD' ? 'HEAD' : 'GET',
      headers,
    })
    let answer: Response
    try {
      answer = await delivery.preview(request, async (organisationId) => {
        await auth.requireOrganisation(c, organisationId, { role: 'viewer' })
      })
    } catch (error) {
      if (error instanceof HttpError && error.code === 'organisation_not_found') {
        // Another organisation's URL answers exactly as one no organisation has.
        const cloudName = /^\/v2\/([^/]+)\//.exec(target.path)?.[1]
        throw unknownCloudName(cloudName)
      }
      throw error
    }
    const out = new Headers(answer.headers)
    out.set('cache-control', `private, max-age=${PREVIEW_MAX_AGE}`)
    out.append('vary', 'Cookie, Authorization')
    return new Response(answer.body, { status: answer.status, headers: out })
  })
  return router
}
