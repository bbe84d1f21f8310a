// The declared calls of an organisation's webhooks (decision 016).
import { z } from 'zod'
import {
  type ApiPart,
  badQuery,
  dateTime,
  failure,
  JSON_BODY_ERRORS,
  orgRoute,
  PageBody,
  ref,
  uuidParam,
} from '../http/openapi-kit.ts'
import { WEBHOOK_MANAGE, WEBHOOK_READ, WEBHOOKS_ORG_BASE } from './paths.ts'
import { createWebhookBody, deliveriesQuery, updateWebhookBody } from './requests.ts'

const BASE = `${WEBHOOKS_ORG_BASE}/{orgId}/webhooks`
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
    orgRoute({
      method: 'get',
      path: BASE,
      access: WEBHOOK_READ,
      operationId: 'listWebhooks',
      summary: 'The webhooks of the organisation',
      tags: ['webhooks'],
      responses: { '200': { description: 'Every endpoint', schema: z.array(ref('Webhook')) } },
    }),
    orgRoute({
      method: 'post',
      path: BASE,
      access: WEBHOOK_MANAGE,
      operationId: 'createWebhook',
      summary: 'Register an endpoint (owners and API tokens); its secret is shown once',
      tags: ['webhooks'],
      body: { schema: createWebhookBody },
      responses: {
        '201': {
          description: 'Registered',
          schema: z.object({ secret: z.string() }).describe('The Webhook, with its secret'),
        },
        ...JSON_BODY_ERRORS,
        '403': failure('forbidden: members cannot'),
        '409': failure('too_many_webhooks'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${BASE}/deliveries`,
      access: WEBHOOK_READ,
      operationId: 'listWebhookDeliveries',
      summary: 'The delivery log, newest first',
      tags: ['webhooks'],
      query: deliveriesQuery,
      responses: {
        '200': {
          description: 'One page',
          schema: z.object({ items: z.array(ref('WebhookDelivery')), page: PageBody }),
        },
        '400': badQuery,
      },
    }),
    orgRoute({
      method: 'get',
      path: `${BASE}/{webhookId}`,
      access: WEBHOOK_READ,
      operationId: 'getWebhook',
      summary: 'One endpoint',
      tags: ['webhooks'],
      params: webhookId,
      responses: { '200': { description: 'The endpoint', schema: ref('Webhook') } },
    }),
    orgRoute({
      method: 'patch',
      path: `${BASE}/{webhookId}`,
      access: WEBHOOK_MANAGE,
      operationId: 'updateWebhook',
      summary: 'Change an endpoint (url, events, description, active)',
      tags: ['webhooks'],
      params: webhookId,
      body: { schema: updateWebhookBody },
      responses: {
        '200': { description: 'Changed', schema: ref('Webhook') },
        ...JSON_BODY_ERRORS,
        '403': failure('forbidden'),
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${BASE}/{webhookId}`,
      access: WEBHOOK_MANAGE,
      operationId: 'deleteWebhook',
      summary: 'Remove an endpoint and its log',
      tags: ['webhooks'],
      params: webhookId,
      responses: {
        '200': { description: 'Removed', schema: z.object({ deleted: z.boolean() }) },
        '403': failure('forbidden'),
      },
    }),
    orgRoute({
      method: 'post',
      path: `${BASE}/{webhookId}/ping`,
      access: WEBHOOK_MANAGE,
      operationId: 'pingWebhook',
      summary: 'Send a ping now and answer how it went (kept in the log)',
      tags: ['webhooks'],
      params: webhookId,
      responses: {
        '200': {
          description: 'The outcome',
          schema: z.object({ delivered: z.boolean(), delivery: ref('WebhookDelivery') }),
        },
        '403': failure('forbidden'),
      },
    }),
  ],
}
