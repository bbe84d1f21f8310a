// The activity log (issue 24): one row per thing done to an organisation, read newest first
// with filters (see createRepository). Retention by `pruneActivity`.
import { and, count, desc, eq, gte, ilike, like, lt, type SQL, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { checkWholeNumber, returned } from './query-helpers.ts'
import { type ActivityEntry, activityLog } from './schema.ts'

export interface NewActivity {
  organisationId: string
  actorUserId: string | null
  actor: string
  kind: string
  target: string
  details: Record<string, unknown>
}

export interface ActivityFilter {
  /** A kind (`file.upload`) or a family (`file`: every `file.*`). */
  kind?: string
  /** Only what this user did. */
  actorUserId?: string
  /** Text found in the actor (an e-mail) or the target, case-insensitive. */
  search?: string
  from?: Date
  /** Exclusive. */
  to?: Date
  limit: number
  offset: number
}

/** `%` and `_` taken literally in a LIKE pattern. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export function createActivityQueries(db: Db) {
  async function recordActivity(entry: NewActivity): Promise<ActivityEntry> {
    const [row] = await db.insert(activityLog).values(entry).returning()
    return returned(row)
  }

  async function listActivity(
    organisationId: string,
    filter: ActivityFilter,
  ): Promise<{ items: ActivityEntry[]; total: number }> {
    checkWholeNumber('limit', filter.limit)
    checkWholeNumber('offset', filter.offset)
    const conditions: (SQL | undefined)[] = [eq(activityLog.organisationId, organisationId)]
    if (filter.kind !== undefined) {
      conditions.push(
        filter.kind.includes('.')
          ? eq(activityLog.kind, filter.kind)
          : like(activityLog.kind, `${literal(filter.kind)}.%`),
      )
    }
    if (filter.actorUserId !== undefined) {
      conditions.push(eq(activityLog.actorUserId, filter.actorUserId))
    }
    if (filter.search !== undefined) {
      const pattern = `%${literal(filter.search)}%`
      conditions.push(
        sql`(${ilike(activityLog.actor, pattern)} or ${ilike(activityLog.target, pattern)})`,
      )
    }
    if (filter.from !== undefined) conditions.push(gte(activityLog.createdAt, filter.from))
    if (filter.to !== undefined) conditions.push(lt(activityLog.createdAt, filter.to))
    const where = and(...conditions)
    const [items, [counted]] = await Promise.all([
      db
        .select()
        .from(activityLog)
        .where(where)
        .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
        .limit(filter.limit)
        .offset(filter.offset),
      db.select({ value: count() }).from(activityLog).where(where),
    ])
    return { items, total: counted?.value ?? 0 }
  }

  /** Deletes entries older than `before`; answers how many. */
  async function pruneActivity(before: Date): Promise<number> {
    const rows = await db
      .delete(activityLog)
      .where(lt(activityLog.createdAt, before))
      .returning({ id: activityLog.id })
    return rows.length
  }

  return { recordActivity, listActivity, pruneActivity }
}
