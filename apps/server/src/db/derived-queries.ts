// The derived-image cache as the database knows it: sizes and last use of every stored derived
// image, shared by all server processes, so the byte budget holds across them.
import { and, asc, inArray, lte, notInArray, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { derivedImages } from './schema.ts'

/** A derived image the budget may evict. */
export interface DerivedCacheEntry {
  id: string
  storageKey: string
  size: number
  lastAccessedAt: Date
}

export function createDerivedQueries(db: Db) {
  /** Bytes of every derived image in the index. */
  async function derivedTotalBytes(): Promise<number> {
    const [row] = await db
      .select({ total: sql<string | number | null>`sum(${derivedImages.size})` })
      .from(derivedImages)
    return Number(row?.total ?? 0)
  }

  /** The `limit` least recently used derived images, leaving out `keep` (storage keys). */
  async function leastRecentlyUsedDerived(
    limit: number,
    keep: readonly string[] = [],
  ): Promise<DerivedCacheEntry[]> {
    return db
      .select({
        id: derivedImages.id,
        storageKey: derivedImages.storageKey,
        size: derivedImages.size,
        lastAccessedAt: derivedImages.lastAccessedAt,
      })
      .from(derivedImages)
      .where(keep.length === 0 ? undefined : notInArray(derivedImages.storageKey, [...keep]))
      .orderBy(asc(derivedImages.lastAccessedAt), asc(derivedImages.id))
      .limit(limit)
  }

  /**
   * Deletes the index rows of `ids` that nobody used after `usedBefore` (a row touched since it
   * was chosen stays); answers the rows deleted, so only one process deletes their bytes.
   */
  async function evictDerived(
    ids: readonly string[],
    usedBefore: Date,
  ): Promise<{ storageKey: string; size: number }[]> {
    if (ids.length === 0) return []
    return db
      .delete(derivedImages)
      .where(
        and(inArray(derivedImages.id, [...ids]), lte(derivedImages.lastAccessedAt, usedBefore)),
      )
      .returning({ storageKey: derivedImages.storageKey, size: derivedImages.size })
  }

  return { derivedTotalBytes, leastRecentlyUsedDerived, evictDerived }
}
