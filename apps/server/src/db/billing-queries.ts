import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import {
  type Addon,
  addons,
  type CreditEntry,
  creditLedger,
  type Job,
  jobs,
  type Organisation,
  organisations,
  type Plan,
  plans,
  type Subscription,
  subscriptions,
} from './schema.ts'

/** What a change of credits did. */
export type CreditChange =
  /** The entry was written; `balance` is the balance after it. */
  | { status: 'applied'; entry: CreditEntry; balance: number }
  /** An entry with the same reason and reference exists: nothing changed. */
  | { status: 'duplicate'; entry: CreditEntry | undefined; balance: number }
  /** Spending would take the balance below 0: nothing changed. */
  | { status: 'insufficient'; balance: number; needed: number }

/** A job whose credits are taken in the same transaction that queues it. */
export interface NewPaidJob {
  kind: string
  payload: Record<string, unknown>
  maxAttempts?: number
}

/** The organisation's plan, subscription and balance, read together. */
export interface CreditSummary {
  organisation: Organisation
  plan: Plan | undefined
  subscription: Subscription | undefined
}

export interface ListLedgerOptions {
  limit: number
  offset: number
}

/**
 * The ledger reasons of charges for a job (delivery's AI transformations, prediction jobs) and
 * of their refunds. A refund has the charge's reference, so each charge is refunded at most once.
 */
export const REFUND_REASONS: Readonly<Record<string, string>> = {
  ai_transformation: 'ai_transformation_refund',
  prediction: 'prediction_refund',
}

/** A refund given back for a failed job's charge. */
export interface JobRefund {
  reason: string
  reference: string
  credits: number
  change: CreditChange
}

// Thrown inside a transaction to undo it when a concurrent call wrote the same ledger entry.
class DuplicateEntry extends Error {}

/** Adds `delta` (positive or negative) to the balance inside `tx`, with its ledger entry. */
export async function changeIn(
  tx: Db,
  organisationId: string,
  delta: number,
  reason: string,
  reference: string | null,
): Promise<CreditChange> {
  if (!Number.isSafeInteger(delta) || Math.abs(delta) > 2_000_000_000) {
    throw new RangeError(`A credit change must be a whole number, got ${delta}`)
  }
  const [updated] = await tx
    .update(organisations)
    .set({ credits: sql`${organisations.credits} + ${delta}` })
    .where(and(eq(organisations.id, organisationId), sql`${organisations.credits} + ${delta} >= 0`))
    .returning({ credits: organisations.credits })
  if (updated === undefined) {
    const [row] = await tx
      .select({ credits: organisations.credits })
      .from(organisations)
      .where(eq(organisations.id, organisationId))
    if (row === undefined) throw new Error(`No organisation ${organisationId}`)
    return { status: 'insufficient', balance: row.credits, needed: -delta }
  }
  const [entry] = await tx
    .insert(creditLedger)
    .values({ organisationId, delta, balance: updated.credits, reason, reference })
    .onConflictDoNothing()
    .returning()
  if (entry === undefined) throw new DuplicateEntry()
  return { status: 'applied', entry, balance: updated.credits }
}

/** Credits to grant or spend are a whole number ≥ 0. */
function checkCredits(credits: number, what: 'grant' | 'spend'): void {
  if (!Number.isSafeInteger(credits) || credits < 0) {
    throw new RangeError(`Credits to ${what} must be a whole number ≥ 0, got ${credits}`)
  }
}

/**
 * The billing queries (see createRepository). Everything here is read and written through an
 * organisation's id.
 *
 * Every change of credits is one transaction: a guarded `UPDATE organisations SET credits =
 * credits + delta WHERE credits + delta >= 0` (which also locks the organisation's row, so
 * concurrent changes in any number of processes queue behind it and each sees the balance the
 * previous one left), then the ledger row with the balance after it. A reference makes the entry
 * idempotent: the unique (organisation, reason, reference) index refuses a second one, and the
 * balance change is rolled back with it.
 */
