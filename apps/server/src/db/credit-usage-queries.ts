// What an organisation spent (Pixelbin's `getUsageV2`: credits used in the period).
import { and, eq, gte, lt, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { creditLedger } from './schema.ts'

export function createCreditUsageQueries(db: Db) {
  /** Credits the organisation spent since `since` (the sum of its negative ledger entries). */
  async function creditsSpentSince(organisationId: string, since: Date): Promise<number> {
    const [row] = await db
      .select({ spent: sql<number>`coalesce(-sum(${creditLedger.delta}), 0)::int` })
      .from(creditLedger)
      .where(
        and(
          eq(creditLedger.organisationId, organisationId),
          gte(creditLedger.createdAt, since),
          lt(creditLedger.delta, 0),
        ),
      )
    return row?.spent ?? 0
  }
  return { creditsSpentSince }
}
