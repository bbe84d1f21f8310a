import { afterEach, describe, expect, it, vi } from 'vitest'
import { createByteCache, createTtlCache } from './cache.ts'

afterEach(() => {
  vi.useRealTimers()
})

describe('createTtlCache', () => {
  it('forgets entries after their time', () => {
    vi.useFakeTimers()
    const cache = createTtlCache<string, number>({ ttlMs: 1000, maxEntries: 10 })
    cache.set('a', 1)
    expect(cache.get('a')).toBe(1)
    vi.advanceTimersByTime(1001)
    expect(cache.get('a')).toBeUndefined()
  })

  it('drops the least recently used entry when full', () => {
    const cache = createTtlCache<string, number>({ ttlMs: 60_000, maxEntries: 2 })
    cache.set('a', 1)
    cache.set('b', 2)
    cache.get('a')
    cache.set('c', 3)
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3])
  })

  it('keeps nothing when its time is zero', () => {
    const cache = createTtlCache<string, number>({ ttlMs: 0, maxEntries: 10 })
    expect(cache.set('a', 1)).toBe(false)
    expect(cache.get('a')).toBeUndefined()
  })

  it('tells onRemove of every entry that leaves, however it leaves', () => {
    vi.useFakeTimers()
    const removed: string[] = []
    const cache = createTtlCache<string, number>({
      ttlMs: 1000,
      maxEntries: 2,
      onRemove: (key, value) => removed.push(`${key}=${value}`),
    })
    expect(cache.set('a', 1)).toBe(true)
    cache.set('a', 2) // replaced
    cache.set('b', 3)
    cache.set('c', 4) // pushes out a
    cache.delete('b')
    cache.delete('b') // already gone: nothing to tell
    vi.advanceTimersByTime(1001)
    expect(cache.get('c')).toBeUndefined() // expired
    cache.set('d', 5)
    cache.set('e', 6)
    cache.clear()
    expect(removed).toEqual(['a=1', 'a=2', 'b=3', 'c=4', 'd=5', 'e=6'])
  })

  it('bounds the sum of its weights, refusing an entry heavier than the bound', () => {
    const cache = createTtlCache<string, string>({
      ttlMs: 60_000,
      maxEntries: 10,
      weigh: (value) => value.length,
      maxWeight: 10,
    })
    cache.set('a', 'aaaa')
    cache.set('b', 'bbbb')
    expect([cache.count, cache.weight]).toEqual([2, 8])
    cache.get('a') // b is now the least recently used
    cache.set('c', 'cccc')
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['aaaa', undefined, 'cccc'])
    expect(cache.weight).toBe(8)
    expect(cache.set('d', 'd'.repeat(11))).toBe(false)
    expect(cache.count).toBe(2)
    cache.set('a', 'a') // replaced: its old weight leaves with it
    expect(cache.weight).toBe(5)
    cache.clear()
    expect([cache.count, cache.weight]).toEqual([0, 0])
  })
})

describe('createByteCache', () => {
  it('keeps the total under its limit, dropping the least recently used', () => {
    const cache = createByteCache({ maxBytes: 100 })
    cache.set('a', Buffer.alloc(20))
    cache.set('b', Buffer.alloc(20))
    cache.get('a')
    for (const key of ['c', 'd', 'e', 'f']) cache.set(key, Buffer.alloc(20))
    expect(cache.size).toBeLessThanOrEqual(100)
    expect(cache.get('a')).toBeDefined()
    expect(cache.get('b')).toBeUndefined()
  })

  it('does not keep a buffer larger than a quarter of its limit', () => {
    const cache = createByteCache({ maxBytes: 100 })
    cache.set('big', Buffer.alloc(26))
    expect(cache.get('big')).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('replaces and deletes entries, keeping the count right', () => {
    const cache = createByteCache({ maxBytes: 100 })
    cache.set('a', Buffer.alloc(10))
    cache.set('a', Buffer.alloc(5))
    expect(cache.size).toBe(5)
    cache.delete('a')
    expect(cache.size).toBe(0)
  })
})