export function createBillingQueries(db: Db) {
  async function balanceOf(organisationId: string): Promise<number> {
    const [row] = await db
      .select({ credits: organisations.credits })
      .from(organisations)
      .where(eq(organisations.id, organisationId))
    return row?.credits ?? 0
  }

  async function findCreditEntry(
    organisationId: string,
    reason: string,
    reference: string,
  ): Promise<CreditEntry | undefined> {
    const [row] = await db
      .select()
      .from(creditLedger)
      .where(
        and(
          eq(creditLedger.organisationId, organisationId),
          eq(creditLedger.reason, reason),
          eq(creditLedger.reference, reference),
        ),
      )
    return row
  }

  /** Runs `change` in a transaction; an entry that already exists answers `duplicate`. */
  async function changeOnce(
    organisationId: string,
    reason: string,
    reference: string | null,
    change: (tx: Db) => Promise<CreditChange>,
  ): Promise<CreditChange> {
    if (reference !== null) {
      const existing = await findCreditEntry(organisationId, reason, reference)
      if (existing !== undefined) {
        return { status: 'duplicate', entry: existing, balance: await balanceOf(organisationId) }
      }
    }
    try {
      return await db.transaction((tx) => change(tx as Db))
    } catch (error) {
      if (!(error instanceof DuplicateEntry) || reference === null) throw error
      return {
        status: 'duplicate',
        entry: await findCreditEntry(organisationId, reason, reference),
        balance: await balanceOf(organisationId),
      }
    }
  }

  /** Changes the balance by `sign` × `credits` once per reason and reference (`changeOnce`). */
  const changeCredits =
    (sign: 1 | -1) =>
    async (
      organisationId: string,
      credits: number,
      reason: string,
      reference: string | null = null,
    ): Promise<CreditChange> => {
      checkCredits(credits, sign === 1 ? 'grant' : 'spend')
      return changeOnce(organisationId, reason, reference, (tx) =>
        changeIn(tx, organisationId, sign * credits, reason, reference),
      )
    }

  /**
   * Adds credits (a purchase, the free plan, a refund). With a `reference`, granting again for
   * the same reason and reference changes nothing (`duplicate`).
   */
  const grantCredits = changeCredits(1)

  /**
   * Takes credits unless the balance would go below 0 (`insufficient`, nothing changed). With a
   * `reference`, spending again for the same reason and reference changes nothing.
   */
  const spendCredits = changeCredits(-1)

  /**
   * Queues a job and takes its credits in one transaction (the ledger entry references the job),
   * so there is never a job that was not paid for nor a charge without its job.
   */
  async function enqueuePaidJob(
    organisationId: string,
    credits: number,
    reason: string,
    input: NewPaidJob,
  ): Promise<{ job: Job; change: CreditChange & { status: 'applied' } } | CreditChange> {
    checkCredits(credits, 'spend')
    let insufficient: CreditChange | undefined
    const done = await db
      .transaction(async (tx) => {
        const [job] = await tx
          .insert(jobs)
          .values({
            kind: input.kind,
            organisationId,
            payload: input.payload,
            ...(input.maxAttempts === undefined ? {} : { maxAttempts: input.maxAttempts }),
          })
          .returning()
        if (job === undefined) throw new Error('The database returned no job')
        const change = await changeIn(tx as Db, organisationId, -credits, reason, job.id)
        if (change.status !== 'applied') {
          insufficient = change
          tx.rollback()
        }
        return { job, change: change as CreditChange & { status: 'applied' } }
      })
      .catch((error: unknown) => {
        if (insufficient !== undefined) return undefined
        throw error
      })
    return done ?? (insufficient as CreditChange)
  }

  /**
   * Gives back every charge made for a job that failed for good: charges of `REFUND_REASONS`
   * referencing the job's id (predictions) or its dedupe key (delivery, whose charge references
   * the derived image's cache key). Calling it again refunds nothing twice.
   */
  async function refundJob(job: Job): Promise<JobRefund[]> {
    if (job.organisationId === null || job.status !== 'failed') return []
    const references = job.dedupeKey === null ? [job.id] : [job.id, job.dedupeKey]
    const charges = await db
      .select()
      .from(creditLedger)
      .where(
        and(
          eq(creditLedger.organisationId, job.organisationId),
          inArray(creditLedger.reason, Object.keys(REFUND_REASONS)),
          inArray(creditLedger.reference, references),
          lt(creditLedger.delta, 0),
        ),
      )
    const refunds: JobRefund[] = []
    for (const charge of charges) {
      const reason = REFUND_REASONS[charge.reason] as string
      const reference = charge.reference as string
      const change = await grantCredits(job.organisationId, -charge.delta, reason, reference)
      refunds.push({ reason, reference, credits: -charge.delta, change })
    }
    return refunds
  }

  /**
   * Failed jobs with a charge that has no refund yet (a worker that died on the last attempt
   * fails its job without running its handler), oldest first, at most `limit`.
   */
  async function listUnrefundedFailedJobs(limit: number): Promise<Job[]> {
    const reasons = Object.entries(REFUND_REASONS)
    const charged = sql.join(
      reasons.map(([charge]) => sql`${charge}`),
      sql`, `,
    )
    const refundOf = sql.join(
      reasons.map(([charge, refund]) => sql`when ${charge} then ${refund}`),
      sql` `,
    )
    const rows = await db.execute(sql`
      select distinct j.id, j.created_at from ${jobs} j
      join ${creditLedger} l
        on l.organisation_id = j.organisation_id
        and l.reference in (j.id::text, j.dedupe_key)
        and l.reason in (${charged})
        and l.delta < 0
      where j.status = 'failed'
        and not exists (
          select 1 from ${creditLedger} r
          where r.organisation_id = l.organisation_id
            and r.reference = l.reference
            and r.reason = case l.reason ${refundOf} end
        )
      order by j.created_at
      limit ${limit}`)
    // PGlite and node-postgres both answer `{ rows }`.
    const ids = ((rows as unknown as { rows: Array<{ id: string }> }).rows ?? []).map(
      (row) => row.id,
    )
    if (ids.length === 0) return []
    return db.select().from(jobs).where(inArray(jobs.id, ids))
  }

  /** The organisation's ledger, newest first. */
  async function listCreditLedger(
    organisationId: string,
    { limit, offset }: ListLedgerOptions,
  ): Promise<{ items: CreditEntry[]; total: number }> {
    const where = eq(creditLedger.organisationId, organisationId)
    const [items, [total]] = await Promise.all([
      db
        .select()
        .from(creditLedger)
        .where(where)
        .orderBy(desc(creditLedger.createdAt), desc(creditLedger.balance), desc(creditLedger.id))
        .limit(limit)
        .offset(offset),
      db.select({ value: count() }).from(creditLedger).where(where),
    ])
    return { items, total: total?.value ?? 0 }
  }

  /** The sum of the organisation's ledger entries (equal to its balance). */
  async function sumCreditLedger(organisationId: string): Promise<number> {
    const [row] = await db
      .select({ value: sql<string | null>`sum(${creditLedger.delta})` })
      .from(creditLedger)
      .where(eq(creditLedger.organisationId, organisationId))
    return Number(row?.value ?? 0)
  }

  async function creditSummary(organisationId: string): Promise<CreditSummary | undefined> {
    const [row] = await db
      .select({ organisation: organisations, plan: plans, subscription: subscriptions })
      .from(organisations)
      .leftJoin(plans, eq(plans.id, organisations.planId))
      .leftJoin(subscriptions, eq(subscriptions.organisationId, organisations.id))
      .where(eq(organisations.id, organisationId))
    if (row === undefined) return undefined
    return {
      organisation: row.organisation,
      plan: row.plan ?? undefined,
      subscription: row.subscription ?? undefined,
    }
  }

  /** An active plan by id (inactive ones cannot be bought). */
  async function findActivePlan(id: number): Promise<Plan | undefined> {
    const [row] = await db
      .select()
      .from(plans)
      .where(and(eq(plans.id, id), eq(plans.active, true)))
    return row
  }

  /** An active addon by id. */
  async function findActiveAddon(id: number): Promise<Addon | undefined> {
    const [row] = await db
      .select()
      .from(addons)
      .where(and(eq(addons.id, id), eq(addons.active, true)))
    return row
  }

  return {
    grantCredits,
    spendCredits,
    enqueuePaidJob,
    refundJob,
    listUnrefundedFailedJobs,
    findCreditEntry,
    listCreditLedger,
    sumCreditLedger,
    creditSummary,
    findActivePlan,
    findActiveAddon,
  }
}
