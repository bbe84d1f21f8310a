// What an organisation uses: its stored originals, its share of the derived-image cache, its
// credits, and its newest files across every folder (the console's home page reads them).
import { count, desc, eq, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { checkWholeNumber } from './query-helpers.ts'
import { derivedImages, files, organisations, type StoredFile } from './schema.ts'

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

  return { organisationUsage, listRecentFiles }
}
