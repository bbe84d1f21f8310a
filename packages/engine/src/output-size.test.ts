// Issue 19 finding 13: a result whose format decides its size (BMP, TIFF) is refused before it
// is rendered when it would pass the output byte limit; smaller ones and compressed formats of
// the same size are made as before.
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createEngine } from './engine.ts'
import { worstOutputBytes } from './output-size.ts'

const input = await sharp({
  create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } },
})
  .png()
  .toBuffer()
const chain = (pattern: string) => parsePattern(pattern).value

describe('the output byte limit', () => {
  it('knows a BMP’s size exactly', async () => {
    const engine = createEngine()
    const result = await engine.transform({ input, operations: chain('t.toFormat(f:bmp)') })
    // The estimate takes the larger header; the opaque BMP uses the smaller one (68 bytes less).
    expect(worstOutputBytes('bmp', { width: 64, height: 48, pages: 1, alpha: false })).toBe(
      result.data.length + 68,
    )
  })

  it('refuses a 300 MB BMP before rendering it, and makes the same size as WebP', async () => {
    const engine = createEngine()
    await expect(
      engine.transform({ input, operations: chain('t.resize(w:10000,h:10000)~t.toFormat(f:bmp)') }),
    ).rejects.toMatchObject({
      code: 'output_too_large',
      message: expect.stringMatching(/as bmp; the limit is 33554432 bytes/),
    })
    await expect(
      engine.transform({ input, operations: chain('t.resize(w:5000,h:5000)~t.toFormat(f:tiff)') }),
    ).rejects.toMatchObject({ code: 'output_too_large' })
    const webp = await engine.transform({
      input,
      operations: chain('t.resize(w:4000,h:4000)~t.toFormat(f:webp)'),
    })
    expect(webp.width).toBe(4000)
  })

  it('makes a BMP at the limit and refuses one byte more', async () => {
    const bytes = worstOutputBytes('bmp', { width: 100, height: 100, pages: 1, alpha: false }) ?? 0
    const atLimit = createEngine({ maxOutputBytes: bytes })
    const pattern = chain('t.resize(w:100,h:100)~t.toFormat(f:bmp)')
    expect((await atLimit.transform({ input, operations: pattern })).width).toBe(100)
    const under = createEngine({ maxOutputBytes: bytes - 1 })
    await expect(under.transform({ input, operations: pattern })).rejects.toMatchObject({
      code: 'output_too_large',
    })
  })
})
