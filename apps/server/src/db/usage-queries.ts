// What an organisation uses: its stored originals, its share of the derived-image cache, its
// credits, and its newest files across every folder (the console's home page reads them).
import { and, asc, count, desc, eq, gte, lt, lte, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { checkWholeNumber, excluded } from './query-helpers.ts'
import {
  creditLedger,
  derivedImages,
  files,
  organisations,
  type StoredFile,
  usageDaily,
} from './schema.ts'

/** Counts to add to an organisation's day (`platform/usage-meter.ts` batches them). */
export interface UsageIncrement {
  organisationId: string
  /** `YYYY-MM-DD`, UTC. */
  day: string
  requests: number
  bytes: number
  renders: number
  aiRuns: number
}

/** One day of an organisation's usage. */
export interface DailyUsage {
  day: string
  requests: number
  bytes: number
  renders: number
  aiRuns: number
  /** Credits spent that day (the ledger's negative entries). */
  credits: number
}

/** An organisation's storage, derived-image cache and credits, counted now. */
export interface OrganisationUsage {
  files: number
  /** Bytes of the stored originals. */
  bytes: number
  derivedEntries: number
  /** Bytes of the stored derived images. */
  derivedBytes: number
  credits: number
}

/**
 * The page `listRecentFiles` reads: an organisation's files, the most recently uploaded or
 * changed first. Exported so a test can ask the planner how it runs it.
 */
export function recentFilesQuery(
  db: Db,
  organisationId: string,
  { limit, offset }: { limit: number; offset: number },
) {
  checkWholeNumber('limit', limit)
  checkWholeNumber('offset', offset)
  return db
    .select()
    .from(files)
    .where(eq(files.organisationId, organisationId))
    .orderBy(desc(files.updatedAt), desc(files.id))
    .limit(limit)
    .offset(offset)
}

export function createUsageQueries(db: Db) {
  /** The usage of an organisation, or undefined when it does not exist. */
  async function organisationUsage(organisationId: string): Promise<OrganisationUsage | undefined> {
    const total = (column: typeof files.size | typeof derivedImages.size) =>
      sql<string | number | null>`coalesce(sum(${column}), 0)`
    const [[organisation], [stored], [derived]] = await Promise.all([
      db
        .select({ credits: organisations.credits })
        .from(organisations)
        .where(eq(organisations.id, organisationId)),
      db
        .select({ entries: count(), bytes: total(files.size) })
        .from(files)
        .where(eq(files.organisationId, organisationId)),
      db
        .select({ entries: count(), bytes: total(derivedImages.size) })
        .from(derivedImages)
        .where(eq(derivedImages.organisationId, organisationId)),
    ])
    if (organisation === undefined) return undefined
    return {
      files: stored?.entries ?? 0,
      bytes: Number(stored?.bytes ?? 0),
      derivedEntries: derived?.entries ?? 0,
      derivedBytes: Number(derived?.bytes ?? 0),
      credits: organisation.credits,
    }
  }

  /** The organisation's files in every folder, the most recently uploaded or changed first. */
  async function listRecentFiles(
    organisationId: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: StoredFile[]; total: number }> {
    const [items, [counted]] = await Promise.all([
      recentFilesQuery(db, organisationId, page),
      db.select({ value: count() }).from(files).where(eq(files.organisationId, organisationId)),
    ])
    return { items, total: counted?.value ?? 0 }
  }

  /**
   * Adds counts to their days, all in one statement.
   *
   * @throws a foreign-key violation (SQLSTATE 23503) when an organisation was deleted meanwhile.
   */
  async function addUsage(increments: readonly UsageIncrement[]): Promise<void> {
    if (increments.length === 0) return
    await db
      .insert(usageDaily)
      .values(increments.map((row) => ({ ...row })))
      .onConflictDoUpdate({
        target: [usageDaily.organisationId, usageDaily.day],
        set: {
          requests: sql`${usageDaily.requests} + ${excluded(usageDaily.requests)}`,
          bytes: sql`${usageDaily.bytes} + ${excluded(usageDaily.bytes)}`,
          renders: sql`${usageDaily.renders} + ${excluded(usageDaily.renders)}`,
          aiRuns: sql`${usageDaily.aiRuns} + ${excluded(usageDaily.aiRuns)}`,
        },
      })
  }

  /**
   * The organisation's usage per day from `from` to `to` (inclusive, `YYYY-MM-DD`), every day
   * present (zeros where nothing was counted); credits spent come from the ledger.
   */
  async function dailyUsage(
    organisationId: string,
    from: string,
    to: string,
  ): Promise<DailyUsage[]> {
    const start = new Date(`${from}T00:00:00Z`)
    const end = new Date(`${to}T00:00:00Z`)
    end.setUTCDate(end.getUTCDate() + 1)
    const dayOfLedger = sql<string>`to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`
    const [counted, spent] = await Promise.all([
      db
        .select()
        .from(usageDaily)
        .where(
          and(
            eq(usageDaily.organisationId, organisationId),
            gte(usageDaily.day, from),
            lte(usageDaily.day, to),
          ),
        )
        .orderBy(asc(usageDaily.day)),
      db
        .select({ day: dayOfLedger, credits: sql<string>`sum(-${creditLedger.delta})` })
        .from(creditLedger)
        .where(
          and(
            eq(creditLedger.organisationId, organisationId),
            lt(creditLedger.delta, 0),
            gte(creditLedger.createdAt, start),
            lt(creditLedger.createdAt, end),
          ),
        )
        .groupBy(dayOfLedger),
    ])
    const byDay = new Map(counted.map((row) => [row.day, row]))
    const credits = new Map(spent.map((row) => [row.day, Number(row.credits)]))
    const days: DailyUsage[] = []
    for (let at = new Date(start); at < end; at.setUTCDate(at.getUTCDate() + 1)) {
      const day = at.toISOString().slice(0, 10)
      const row = byDay.get(day)
      days.push({
        day,
        requests: row?.requests ?? 0,
        bytes: row?.bytes ?? 0,
        renders: row?.renders ?? 0,
        aiRuns: row?.aiRuns ?? 0,
        credits: credits.get(day) ?? 0,
      })
    }
    return days
  }

  /** Deletes days before `before` (`YYYY-MM-DD`); answers how many rows went. */
  async function pruneUsage(before: string): Promise<number> {
    const rows = await db
      .delete(usageDaily)
      .where(lt(usageDaily.day, before))
      .returning({ day: usageDaily.day })
    return rows.length
  }

  return { organisationUsage, listRecentFiles, addUsage, dailyUsage, pruneUsage }
}
