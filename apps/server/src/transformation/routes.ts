// The transformation context API: `GET …/context?url=<delivery URL or path>` answers what each
// step of the URL's chain did and found, for members (session) and API tokens of the URL's
// organisation; any other organisation's URL answers 404 as if it did not exist. The context is
// computed with the image's own cache: a stored image's context is read from its row, an AI
// chain not derived yet is queued like delivery queues it (202 + Retry-After) when the call is
// signed or made with a token (with the session cookie alone, 400 signature_missing).
import { isUrlError, parseDeliveryPath, REQUEST_SIGNATURE_HEADERS } from '@tessera/url'
import { Hono } from 'hono'
import { type Auth, bearerToken } from '../accounts/auth.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { Delivery } from '../delivery/delivery.ts'
import { unknownCloudName } from '../delivery/resolve.ts'
import { HttpError } from '../http/errors.ts'
import { contextAnswer } from './context.ts'
import { invalidUrl, readCalledTarget, targetRequest } from './target.ts'

/** Registers `GET /` (mounted at `TRANSFORMATION_CONTEXT`). */
export function transformationRoutes(
  app: AppContext,
  { auth, delivery }: { auth: Auth; delivery: Delivery },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()

  router.get('/', async (c) => {
    const { target, domain: customDomain } = await readCalledTarget(app, auth, c)
    // A GET that queues spends credits: with the session cookie alone (which any cross-site
    // link carries) it answers only what was already run. A signed call (signature-guard.ts
    // has checked the headers by now) or an API token may queue.
    const mayQueue =
      bearerToken(c) !== undefined ||
      c.req.header(REQUEST_SIGNATURE_HEADERS.signature) !== undefined

    /** The context as read through `domain` (undefined: the host is no custom domain). */
    async function contextThrough(domain: typeof customDomain) {
      let parts: ReturnType<typeof parseDeliveryPath>
      try {
        parts = parseDeliveryPath(target.path, { isCustomDomain: domain !== undefined })
      } catch (error) {
        if (isUrlError(error)) {
          throw invalidUrl(`url is not a delivery URL: ${error.message}`)
        }
        throw error
      }
      // The caller's Accept is JSON: the context is of the image as served without format
      // negotiation (or with f_auto as the URL asks).
      const request = targetRequest(
        app,
        c,
        { target, domain },
        { method: 'GET', headers: new Headers() },
      )
      try {
        return await delivery.context(
          request,
          async (organisationId) => {
            await auth.requireOrganisation(c, organisationId, { role: 'viewer' })
          },
          { mayQueue },
        )
      } catch (error) {
        if (!(error instanceof HttpError && error.code === 'organisation_not_found')) throw error
        // Another organisation's URL answers exactly as one no organisation has (issue 19
        // finding 12): no id, and on its custom domain what an unregistered host answers.
        if (domain !== undefined) return contextThrough(undefined)
        throw unknownCloudName(parts.cloudName)
      }
    }

    const answer = await contextThrough(customDomain)
    if (answer instanceof Response) return answer
    return c.json(
      contextAnswer(answer.file, answer.steps, {
        headers: c.req.raw.headers,
        search: target.search,
        format: answer.format,
      }),
      200,
      { 'cache-control': 'no-store' },
    )
  })
  return router
}
