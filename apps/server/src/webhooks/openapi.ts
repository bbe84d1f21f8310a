// The declared calls of an organisation's webhooks (decision 016).
import { z } from 'zod'
import {
  type ApiPart,
  badQuery,
  dateTime,
  failure,
  JSON_BODY_ERRORS,
  json,
  orgCalls,
  PageBody,
  ref,
  uuidParam,
} from '../http/openapi-kit.ts'
import { WEBHOOK_MANAGE, WEBHOOK_READ, WEBHOOKS_ORG_BASE } from './paths.ts'
import { createWebhookBody, deliveriesQuery, updateWebhookBody } from './requests.ts'

const webhooks = orgCalls(WEBHOOKS_ORG_BASE, 'webhooks')
const FORBIDDEN = { '403': failure('forbidden') }
const webhookId = { webhookId: uuidParam('The webhook') }

export const WEBHOOK_OPENAPI: ApiPart = {
  tags: [{ name: 'webhooks', description: "An organisation's webhook endpoints and delivery log" }],
  schemas: {
    Webhook: z.object({
      _id: z.string(),
      url: z.string(),
      events: z.array(z.string()),
      description: z.string(),
      active: z.boolean(),
      secretHint: z.string().describe('The last characters of the secret'),
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    WebhookDelivery: z.object({
      _id: z.string(),
      webhookId: z.string().nullable(),
      url: z.string(),
      event: z.string(),
      status: z.enum(['pending', 'delivered', 'failed']),
      attempts: z.int(),
      responseStatus: z.int().nullable(),
      error: z.string().nullable(),
      payload: z.record(z.string(), z.unknown()),
      createdAt: dateTime,
      updatedAt: dateTime,
      deliveredAt: dateTime.nullable(),
    }),
  },
  routes: [
    webhooks.get('/webhooks', 'listWebhooks', WEBHOOK_READ, {
      summary: 'The webhooks of the organisation',
      responses: { '200': json(z.array(ref('Webhook')), 'Every endpoint') },
    }),
    webhooks.post('/webhooks', 'createWebhook', WEBHOOK_MANAGE, {
      summary: 'Register an endpoint (owners and API tokens); its secret is shown once',
      body: { schema: createWebhookBody },
      responses: {
        '201': json(
          z.object({ secret: z.string() }).describe('The Webhook, with its secret'),
          'Registered',
        ),
        ...JSON_BODY_ERRORS,
        '403': failure('forbidden: members cannot'),
        '409': failure('too_many_webhooks'),
      },
    }),
    webhooks.get('/webhooks/deliveries', 'listWebhookDeliveries', WEBHOOK_READ, {
      summary: 'The delivery log, newest first',
      query: deliveriesQuery,
      responses: {
        '200': json(
          z.object({ items: z.array(ref('WebhookDelivery')), page: PageBody }),
          'One page',
        ),
        '400': badQuery,
      },
    }),
    webhooks.get('/webhooks/{webhookId}', 'getWebhook', WEBHOOK_READ, {
      summary: 'One endpoint',
      params: webhookId,
      responses: { '200': json(ref('Webhook'), 'The endpoint') },
    }),
    webhooks.patch('/webhooks/{webhookId}', 'updateWebhook', WEBHOOK_MANAGE, {
      summary: 'Change an endpoint (url, events, description, active)',
      params: webhookId,
      body: { schema: updateWebhookBody },
      responses: { '200': json(ref('Webhook'), 'Changed'), ...JSON_BODY_ERRORS, ...FORBIDDEN },
    }),
    webhooks.delete('/webhooks/{webhookId}', 'deleteWebhook', WEBHOOK_MANAGE, {
      summary: 'Remove an endpoint and its log',
      params: webhookId,
      responses: { '200': json(z.object({ deleted: z.boolean() }), 'Removed'), ...FORBIDDEN },
    }),
    webhooks.post('/webhooks/{webhookId}/ping', 'pingWebhook', WEBHOOK_MANAGE, {
      summary: 'Send a ping now and answer how it went (kept in the log)',
      params: webhookId,
      responses: {
        '200': json(
          z.object({ delivered: z.boolean(), delivery: ref('WebhookDelivery') }),
          'The outcome',
        ),
        ...FORBIDDEN,
      },
    }),
  ],
}
