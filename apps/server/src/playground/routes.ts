// The visitor calls of the website's playground and AI tool pages, mounted under
// `PUBLIC_PLAYGROUND`: no session, limited per client address (docs/api.md).
import { Hono } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import type { AppContext, AppEnv } from '../context.ts'
import { jsonLimit, parseBody, readJson } from '../http/json-body.ts'
import { clientAddress } from '../http/request.ts'
import { CAPTCHA_HEADER } from './captcha.ts'
import { signBody } from './requests.ts'
import type { PlaygroundSigner } from './sign.ts'
import type { VisitorUploads } from './visitor-uploads.ts'

export function playgroundRoutes(
  _app: AppContext,
  { signer, visitorUploads: uploads }: { signer: PlaygroundSigner; visitorUploads: VisitorUploads },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()

  router.post('/sign', jsonLimit, async (c) => {
    const { url } = parseBody(await readJson(c), signBody)
    const answer = await signer.sign({
      url,
      clientAddress: clientAddress(c),
      requestHost: c.req.header('host'),
      captchaToken: c.req.header(CAPTCHA_HEADER),
    })
    c.header('cache-control', 'no-store')
    return c.json(answer)
  })

  // Multipart with a `file` part; kept 24 h (visitor-uploads.ts).
  router.post('/uploads', async (c) => {
    const answer = await uploads.upload(c)
    c.header('cache-control', 'no-store')
    return c.json(answer, 201)
  })

  return router
}

/**
 * The member call, mounted under `MEMBER_PLAYGROUND`: signs a delivery URL of the caller's own
 * organisation, so the website's tools run its AI operations under strict transformations.
 */
export function memberPlaygroundRoutes(
  _app: AppContext,
  { signer, auth }: { signer: PlaygroundSigner; auth: Auth },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()

  router.post('/:orgId/sign', jsonLimit, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'member' })
    const { url } = parseBody(await readJson(c), signBody)
    const answer = await signer.signForMember({
      url,
      requestHost: c.req.header('host'),
      organisationId: caller.organisation.id,
      cloudName: caller.organisation.cloudName,
    })
    c.header('cache-control', 'no-store')
    return c.json(answer)
  })

  return router
}
