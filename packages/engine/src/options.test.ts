import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { EngineError, MESSAGES, toEngineError } from './errors.ts'
import { DEFAULT_OPTIONS, resolveOptions } from './options.ts'

describe('resolveOptions', () => {
  it('has the documented defaults', () => {
    expect(resolveOptions()).toEqual({
      maxInputPixels: 50_000_000,
      maxOutputDimension: 10_000,
      maxInputBytes: 50 * 1024 * 1024,
      timeoutMs: 30_000,
      concurrency: availableParallelism(),
      avifEffort: 2,
      maxSvgElements: 20_000,
      maxSvgPixels: 25_000_000,
      maxOutputBytes: 32 * 1024 * 1024,
      cacheMemoryMb: 32,
      cacheItems: 5,
      maxPdfPages: 2000,
      decodedCacheMb: 64,
      autoAvifMaxSide: 1200,
    })
    expect(resolveOptions()).toEqual(DEFAULT_OPTIONS)
  })

  it('merges the given options over the defaults', () => {
    expect(resolveOptions({ timeoutMs: 5 })).toMatchObject({
      timeoutMs: 5,
      maxOutputDimension: 10_000,
    })
  })

  it.each([
    { maxInputPixels: 0 },
    { timeoutMs: 1.5 },
    { concurrency: -1 },
    { avifEffort: 10 },
    { maxOutputDimension: Number.NaN },
    { decodedCacheMb: -1 },
  ])('refuses %j', (options) => {
    expect(() => resolveOptions(options)).toThrow(RangeError)
  })
})

describe('toEngineError', () => {
  it.each([
    ['Input image exceeds pixel limit', 'too_many_pixels'],
    ['timeout: 30% complete', 'timeout'],
    ['VipsJpeg: premature end of JPEG image', 'invalid_image'],
    ['pngload_buffer: libspng read error', 'invalid_image'],
    ['Input buffer contains unsupported image format', 'invalid_image'],
    ['Expected positive integer for width but received -1', 'operation_failed'],
  ])('reads %j as %s, keeping the cause', (message, code) => {
    const cause = new Error(message)
    const error = toEngineError(cause, 1000)
    expect(error).toBeInstanceOf(EngineError)
    expect(error.code).toBe(code)
    expect(error.cause).toBe(cause)
  })

  it('leaves an EngineError as it is', () => {
    const error = new EngineError('missing_file', MESSAGES.missingFile('x'))
    expect(toEngineError(error, 1000)).toBe(error)
  })
})
