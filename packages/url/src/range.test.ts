import { describe, expect, it } from 'vitest'
import { parseRange } from './range.ts'

describe('parseRange', () => {
  it.each<[string, number, ReturnType<typeof parseRange>]>([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=50-500', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=5-1', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-1,5-6', 100, undefined],
    ['items=0-1', 100, undefined],
    ['bytes=-', 100, undefined],
  ])('reads %s of a %d-byte file', (header, size, range) => {
    expect(parseRange(header, size)).toEqual(range)
  })
})
