// Plans and addons (see createRepository): upserted from the content files at start, listed a
// page at a time.
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Db } from './database.ts'
import { checkWholeNumber, excluded, now } from './query-helpers.ts'
import { type Addon, addons, type BillingFeature, type Plan, plans } from './schema.ts'

/** A plan or addon as its content file describes it. */
export interface BillingItemInput {
  id: number
  name: string
  description: string
  amount: number
  currency: string
  credits: number
  features: BillingFeature[]
  tags: string[]
  custom: boolean
  active: boolean
  sort: number
}

export interface PlanInput extends BillingItemInput {
  /** `monthly`, `yearly`, … (clients treat every interval starting with `yearly` as yearly). */
  interval: string
}

export interface ListBillingOptions {
  /** Only custom (`true`) or only public (`false`) items; both when absent. */
  custom?: boolean | undefined
  /** Only items carrying this tag (compared exactly, never as a pattern). */
  tag?: string | undefined
  limit: number
  offset: number
}

/** One page of a listing and the number of rows that match in all. */
export interface ListPage<T> {
  items: T[]
  total: number
}

/** The plan and addon queries. */
export function createPlanQueries(db: Db) {
  /** The filter shared by the plan and addon listings: active rows, then `custom` and `tag`. */
  function billingWhere(
    table: typeof plans | typeof addons,
    { custom, tag }: ListBillingOptions,
  ): SQL | undefined {
    return and(
      eq(table.active, true),
      custom === undefined ? undefined : eq(table.custom, custom),
      tag === undefined ? undefined : sql`${tag}::text = any(${table.tags})`,
    )
  }

  // Re-seeding the same content changes nothing, not even `updated_at`.
  function changed(columns: PgColumn[]): SQL {
    const current = sql.join(
      columns.map((column) => sql`${column}`),
      sql`, `,
    )
    const incoming = sql.join(columns.map(excluded), sql`, `)
    return sql`(${current}) is distinct from (${incoming})`
  }

  /** Inserts the plans, or updates the ones whose id exists and whose fields differ. */
  async function upsertPlans(inputs: readonly PlanInput[]): Promise<void> {
    if (inputs.length === 0) return
    const columns = [
      plans.name,
      plans.description,
      plans.amount,
      plans.currency,
      plans.interval,
      plans.credits,
      plans.features,
      plans.tags,
      plans.custom,
      plans.active,
      plans.sort,
    ]
    await db
      .insert(plans)
      .values(inputs.map((input) => ({ ...input })))
      .onConflictDoUpdate({
        target: plans.id,
        set: {
          ...Object.fromEntries(columns.map((column) => [column.name, excluded(column)])),
          updatedAt: now(),
        },
        setWhere: changed(columns),
      })
  }

  /** Inserts the addons, or updates the ones whose id exists and whose fields differ. */
  async function upsertAddons(inputs: readonly BillingItemInput[]): Promise<void> {
    if (inputs.length === 0) return
    const columns = [
      addons.name,
      addons.description,
      addons.amount,
      addons.currency,
      addons.credits,
      addons.features,
      addons.tags,
      addons.custom,
      addons.active,
      addons.sort,
    ]
    await db
      .insert(addons)
      .values(inputs.map((input) => ({ ...input })))
      .onConflictDoUpdate({
        target: addons.id,
        set: {
          ...Object.fromEntries(columns.map((column) => [column.name, excluded(column)])),
          updatedAt: now(),
        },
        setWhere: changed(columns),
      })
  }

  /** Active plans by `sort`, amount and id, one page of them, with the number that match. */
  async function listPlans(options: ListBillingOptions): Promise<ListPage<Plan>> {
    checkWholeNumber('limit', options.limit)
    checkWholeNumber('offset', options.offset)
    const where = billingWhere(plans, options)
    const [items, [total]] = await Promise.all([
      db
        .select()
        .from(plans)
        .where(where)
        .orderBy(asc(plans.sort), asc(plans.amount), asc(plans.id))
        .limit(options.limit)
        .offset(options.offset),
      db.select({ value: count() }).from(plans).where(where),
    ])
    return { items, total: total?.value ?? 0 }
  }

  /** Active addons by `sort`, amount and id, one page of them, with the number that match. */
  async function listAddons(options: ListBillingOptions): Promise<ListPage<Addon>> {
    checkWholeNumber('limit', options.limit)
    checkWholeNumber('offset', options.offset)
    const where = billingWhere(addons, options)
    const [items, [total]] = await Promise.all([
      db
        .select()
        .from(addons)
        .where(where)
        .orderBy(asc(addons.sort), asc(addons.amount), asc(addons.id))
        .limit(options.limit)
        .offset(options.offset),
      db.select({ value: count() }).from(addons).where(where),
    ])
    return { items, total: total?.value ?? 0 }
  }

  return { upsertPlans, upsertAddons, listPlans, listAddons }
}
