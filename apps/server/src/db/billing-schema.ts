// Tables of billing: the credit ledger, payments and subscriptions.
import { sql } from 'drizzle-orm'
import {
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

import { users } from './account-schema.ts'
import { createdAt, id, organisationRef, organisations, updatedAt } from './tenant-schema.ts'

/** Every change of an organisation's credits: grants, purchases and what operations spent. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: id(),
    organisationId: organisationRef(),
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

/** Checkouts: a subscription to a plan or a top-up addon, paid through the payment provider. */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    organisationId: organisationRef(),
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
  },
  (table) => [
    uniqueIndex('payments_provider_ref_key').on(table.provider, table.providerRef),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [check('subscriptions_status_check', sql`${table.status} in ('active', 'canceled')`)],
)
