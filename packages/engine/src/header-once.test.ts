// The header of an input is read once per Buffer (issue 25): renders of one original in memory
// skip sharp's separate `metadata()` read after the first, and answer the very bytes a fresh read
// gives; what the header check refuses is refused every time.
import sharp from 'sharp'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEngine, EngineError } from './index.ts'
import { chain, HORSE } from './test-images.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

const PATTERNS = ['t.resize(w:120)', 't.resize(w:77)~t.toFormat(f:webp)', 't.flip()~t.resize(h:50)']

describe('the header of an input', () => {
  it('is read once per Buffer, and the renders are those of a first read', async () => {
    const engine = createEngine()
    const metadata = vi.spyOn(sharp.prototype, 'metadata')
    const input = Buffer.from(HORSE)
    const outputs = []
    for (const pattern of PATTERNS) {
      outputs.push(await engine.transform({ input, operations: chain(pattern) }))
    }
    expect(metadata).toHaveBeenCalledTimes(1)

    // Each against a new engine given a copy of the bytes (its header read afresh).
    for (const [index, pattern] of PATTERNS.entries()) {
      const fresh = await createEngine().transform({
        input: Buffer.from(HORSE),
        operations: chain(pattern),
      })
      const output = outputs[index]
      expect(output?.data.equals(fresh.data)).toBe(true)
      expect({ ...output, data: undefined }).toEqual({ ...fresh, data: undefined })
    }
    expect(metadata).toHaveBeenCalledTimes(1 + PATTERNS.length)

    // Another Buffer with the same bytes is another input: read again.
    await engine.transform({ input: Buffer.from(HORSE), operations: chain('t.resize(w:10)') })
    expect(metadata).toHaveBeenCalledTimes(2 + PATTERNS.length)
  })

  it('refuses an input over the pixel limit on every render, not only the first', async () => {
    const engine = createEngine({ maxInputPixels: 1000 })
    const input = Buffer.from(HORSE)
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await engine.transform({ input, operations: chain('t.resize(w:10)') }).then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(EngineError)
      expect((error as EngineError).code).toBe('too_many_pixels')
    }
  })
})
