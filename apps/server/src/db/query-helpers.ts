// Small pieces every query module uses.

import { and, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Db } from './database.ts'
import type { apiTokens, invitations, signingKeys } from './schema.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether `value` can be compared with a uuid column without PostgreSQL rejecting it. */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}

/**
 * Whether `error` (or an error it wraps) is a PostgreSQL unique violation, optionally of the
 * named constraint or unique index (e.g. `organisations_cloud_name_key`).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const fields = cause as Error & { code?: unknown; constraint?: unknown }
    if (fields.code === '23505') return constraint === undefined || fields.constraint === constraint
  }
  return false
}

// In ON CONFLICT DO UPDATE, `excluded` is the row that failed to go in.
export const excluded = (column: PgColumn): SQL => sql`excluded.${sql.identifier(column.name)}`
export const now = (): SQL => sql`now()`
export const milliseconds = (ms: number): SQL =>
  sql`(${ms}::double precision * interval '1 millisecond')`

export function checkWholeNumber(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number ≥ 0, got ${value}`)
  }
}

// `returning()` of an insert or upsert always yields the row; this narrows the type honestly.
export function returned<T>(row: T | undefined): T {
  if (row === undefined) throw new Error('The database returned no row where one was expected')
  return row
}

/** The rows of a raw `db.execute` answer (PGlite and node-postgres both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown } | null)?.rows
  if (!Array.isArray(rows)) throw new Error('The database answered a query without rows')
  return rows as T[]
}

/** A table of things an organisation revokes: API tokens, signing keys, invitations. */
type Revocable = typeof apiTokens | typeof signingKeys | typeof invitations

/**
 * Revokes the organisation's live row of `table` that `which` picks (and `more` allows); whether
 * there was one.
 */
export async function revokeLive(
  db: Db,
  table: Revocable,
  organisationId: string,
  which: SQL,
  ...more: SQL[]
): Promise<boolean> {
  const rows = await db
    .update(table)
    .set({ revokedAt: now() })
    .where(and(eq(table.organisationId, organisationId), which, isNull(table.revokedAt), ...more))
    .returning({ id: table.id })
  return rows.length > 0
}
