// The request shapes of the webhook calls, shared by the routes and the OpenAPI part.
import { z } from 'zod'
import { pageQuery } from '../http/paging.ts'
import { WEBHOOK_EVENTS } from './events.ts'
import { DELIVERY_PAGE_SIZE } from './paths.ts'

const events = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1)
  .max(WEBHOOK_EVENTS.length)
  .refine((list) => new Set(list).size === list.length, 'must not repeat an event')
  .describe(`Events to send: ${WEBHOOK_EVENTS.join(', ')}`)

const description = z
  .string()
  .max(200)
  .regex(/^[^\p{Cc}]*$/u, 'must not hold control characters')

export const createWebhookBody = z.strictObject({
  url: z.string().describe('An https URL (http only for hosts in REMOTE_ALLOW_HOSTS)'),
  events: events.default([...WEBHOOK_EVENTS]),
  description: description.default(''),
  secret: z
    .string()
    .min(16)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional()
    .describe('The HMAC key; made for you (and shown once) when absent'),
})

export const updateWebhookBody = z.strictObject({
  url: z.string().optional(),
  events: events.optional(),
  description: description.optional(),
  active: z.boolean().optional(),
})

export const deliveriesQuery = z.object({
  ...pageQuery(DELIVERY_PAGE_SIZE),
  webhookId: z.string().max(64).optional().describe('Only the deliveries of this endpoint'),
})
