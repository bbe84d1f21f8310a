// Webhooks and their delivery log (decision 016), scoped by organisation like every tenant query.
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { isUuid, now, returned } from './query-helpers.ts'
import { type Webhook, type WebhookDelivery, webhookDeliveries, webhooks } from './schema.ts'

export interface NewWebhook {
  url: string
  secret: string
  events: string[]
  description: string
}

export interface WebhookChanges {
  url?: string | undefined
  events?: string[] | undefined
  description?: string | undefined
  active?: boolean | undefined
}

export interface NewDelivery {
  organisationId: string
  webhookId: string | null
  url: string
  event: string
  payload: Record<string, unknown>
}

/** What one attempt of a delivery came to. */
export interface DeliveryAttempt {
  status: WebhookDelivery['status']
  responseStatus: number | null
  error: string | null
}

/** Deliveries kept per organisation in the log; older ones are pruned by housekeeping. */
export const DELIVERY_LOG_KEEP_DAYS = 30

export function createWebhookQueries(db: Db) {
  async function createWebhook(organisationId: string, input: NewWebhook): Promise<Webhook> {
    return returned(
      (
        await db
          .insert(webhooks)
          .values({ organisationId, ...input })
          .returning()
      )[0],
    )
  }

  async function listWebhooks(organisationId: string): Promise<Webhook[]> {
    return db
      .select()
      .from(webhooks)
      .where(eq(webhooks.organisationId, organisationId))
      .orderBy(webhooks.createdAt)
  }

  async function countWebhooks(organisationId: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhooks)
      .where(eq(webhooks.organisationId, organisationId))
    return row?.n ?? 0
  }

  async function findWebhook(organisationId: string, id: string): Promise<Webhook | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.organisationId, organisationId), eq(webhooks.id, id)))
    return row
  }

  async function updateWebhook(
    organisationId: string,
    id: string,
    changes: WebhookChanges,
  ): Promise<Webhook | undefined> {
    if (!isUuid(id)) return undefined
    const set = Object.fromEntries(
      Object.entries(changes).filter(([, value]) => value !== undefined),
    ) as WebhookChanges
    const [row] = await db
      .update(webhooks)
      .set({ ...set, updatedAt: now() })
      .where(and(eq(webhooks.organisationId, organisationId), eq(webhooks.id, id)))
      .returning()
    return row
  }

  async function deleteWebhook(organisationId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false
    const rows = await db
      .delete(webhooks)
      .where(and(eq(webhooks.organisationId, organisationId), eq(webhooks.id, id)))
      .returning({ id: webhooks.id })
    return rows.length > 0
  }

  /** The active endpoints of an organisation that listen to `event`. */
  async function webhooksFor(organisationId: string, event: string): Promise<Webhook[]> {
    return db
      .select()
      .from(webhooks)
      .where(
        and(
          eq(webhooks.organisationId, organisationId),
          eq(webhooks.active, true),
          sql`${webhooks.events} @> ${JSON.stringify([event])}::jsonb`,
        ),
      )
  }

  async function createDelivery(input: NewDelivery): Promise<WebhookDelivery> {
    return returned((await db.insert(webhookDeliveries).values(input).returning())[0])
  }

  async function findDelivery(id: string): Promise<WebhookDelivery | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id))
    return row
  }

  /** Records one attempt: the count goes up, the outcome is kept. */
  async function recordDeliveryAttempt(
    id: string,
    attempt: DeliveryAttempt,
  ): Promise<WebhookDelivery | undefined> {
    const [row] = await db
      .update(webhookDeliveries)
      .set({
        ...attempt,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        updatedAt: now(),
        ...(attempt.status === 'delivered' ? { deliveredAt: now() } : {}),
      })
      .where(eq(webhookDeliveries.id, id))
      .returning()
    return row
  }

  /** The newest deliveries of an organisation (optionally of one endpoint). */
  async function listDeliveries(
    organisationId: string,
    options: { webhookId?: string | undefined; limit: number; offset: number },
  ): Promise<WebhookDelivery[]> {
    return db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.organisationId, organisationId),
          ...(options.webhookId === undefined
            ? []
            : [eq(webhookDeliveries.webhookId, options.webhookId)]),
        ),
      )
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(options.limit)
      .offset(options.offset)
  }

  /** Deletes log rows older than `DELIVERY_LOG_KEEP_DAYS` that are no longer pending. */
  async function pruneDeliveries(): Promise<number> {
    const rows = await db
      .delete(webhookDeliveries)
      .where(
        and(
          sql`${webhookDeliveries.createdAt} < now() - ${`${DELIVERY_LOG_KEEP_DAYS} days`}::interval`,
          sql`${webhookDeliveries.status} <> 'pending'`,
        ),
      )
      .returning({ id: webhookDeliveries.id })
    return rows.length
  }

  return {
    createWebhook,
    listWebhooks,
    countWebhooks,
    findWebhook,
    updateWebhook,
    deleteWebhook,
    webhooksFor,
    createDelivery,
    findDelivery,
    recordDeliveryAttempt,
    listDeliveries,
    pruneDeliveries,
  }
}
