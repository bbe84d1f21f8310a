// Which derived images the index may hold, known in memory, so a cache miss on the embedded
// database skips its row lookup (issue 25: on PGlite every query runs on the main thread, and the
// lookup of a new URL's row was the largest part of a miss beside the render). Only one process
// opens a PGlite database (decision 008), and every derived row it gets goes in through this
// process's index writer (derived-index.ts), so the rows at the first miss plus those recorded
// since are all there are. On PostgreSQL other processes add rows this one never hears of: there
// the set is not used and every miss asks the database, as before.
//
// The set answers "certainly absent" or "maybe present", never "present": a key is kept as a
// 30-bit hash, so two keys sharing one only make a lookup that finds nothing (about 1 in 4,000
// misses at the bound). Rows deleted elsewhere (a file's, an organisation's) stay in the set and
// cost their lookup. What a wrong "absent" would cost is a render made again, never a wrong
// answer: the bytes, headers and ETag of a key are the same however often it is rendered, and
// the first row of a key wins (repository.ts). Delivery still asks only for plain renders, not
// for chains that queue a paid job (delivery.ts).

/** Keys kept at most (about 5 MB); past it the set stops answering until the process restarts. */
export const DERIVED_KEYS_MAX = 250_000

export interface DerivedKeys {
  /**
   * True only when no row of `cacheKey` can be in the index. The first call starts reading the
   * keys already there; until they are read (and after a failure or the bound) it answers false.
   */
  absent(cacheKey: string): boolean
  /** A row of `cacheKey` is in the index (called once its INSERT has returned). */
  recorded(cacheKey: string): void
  /** The row of the derived image stored at `storageKey` was deleted (evicted). */
  removed(storageKey: string): void
  /** Settles once a read of the keys already there, if one was started, has finished. */
  settle(): Promise<void>
}

/** FNV-1a of the key, cut to 30 bits (a small integer: compact in a Map). */
function hashOf(cacheKey: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < cacheKey.length; index++) {
    hash ^= cacheKey.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash & 0x3fffffff
}

/** The cache key of a derived image's storage key (`orgs/<id>/derived/<key>.<format>`). */
export function cacheKeyOfStorageKey(storageKey: string): string | undefined {
  const match = /\/derived\/([^/.]+)\.[^/.]+$/.exec(storageKey)
  return match?.[1]
}

/**
 * A set of the index's keys over `load` (the keys of every row, at most `limit` of them); the
 * set that never says "absent" when `enabled` is false.
 */
export function createDerivedKeys(options: {
  enabled: boolean
  load: (limit: number) => Promise<readonly string[]>
  maxKeys?: number
  onError?: (error: unknown) => void
}): DerivedKeys {
  const maxKeys = options.maxKeys ?? DERIVED_KEYS_MAX
  // Hash to the number of keys with it (two keys may share one).
  const counts = new Map<number, number>()
  let keys = 0
  let state: 'idle' | 'loading' | 'ready' | 'off' = options.enabled ? 'idle' : 'off'
  let loading: Promise<void> = Promise.resolve()

  function add(cacheKey: string): void {
    if (state === 'off') return
    const hash = hashOf(cacheKey)
    counts.set(hash, (counts.get(hash) ?? 0) + 1)
    keys++
    if (keys > maxKeys) turnOff()
  }

  function turnOff(): void {
    state = 'off'
    counts.clear()
    keys = 0
  }

  function start(): void {
    state = 'loading'
    loading = options.load(maxKeys + 1).then(
      (loaded) => {
        if (state === 'off') return
        // Keys recorded while the load ran are counted as well: a key counted twice only stays
        // "maybe present" longer.
        for (const cacheKey of loaded) add(cacheKey)
        if (loaded.length > maxKeys) turnOff()
        else if (state === 'loading') state = 'ready'
      },
      (error: unknown) => {
        turnOff()
        options.onError?.(error)
      },
    )
  }

  return {
    absent(cacheKey) {
      if (state === 'idle') start()
      return state === 'ready' && !counts.has(hashOf(cacheKey))
    },
    recorded(cacheKey) {
      add(cacheKey)
    },
    removed(storageKey) {
      if (state === 'off') return
      const cacheKey = cacheKeyOfStorageKey(storageKey)
      if (cacheKey === undefined) return
      const hash = hashOf(cacheKey)
      const count = counts.get(hash)
      if (count === undefined) return
      keys--
      if (count <= 1) counts.delete(hash)
      else counts.set(hash, count - 1)
    },
    settle: () => loading,
  }
}
