// The pure steps of delivery, alone: the derived image's key, the dpr it renders at, and the
// answer headers and ETag checks.
import { DPR_RANGE, parsePattern } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { derivedCacheKey, readDpr, varyOf } from './cache-key.ts'
import { cacheHeaders, ifNoneMatchMatches } from './respond.ts'

const chain = (pattern: string) => parsePattern(pattern).value
const FILE = { id: '00000000-0000-4000-8000-000000000001', version: 1 }
const key = (pattern: string, changes: Partial<Parameters<typeof derivedCacheKey>[0]> = {}) =>
  derivedCacheKey({
    file: FILE,
    operations: chain(pattern),
    format: 'png',
    dpr: 1,
    merged: [],
    ...changes,
  })

describe('the derived image key', () => {
  it('is the same for one chain written two ways, and 40 hex digits', () => {
    expect(key('t.resize(w:300,h:200)')).toBe(key('t.resize(h:200,w:300)'))
    expect(key('t.resize(w:300,h:200)')).toMatch(/^[0-9a-f]{40}$/)
  })

  it('changes with the file version, format, dpr, operations and merged files', () => {
    const base = key('t.flip()')
    expect(key('t.flip()', { file: { ...FILE, version: 2 } })).not.toBe(base)
    expect(key('t.flip()', { format: 'webp' })).not.toBe(base)
    expect(key('t.flip()', { dpr: 2 })).not.toBe(base)
    expect(key('t.flop()')).not.toBe(base)
    expect(key('t.flip()', { merged: [{ id: 'other', version: 1 }] })).not.toBe(base)
  })
})

describe('the dpr of a request', () => {
  const hints = (value: string) => new Headers({ 'sec-ch-dpr': value })

  it('is the URL option, 1 without one, or the client hint with dpr=auto', () => {
    expect(readDpr({}, hints('3'))).toBe(1)
    expect(readDpr({ dpr: 2 }, hints('3'))).toBe(2)
    expect(readDpr({ dpr: 'auto' }, hints('2.5'))).toBe(2.5)
    expect(readDpr({ dpr: 'auto' }, new Headers({ dpr: '1.5' }))).toBe(1.5)
  })

  it('clamps hints to the language range and ignores ones that are not numbers', () => {
    expect(readDpr({ dpr: 'auto' }, hints('9'))).toBe(DPR_RANGE.max)
    expect(readDpr({ dpr: 'auto' }, hints('0.01'))).toBe(DPR_RANGE.min)
    expect(readDpr({ dpr: 'auto' }, hints('many'))).toBe(1)
  })

  it('varies the answer by the headers it read', () => {
    expect(varyOf({})).toEqual([])
    expect(varyOf({ f_auto: true, dpr: 'auto' })).toEqual(['Accept', 'Sec-CH-DPR', 'DPR'])
  })
})

describe('answer headers and ETag checks', () => {
  it('carries the ETag, max-age and Vary', () => {
    expect(cacheHeaders('"k"', ['Accept'], 60)).toEqual({
      etag: '"k"',
      'cache-control': 'public, max-age=60',
      'x-content-type-options': 'nosniff',
      vary: 'Accept',
    })
  })

  it('matches If-None-Match weakly, in lists and with *', () => {
    expect(ifNoneMatchMatches('"k"', '"k"')).toBe(true)
    expect(ifNoneMatchMatches('W/"k"', '"k"')).toBe(true)
    expect(ifNoneMatchMatches('"a", "k"', '"k"')).toBe(true)
    expect(ifNoneMatchMatches('*', '"k"')).toBe(true)
    expect(ifNoneMatchMatches('"a"', '"k"')).toBe(false)
    expect(ifNoneMatchMatches(null, '"k"')).toBe(false)
  })
})
