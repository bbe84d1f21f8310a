// Tables of billing: the credit ledger, payments and subscriptions.
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

import { users } from './account-schema.ts'
import { createdAt, organisations, owned, timestamps } from './tenant-schema.ts'

/** Every change of an organisation's credits: grants, purchases and what operations spent. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    ...owned(),
    /** Credits added (positive) or spent (negative). */
    delta: integer('delta').notNull(),
    /** The balance after this entry. */
    balance: integer('balance').notNull(),
    reason: text('reason').notNull(),
    /** What the entry is for (a payment, a job); with `reason` it makes a charge idempotent. */
    reference: text('reference'),
    createdAt: createdAt(),
  },
  (table) => [
    index('credit_ledger_organisation_idx').on(table.organisationId, table.createdAt),
    uniqueIndex('credit_ledger_reference_key').on(
      table.organisationId,
      table.reason,
      table.reference,
    ),
    check('credit_ledger_balance_check', sql`${table.balance} >= 0`),
  ],
)

/** The states of a checkout with the payment provider. */
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'canceled'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** Receipt numbers, one per paid payment, in the order they were paid (never reused). */
export const receiptNumbers = pgSequence('receipt_numbers', { startWith: 1 })

/** Checkouts: a subscription to a plan or a top-up addon, paid through the payment provider. */
export const payments = pgTable(
  'payments',
  {
    ...owned(),
    kind: text('kind', { enum: ['subscription', 'topup'] }).notNull(),
    /** The plan id (subscription) or addon id (top-up). */
    itemId: integer('item_id').notNull(),
    amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    credits: integer('credits').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
    provider: text('provider').notNull(),
    /** The provider's id of the checkout. */
    providerRef: text('provider_ref').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The receipt's number, given from `receipt_numbers` when the payment is paid. */
    receiptNumber: integer('receipt_number'),
  },
  (table) => [
    uniqueIndex('payments_provider_ref_key').on(table.provider, table.providerRef),
    uniqueIndex('payments_receipt_number_key').on(table.receiptNumber),
    index('payments_organisation_idx').on(table.organisationId, table.createdAt),
    check('payments_kind_check', sql`${table.kind} in ('subscription', 'topup')`),
    check(
      'payments_status_check',
      sql`${table.status} in ('pending', 'paid', 'failed', 'canceled')`,
    ),
  ],
)

/** An organisation's subscription to a paid plan (none while on the free plan). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    organisationId: uuid('organisation_id')
      .primaryKey()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').notNull(),
    status: text('status', { enum: ['active', 'canceled'] }).notNull(),
    provider: text('provider').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    /** Canceled by the owner: it runs to `currentPeriodEnd` and is not renewed. */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** The provider's subscription and customer (Stripe's `sub_…`, `cus_…`), when it has them. */
    providerSubscriptionId: text('provider_subscription_id'),
    providerCustomerId: text('provider_customer_id'),
    ...timestamps(),
  },
  (table) => [check('subscriptions_status_check', sql`${table.status} in ('active', 'canceled')`)],
)
