// Limits shared by every server process (rate_limit_events). A use is taken in one transaction
// that locks the limit's keys, counts them and records the use only when every limit allows it:
// N requests at once never pass more than the limit, on PGlite (one connection: transactions run
// one at a time) as on PostgreSQL (a transaction-scoped advisory lock per key).
import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { rowsOf } from './query-helpers.ts'
import { rateLimitEvents } from './schema.ts'

/** One limit a use is counted against. */
export interface RateRule {
  key: string
  /**
   * Weight allowed within the window; a function reads the other keys' counts of the same take
   * (taken under the same locks), for a limit that tightens with another one.
   */
  limit: number | ((countOf: (key: string) => number) => number)
  windowMs: number
  /** What this use costs against the limit (default 1). */
  weight?: number
}

/** A use recorded under every rule (its event ids, to release it) or refused by one of them. */
export type RateTake =
  | { ok: true; ids: number[]; idOf: Record<string, number> }
  | {
      ok: false
      /** The key of the refusing rule that frees up last. */
      key: string
      /** Milliseconds until every rule could allow this use (the window when one never could). */
      retryAfterMs: number
    }

const sinceOf = (windowMs: number) =>
  sql`now() - (${windowMs}::double precision * interval '1 millisecond')`

export function createRateLimitQueries(db: Db) {
  /** The weight `key` has used in the last `windowMs`, and when the oldest use was. */
  async function countRateEvents(
    key: string,
    windowMs: number,
  ): Promise<{ count: number; oldest: Date | undefined }> {
    const [row] = await db
      .select({
        count: sql<number>`coalesce(sum(${rateLimitEvents.weight}), 0)::double precision`,
        oldest: sql<string | null>`min(${rateLimitEvents.at})`,
      })
      .from(rateLimitEvents)
      .where(and(eq(rateLimitEvents.key, key), gt(rateLimitEvents.at, sinceOf(windowMs))))
    const oldest = row?.oldest ?? null
    return {
      count: Number(row?.count ?? 0),
      oldest: oldest === null ? undefined : new Date(oldest),
    }
  }

  /** Milliseconds until `key`'s uses in the window leave room for `weight` more under `limit`. */
  async function waitFor(tx: Db, rule: RateRule, used: number, limit: number, weight: number) {
    if (weight > limit) return rule.windowMs
    const result = await tx.execute(sql`
      select extract(epoch from (at + (${rule.windowMs}::double precision
        * interval '1 millisecond') - now())) * 1000 as wait_ms
      from (
        select at, sum(weight) over (order by at, id) as freed
        from rate_limit_events
        where key = ${rule.key} and at > ${sinceOf(rule.windowMs)}
      ) uses
      where ${used}::double precision - freed + ${weight} <= ${limit}
      order by at
      limit 1`)
    const wait = Number(rowsOf<{ wait_ms: number | string }>(result)[0]?.wait_ms ?? rule.windowMs)
    return Math.max(1, Math.ceil(wait))
  }

  /**
   * Records one use under every rule when each allows it (its uses in its window plus this
   * use's weight within its limit), else records nothing: checked and recorded under the keys'
   * locks, in one transaction.
   */
  async function takeRateEvents(rules: readonly RateRule[]): Promise<RateTake> {
    return db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db
      // In one order, so two takes of overlapping keys cannot wait for each other.
      const keys = [...new Set(rules.map((rule) => rule.key))].sort()
      for (const key of keys) {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 7301))`)
      }
      const counts = new Map<string, number>()
      for (const rule of rules) {
        const [row] = await tx
          .select({
            used: sql<number>`coalesce(sum(${rateLimitEvents.weight}), 0)::double precision`,
          })
          .from(rateLimitEvents)
          .where(
            and(eq(rateLimitEvents.key, rule.key), gt(rateLimitEvents.at, sinceOf(rule.windowMs))),
          )
        counts.set(rule.key, Number(row?.used ?? 0))
      }
      const countOf = (key: string) => counts.get(key) ?? 0
      // Every refusing rule is asked when it frees up: the use may pass once the last one has.
      let refusal: { key: string; retryAfterMs: number } | undefined
      for (const rule of rules) {
        const limit = typeof rule.limit === 'function' ? rule.limit(countOf) : rule.limit
        const weight = rule.weight ?? 1
        const used = countOf(rule.key)
        if (used + weight <= limit) continue
        const retryAfterMs = await waitFor(tx, rule, used, limit, weight)
        if (refusal === undefined || retryAfterMs > refusal.retryAfterMs) {
          refusal = { key: rule.key, retryAfterMs }
        }
      }
      if (refusal !== undefined) return { ok: false as const, ...refusal }
      const inserted = await tx
        .insert(rateLimitEvents)
        .values(rules.map((rule) => ({ key: rule.key, weight: rule.weight ?? 1 })))
        .returning({ id: rateLimitEvents.id, key: rateLimitEvents.key })
      return {
        ok: true as const,
        ids: inserted.map((row) => row.id),
        idOf: Object.fromEntries(inserted.map((row) => [row.key, row.id])),
      }
    })
  }

  /** Gives back uses recorded by `takeRateEvents` (a refused or failed attempt). */
  async function releaseRateEvents(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return
    await db.delete(rateLimitEvents).where(inArray(rateLimitEvents.id, [...ids]))
  }

  /** Sets what recorded uses cost, once it is known (a visitor upload's stored bytes). */
  async function reweighRateEvents(ids: readonly number[], weight: number): Promise<void> {
    if (ids.length === 0) return
    await db
      .update(rateLimitEvents)
      .set({ weight })
      .where(inArray(rateLimitEvents.id, [...ids]))
  }

  /** Records one use of `key` without a limit. */
  async function recordRateEvent(key: string, weight = 1): Promise<void> {
    await db.insert(rateLimitEvents).values({ key, weight })
  }

  async function clearRateEvents(key: string): Promise<void> {
    await db.delete(rateLimitEvents).where(eq(rateLimitEvents.key, key))
  }

  return {
    countRateEvents,
    takeRateEvents,
    releaseRateEvents,
    reweighRateEvents,
    recordRateEvent,
    clearRateEvents,
  }
}
