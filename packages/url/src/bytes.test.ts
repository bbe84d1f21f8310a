import { describe, expect, it } from 'vitest'
import { bytesToMb, formatBytes } from './bytes.ts'
import { IllegalArgumentError } from './errors.ts'

describe('formatBytes', () => {
  it.each<[number, number | undefined, string]>([
    [0, undefined, '0 Bytes'],
    [1, undefined, '1 Bytes'],
    [1023, undefined, '1023 Bytes'],
    [1024, undefined, '1 KB'],
    [1536, undefined, '1.5 KB'],
    [1048576, undefined, '1 MB'],
    [1234567, undefined, '1.18 MB'],
    [1234567, 0, '1 MB'],
    [1234567, 4, '1.1774 MB'],
    [1024 ** 3 * 2.5, undefined, '2.5 GB'],
    [1024 ** 8, undefined, '1 YB'],
    [1024 ** 9, undefined, '1024 YB'],
    [-2048, undefined, '-2 KB'],
    [0.5, undefined, '0.5 Bytes'],
  ])('formats %d bytes with %s decimals as %s', (bytes, decimals, text) => {
    expect(formatBytes(bytes, decimals)).toBe(text)
  })

  it.each([[Number.NaN], [Number.POSITIVE_INFINITY], ['12' as unknown as number]])(
    'refuses %j',
    (bytes) => {
      expect(() => formatBytes(bytes)).toThrowError(IllegalArgumentError)
    },
  )
})

describe('bytesToMb', () => {
  it('divides by 1048576', () => {
    expect(bytesToMb(1048576)).toBe(1)
    expect(bytesToMb(524288)).toBe(0.5)
  })
})
