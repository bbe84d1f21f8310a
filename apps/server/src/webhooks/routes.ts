// An organisation's webhooks (decision 016): register HTTPS endpoints with a secret, change or
// remove them, send a ping, and read the delivery log. Members read; owners and API tokens
// change. A target is checked against the remote rules here and again at every delivery.
// Mounted under WEBHOOKS_ORG_BASE (`…/organization/v1.0/org/{orgId}/webhooks…`).
import { randomBytes } from 'node:crypto'
import { Hono } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { Webhook, WebhookDelivery } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, parseBody, readJson } from '../http/json-body.ts'
import { offsetOf, pageOf } from '../http/paging.ts'
import { pickJson } from '../http/pick-json.ts'
import { parseQuery, readQuery } from '../http/query.ts'
import type { WebhookSender } from './delivery.ts'
import {
  WEBHOOK_MANAGE as MANAGE,
  MAX_WEBHOOKS_PER_ORGANISATION,
  WEBHOOK_READ as READ,
} from './paths.ts'
import { createWebhookBody, deliveriesQuery, updateWebhookBody } from './requests.ts'
import { assertTarget } from './target.ts'

/** An endpoint as the calls answer it: the secret only as a hint (it is shown once). */
export function webhookJson(hook: Webhook) {
  return {
    _id: hook.id,
    ...pickJson(hook, ['url', 'events', 'description', 'active']),
    secretHint: `…${hook.secret.slice(-4)}`,
    ...pickJson(hook, ['createdAt', 'updatedAt']),
  }
}

export function deliveryJson(delivery: WebhookDelivery) {
  return {
    _id: delivery.id,
    ...pickJson(delivery, [
      'webhookId',
      'url',
      'event',
      'status',
      'attempts',
      'responseStatus',
      'error',
      'payload',
      'createdAt',
      'updatedAt',
      'deliveredAt',
    ]),
  }
}

const noSuchWebhook = () =>
  new HttpError(404, 'webhook_not_found', 'No such webhook in this organisation')

export function webhookRoutes(
  app: AppContext,
  parts: { auth: Auth; webhookSender: WebhookSender },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo, config } = app
  const { auth, webhookSender } = parts
  const noStore = { 'cache-control': 'no-store' }

  router.get('/:orgId/webhooks', async (c) => {
    const caller = await auth.requirePathOrganisation(c, READ)
    return c.json((await repo.listWebhooks(caller.organisation.id)).map(webhookJson), 200, noStore)
  })

  router.post('/:orgId/webhooks', jsonLimit, async (c) => {
    const caller = await auth.requirePathOrganisation(c, MANAGE)
    const body = parseBody(await readJson(c), createWebhookBody)
    const url = await assertTarget(body.url, config.remote.allowHosts)
    if ((await repo.countWebhooks(caller.organisation.id)) >= MAX_WEBHOOKS_PER_ORGANISATION) {
      throw new HttpError(
        409,
        'too_many_webhooks',
        `An organisation can register ${MAX_WEBHOOKS_PER_ORGANISATION} webhooks: remove one first`,
      )
    }
    const secret = body.secret ?? `whsec_${randomBytes(24).toString('base64url')}`
    const hook = await repo.createWebhook(caller.organisation.id, {
      url,
      secret,
      events: body.events,
      description: body.description,
    })
    // The secret is shown this once; afterwards only its last characters.
    return c.json({ ...webhookJson(hook), secret }, 201, noStore)
  })

  router.get('/:orgId/webhooks/deliveries', async (c) => {
    const caller = await auth.requirePathOrganisation(c, READ)
    const query = parseQuery(readQuery(c.req.url), deliveriesQuery)
    const rows = await repo.listDeliveries(caller.organisation.id, {
      webhookId: query.webhookId,
      limit: query.pageSize + 1,
      offset: offsetOf(query),
    })
    const items = rows.slice(0, query.pageSize).map(deliveryJson)
    const more = rows.length > query.pageSize
    const seen = offsetOf(query) + items.length
    return c.json(
      { items, page: pageOf(query.pageNo, query.pageSize, more ? seen + 1 : seen) },
      200,
      noStore,
    )
  })

  router.get('/:orgId/webhooks/:webhookId', async (c) => {
    const caller = await auth.requirePathOrganisation(c, READ)
    const hook = await repo.findWebhook(caller.organisation.id, c.req.param('webhookId'))
    if (hook === undefined) throw noSuchWebhook()
    return c.json(webhookJson(hook), 200, noStore)
  })

  router.patch('/:orgId/webhooks/:webhookId', jsonLimit, async (c) => {
    const caller = await auth.requirePathOrganisation(c, MANAGE)
    const body = parseBody(await readJson(c), updateWebhookBody)
    const id = c.req.param('webhookId')
    if ((await repo.findWebhook(caller.organisation.id, id)) === undefined) throw noSuchWebhook()
    const url =
      body.url === undefined ? undefined : await assertTarget(body.url, config.remote.allowHosts)
    const hook = await repo.updateWebhook(caller.organisation.id, id, { ...body, url })
    if (hook === undefined) throw noSuchWebhook()
    return c.json(webhookJson(hook), 200, noStore)
  })

  router.delete('/:orgId/webhooks/:webhookId', async (c) => {
    const caller = await auth.requirePathOrganisation(c, MANAGE)
    if (!(await repo.deleteWebhook(caller.organisation.id, c.req.param('webhookId')))) {
      throw noSuchWebhook()
    }
    return c.json({ deleted: true }, 200, noStore)
  })

  // A ping is sent now, once, and its outcome answered (and kept in the log).
  router.post('/:orgId/webhooks/:webhookId/ping', async (c) => {
    const caller = await auth.requirePathOrganisation(c, MANAGE)
    const hook = await repo.findWebhook(caller.organisation.id, c.req.param('webhookId'))
    if (hook === undefined) throw noSuchWebhook()
    const delivery = await repo.createDelivery({
      organisationId: hook.organisationId,
      webhookId: hook.id,
      url: hook.url,
      event: 'ping',
      payload: {
        event: 'ping',
        organisationId: hook.organisationId,
        createdAt: new Date().toISOString(),
        data: { webhookId: hook.id, message: 'A test delivery from Tessera' },
      },
    })
    const outcome = await webhookSender.attempt(delivery, true)
    return c.json({ delivered: outcome.ok, delivery: deliveryJson(outcome.delivery) }, 200, noStore)
  })

  return router
}
