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
import type { Delivery, DeliveryRequest } from '../delivery/delivery.ts'
import { unknownCloudName } from '../delivery/resolve.ts'
import { HttpError } from '../http/errors.ts'
import { clientAddress } from '../http/request.ts'
import { isWellFormedText } from '../http/text.ts'
import { assertNoTraversal } from '../http/traversal.ts'
import { contextAnswer } from './context.ts'

/** The longest `url` the API reads. */
export const MAX_CONTEXT_URL = 4096

const ABSOLUTE = /^https?:\/\/([^/?#\s]+)(\/[^?#]*)?(\?[^#]*)?(#.*)?$/i
const RELATIVE = /^(\/[^?#]*)(\?[^#]*)?(#.*)?$/

const invalidUrl = (message: string) => new HttpError(400, 'invalid_url', message)

/** The delivery URL a `url` query names: its host (when absolute), raw path and query. */
export function readTarget(text: string | undefined) {
  if (text === undefined || text.trim() === '') {
    throw invalidUrl('url is required: a delivery URL or its path (/v2/<cloud>/<pattern>/<file>)')
  }
  if (text.length > MAX_CONTEXT_URL) {
    throw invalidUrl(`url must be at most ${MAX_CONTEXT_URL} characters`)
  }
  const trimmed = text.trim()
  const absolute = ABSOLUTE.exec(trimmed)
  const relative = absolute === null ? RELATIVE.exec(trimmed) : null
  if (absolute === null && relative === null) {
    throw invalidUrl('url must be an http(s) delivery URL or a path starting with /')
  }
  const host = absolute?.[1]?.toLowerCase().replace(/:\d+$/, '')
  const path = (absolute === null ? relative?.[1] : absolute[2]) ?? '/'
  const search = (absolute === null ? relative?.[2] : absolute[3]) ?? ''
  if (!isWellFormedText(path) || /\s/.test(path)) {
    throw invalidUrl('url has spaces or control characters')
  }
  assertNoTraversal(path)
  return { host, path, search }
}

/** Registers `GET /` (mounted at `TRANSFORMATION_CONTEXT`). */
export function transformationRoutes(
  app: AppContext,
  { auth, delivery }: { auth: Auth; delivery: Delivery },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { config, lookups } = app

  router.get('/', async (c) => {
    // Who is asking comes first: an anonymous caller learns nothing about the URL.
    if (bearerToken(c) === undefined) await auth.requireUser(c)
    const target = readTarget(c.req.query('url'))
    // A GET that queues spends credits: with the session cookie alone (which any cross-site
    // link carries) it answers only what was already run. A signed call (signature-guard.ts
    // has checked the headers by now) or an API token may queue.
    const mayQueue =
      bearerToken(c) !== undefined ||
      c.req.header(REQUEST_SIGNATURE_HEADERS.signature) !== undefined
    const customDomain =
      target.host === undefined || config.deliveryHosts.includes(target.host)
        ? undefined
        : await lookups.organisationByDomain(target.host)

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
      const request: DeliveryRequest = {
        method: 'GET',
        path: target.path,
        search: target.search,
        url: `${config.publicUrl}${target.path}${target.search}`,
        // The caller's Accept is JSON: the context is of the image as served without format
        // negotiation (or with f_auto as the URL asks).
        headers: new Headers(),
        clientAddress: clientAddress(c),
        ...(domain === undefined ? {} : { customDomainOrganisationId: domain.id }),
      }
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
