// Small in-process caches for the delivery hot path: database rows for a few seconds, and the
// bytes of recently served derived images. Both are bounded; a Map keeps insertion order, so
// re-inserting on read makes the oldest entry the least recently used.

/** Remembers values for `ttlMs`, at most `maxEntries` of them (least recently used go first). */
export interface TtlCache<K, V> {
  get(key: K): V | undefined
  /** Keeps `value`; answers false when nothing is kept (a zero time or size). */
  set(key: K, value: V): boolean
  delete(key: K): void
  clear(): void
  /** How many entries are kept. */
  readonly count: number
  /** The sum of the kept entries' weights (0 without `weigh`). */
  readonly weight: number
}

export function createTtlCache<K, V>(options: {
  ttlMs: number
  maxEntries: number
  /**
   * Called with every entry that leaves: deleted, cleared, replaced, expired or pushed out. Lets
   * a caller keep an index of the entries that is never larger than the cache.
   */
  onRemove?: (key: K, value: V) => void
  /** What an entry weighs (e.g. its bytes), with `maxWeight` the bound of their sum. */
  weigh?: (value: V) => number
  maxWeight?: number
}): TtlCache<K, V> {
  const entries = new Map<K, { value: V; until: number; weight: number }>()
  const { onRemove, weigh } = options
  const maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY
  let weight = 0
  function remove(key: K): void {
    const entry = entries.get(key)
    if (entry === undefined) return
    entries.delete(key)
    weight -= entry.weight
    onRemove?.(key, entry.value)
  }
  return {
    get(key) {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      if (entry.until <= Date.now()) {
        remove(key)
        return undefined
      }
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },
    set(key, value) {
      if (options.ttlMs <= 0 || options.maxEntries <= 0) return false
      const entryWeight = weigh?.(value) ?? 0
      if (entryWeight > maxWeight) return false
      remove(key)
      entries.set(key, { value, until: Date.now() + options.ttlMs, weight: entryWeight })
      weight += entryWeight
      while (entries.size > options.maxEntries || weight > maxWeight) {
        const oldest = entries.keys().next()
        if (oldest.done === true) break
        remove(oldest.value)
      }
      return true
    },
    delete(key) {
      remove(key)
    },
    clear() {
      if (onRemove === undefined) {
        entries.clear()
        weight = 0
      } else for (const key of [...entries.keys()]) remove(key)
    },
    get count() {
      return entries.size
    },
    get weight() {
      return weight
    },
  }
}

/** Keeps byte buffers up to `maxBytes` in total (least recently used go first). */
export interface ByteCache {
  get(key: string): Buffer | undefined
  set(key: string, data: Buffer): void
  delete(key: string): void
  readonly size: number
}

export function createByteCache(options: { maxBytes: number }): ByteCache {
  const entries = new Map<string, Buffer>()
  let total = 0
  return {
    get(key) {
      const data = entries.get(key)
      if (data !== undefined) {
        entries.delete(key)
        entries.set(key, data)
      }
      return data
    },
    set(key, data) {
      if (data.length > options.maxBytes / 4) return
      const previous = entries.get(key)
      if (previous !== undefined) {
        total -= previous.length
        entries.delete(key)
      }
      entries.set(key, data)
      total += data.length
      for (const [oldKey, oldData] of entries) {
        if (total <= options.maxBytes) break
        entries.delete(oldKey)
        total -= oldData.length
      }
    },
    delete(key) {
      const data = entries.get(key)
      if (data === undefined) return
      entries.delete(key)
      total -= data.length
    },
    get size() {
      return total
    },
  }
}
