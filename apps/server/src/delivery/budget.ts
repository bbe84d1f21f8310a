// The derived-image cache's bounds (DERIVED_CACHE_MAX_BYTES): least recently used images go
// when every process's stored images add up to more than the budget, row first, then bytes.
// Last use is written at most once a minute per image and process; images being read to answer
// a hit are never chosen.
import type { AppContext } from '../context.ts'
import { createTtlCache } from '../platform/cache.ts'

/** A derived image's last use is written at most this often per process (not on every hit). */
const TOUCH_INTERVAL_MS = 60_000
/** Rows the budget looks at per round of eviction. */
const EVICTION_BATCH = 200
/**
 * How long this process trusts its own running total of the cache's bytes before adding them up
 * in the database again (other processes' stores are counted from then on).
 */
const BUDGET_RECOUNT_MS = 30_000

export type DerivedBudget = ReturnType<typeof createDerivedBudget>

export function createDerivedBudget(
  app: Pick<AppContext, 'repo' | 'lookups' | 'storage' | 'metrics' | 'config' | 'logger'>,
  events: {
    /** Called with the storage key of each derived image whose row eviction deleted. */
    evicted?: (storageKey: string) => void
  } = {},
) {
  const { repo, lookups, storage, metrics, config, logger } = app
  // Derived images whose last use this process wrote in the last minute: one write per entry per
  // minute instead of one per hit.
  const touched = createTtlCache<string, true>({ ttlMs: TOUCH_INTERVAL_MS, maxEntries: 50_000 })
  // Storage keys this process is reading to answer a hit: the budget leaves them alone.
  const serving = new Map<string, number>()
  // Writes of last use still running (settle waits for them).
  const touches = new Set<Promise<void>>()
  let budgetPass: Promise<void> | undefined
  let budgetAgain = false
  // The cache's bytes as last added up, plus what this process stored since.
  let knownTotal: { bytes: number; at: number } | undefined
  metrics.derivedBudgetBytes.set(config.derivedCache.maxBytes)

  /**
   * After `added` bytes were stored: keeps the stored derived images within `DERIVED_CACHE_MAX_BYTES`: while the index (every
   * process's) holds more, the least recently used go, row first, then their bytes. The sizes
   * are added up in the database when this process's running total passes the budget, and at
   * least every `BUDGET_RECOUNT_MS`, not on every store. One pass runs at a time in this
   * process; a store during a pass asks for one more pass after it.
   */
  function stored(added: number): void {
    if (knownTotal !== undefined && Date.now() - knownTotal.at < BUDGET_RECOUNT_MS) {
      knownTotal.bytes += added
      if (knownTotal.bytes <= config.derivedCache.maxBytes) return
    }
    if (budgetPass !== undefined) {
      budgetAgain = true
      return
    }
    budgetPass = (async () => {
      do {
        budgetAgain = false
        await evictOverBudget()
      } while (budgetAgain)
    })()
      .catch((error: unknown) => logger.warn({ err: error }, 'derived cache eviction failed'))
      .finally(() => {
        budgetPass = undefined
      })
  }

  async function evictOverBudget(): Promise<void> {
    let total = await repo.derivedTotalBytes()
    while (total > config.derivedCache.maxBytes) {
      const oldest = await repo.leastRecentlyUsedDerived(EVICTION_BATCH, [...serving.keys()])
      if (oldest.length === 0) break
      // Just enough of the batch to come within budget.
      const chosen: typeof oldest = []
      let freed = 0
      for (const entry of oldest) {
        if (total - freed <= config.derivedCache.maxBytes) break
        chosen.push(entry)
        freed += entry.size
      }
      // Rows used after they were chosen stay (the database keeps microseconds, Date
      // milliseconds: hence the extra millisecond).
      const newest = Math.max(...chosen.map((entry) => entry.lastAccessedAt.getTime()))
      const gone = await repo.evictDerived(
        chosen.map((entry) => entry.id),
        new Date(newest + 1),
      )
      for (const entry of gone) {
        events.evicted?.(entry.storageKey)
        lookups.bytes.delete(entry.storageKey)
        await storage.delete(entry.storageKey)
      }
      metrics.derivedEvictions.inc(gone.length)
      total = await repo.derivedTotalBytes()
      // Another process took these rows, or they were used meanwhile: look again next store.
      if (gone.length === 0) break
    }
    knownTotal = { bytes: total, at: Date.now() }
    metrics.derivedBytes.set(total)
  }

  /** Reads the cache's size from the database for `/metrics` (every process's images). */
  async function refreshCacheMetrics(): Promise<void> {
    metrics.derivedBytes.set(await repo.derivedTotalBytes())
  }

  /** Writes a derived image's last use, at most once a minute per image in this process. */
  function touch(row: { id: string; cacheKey: string }): void {
    if (touched.get(row.cacheKey) !== undefined) return
    touched.set(row.cacheKey, true)
    const write = repo
      .touchDerived(row.id)
      .catch((error: unknown) => logger.warn({ err: error }, 'could not record derived image use'))
      .finally(() => touches.delete(write))
    touches.add(write)
  }

  /** Reads a stored derived image to answer a hit; eviction leaves it alone meanwhile. */
  async function readServing(storageKey: string): Promise<Buffer | undefined> {
    serving.set(storageKey, (serving.get(storageKey) ?? 0) + 1)
    try {
      return await storage.get(storageKey)
    } finally {
      const left = (serving.get(storageKey) ?? 1) - 1
      if (left === 0) serving.delete(storageKey)
      else serving.set(storageKey, left)
    }
  }

  /** Waits for the writes of last use and the eviction pass running now. */
  async function settle(): Promise<void> {
    await Promise.allSettled([...touches])
    while (budgetPass !== undefined) await budgetPass
  }

  return { stored, touch, readServing, refreshCacheMetrics, settle }
}
