// Payments (see createRepository): checkouts recorded when they open, settled once by the
// provider's event; a paid one grants its credits (and a subscription) in the same transaction.
import { and, count, desc, eq, sql } from 'drizzle-orm'
import { changeIn } from './billing-queries.ts'
import type { Db } from './database.ts'
import {
  organisations,
  type Payment,
  type PaymentStatus,
  payments,
  plans,
  type Subscription,
  subscriptions,
} from './schema.ts'

/** A checkout about to be recorded (the provider has already made its side of it). */
export interface NewPayment {
  id: string
  kind: 'subscription' | 'topup'
  itemId: number
  amount: number
  currency: string
  credits: number
  provider: string
  providerRef: string
  createdBy: string | null
}

/** What settling a checkout did. */
export interface SettledPayment {
  payment: Payment
  /** False when the payment was not pending any more (a replayed or late event). */
  changed: boolean
}

/** The payment queries. */
export function createPaymentQueries(db: Db) {
  async function createPayment(organisationId: string, input: NewPayment): Promise<Payment> {
    const [row] = await db
      .insert(payments)
      .values({ ...input, organisationId })
      .returning()
    if (row === undefined) throw new Error('The database returned no payment')
    return row
  }

  async function findPayment(organisationId: string, id: string): Promise<Payment | undefined> {
    const [row] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.organisationId, organisationId), eq(payments.id, id)))
    return row
  }

  async function findPaymentByProviderRef(
    provider: string,
    providerRef: string,
  ): Promise<Payment | undefined> {
    const [row] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(payments.providerRef, providerRef)))
    return row
  }

  /**
   * Records the provider's outcome of a checkout, once: a pending payment becomes paid, failed
   * or canceled; a payment that is not pending is answered as it is (`changed: false`). Paid
   * grants the credits (referenced by the payment, so never twice) and, for a subscription,
   * moves the organisation to the plan with a period of the plan's interval — all in one
   * transaction with the status change.
   */
  async function settlePayment(
    provider: string,
    providerRef: string,
    outcome: Exclude<PaymentStatus, 'pending'>,
  ): Promise<SettledPayment | undefined> {
    return db.transaction(async (tx) => {
      const [payment] = await tx
        .select()
        .from(payments)
        .where(and(eq(payments.provider, provider), eq(payments.providerRef, providerRef)))
        .for('update')
      if (payment === undefined) return undefined
      if (payment.status !== 'pending') return { payment, changed: false }
      const [updated] = await tx
        .update(payments)
        .set({
          status: outcome,
          completedAt: sql`now()`,
          // A paid payment gets the next receipt number, in the same transaction.
          ...(outcome === 'paid' ? { receiptNumber: sql`nextval('receipt_numbers')` } : {}),
        })
        .where(eq(payments.id, payment.id))
        .returning()
      if (updated === undefined) throw new Error('The payment vanished while it was settled')
      if (outcome !== 'paid') return { payment: updated, changed: true }

      const organisationId = payment.organisationId
      if (payment.kind === 'subscription') {
        const [plan] = await tx.select().from(plans).where(eq(plans.id, payment.itemId))
        const length = plan?.interval.startsWith('yearly')
          ? sql`interval '1 year'`
          : sql`interval '1 month'`
        await tx
          .update(organisations)
          .set({ planId: payment.itemId })
          .where(eq(organisations.id, organisationId))
        await tx
          .insert(subscriptions)
          .values({
            organisationId,
            planId: payment.itemId,
            status: 'active',
            provider,
            currentPeriodStart: sql`now()`,
            currentPeriodEnd: sql`now() + ${length}`,
          })
          .onConflictDoUpdate({
            target: subscriptions.organisationId,
            set: {
              planId: payment.itemId,
              status: 'active',
              provider,
              currentPeriodStart: sql`now()`,
              currentPeriodEnd: sql`now() + ${length}`,
              updatedAt: sql`now()`,
            },
          })
      }
      const change = await changeIn(
        tx as Db,
        organisationId,
        payment.credits,
        payment.kind,
        payment.id,
      )
      if (change.status !== 'applied') throw new Error('Granting the credits of a payment failed')
      return { payment: updated, changed: true }
    })
  }

  /** An organisation's payments, newest first (only `status` ones when given). */
  async function listPayments(
    organisationId: string,
    page: { limit: number; offset: number; status?: PaymentStatus },
  ): Promise<{ items: Payment[]; total: number }> {
    const where =
      page.status === undefined
        ? eq(payments.organisationId, organisationId)
        : and(eq(payments.organisationId, organisationId), eq(payments.status, page.status))
    const [items, totals] = await Promise.all([
      db
        .select()
        .from(payments)
        .where(where)
        .orderBy(desc(payments.createdAt), desc(payments.id))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ total: count() }).from(payments).where(where),
    ])
    return { items, total: totals[0]?.total ?? 0 }
  }

  /**
   * Sets whether the organisation's subscription ends at its period's end (canceled by the
   * owner) or renews; undefined when it has none.
   */
  async function setSubscriptionCancel(
    organisationId: string,
    cancelAtPeriodEnd: boolean,
  ): Promise<Subscription | undefined> {
    const [row] = await db
      .update(subscriptions)
      .set({ cancelAtPeriodEnd, updatedAt: sql`now()` })
      .where(eq(subscriptions.organisationId, organisationId))
      .returning()
    return row
  }

  /** Keeps the provider's subscription and customer ids with the organisation's subscription. */
  async function setSubscriptionProviderIds(
    organisationId: string,
    ids: { providerSubscriptionId: string | null; providerCustomerId: string | null },
  ): Promise<void> {
    await db
      .update(subscriptions)
      .set({ ...ids, updatedAt: sql`now()` })
      .where(eq(subscriptions.organisationId, organisationId))
  }

  /** The subscription a provider's subscription id belongs to. */
  async function findSubscriptionByProviderId(
    providerSubscriptionId: string,
  ): Promise<Subscription | undefined> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
    return row
  }

  /**
   * The provider ended the subscription (Stripe's `customer.subscription.deleted`): canceled,
   * and the organisation back on the free plan. Its credits stay.
   */
  async function endSubscription(organisationId: string, freePlanId: number): Promise<void> {
    await db.transaction(async (tx) => {
      await tx
        .update(subscriptions)
        .set({ status: 'canceled', updatedAt: sql`now()` })
        .where(eq(subscriptions.organisationId, organisationId))
      await tx
        .update(organisations)
        .set({ planId: freePlanId })
        .where(eq(organisations.id, organisationId))
    })
  }

  return {
    endSubscription,
    createPayment,
    findPayment,
    findPaymentByProviderRef,
    settlePayment,
    listPayments,
    setSubscriptionCancel,
    setSubscriptionProviderIds,
    findSubscriptionByProviderId,
  }
}
