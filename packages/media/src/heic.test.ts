import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { createHeicDecoder, createTestHeic, HeicError, isHeic } from './index.ts'

function solid(width: number, height: number, colour: readonly number[]) {
  const data = new Uint8Array(width * height * 3)
  for (let i = 0; i < width * height; i++) data.set(colour, i * 3)
  return { data, width, height }
}

function expectColour(actual: ArrayLike<number>, expected: readonly number[], tolerance = 8) {
  for (const [index, value] of expected.entries()) {
    expect(Math.abs((actual[index] ?? -99) - value)).toBeLessThanOrEqual(tolerance)
  }
}

describe('HEIC through libheif', () => {
  const heic = createHeicDecoder({ maxPixels: 1_000_000, timeoutMs: 20_000 })
  afterAll(() => heic.close())

  it('decodes a real HEIC (HEVC made by ffmpeg) to its pixels, opaque as RGB', async () => {
    const file = await createTestHeic(solid(64, 48, [200, 60, 30]))
    expect(file.toString('latin1', 4, 12)).toBe('ftypheic')
    expect(isHeic(file)).toBe(true)
    expect(await heic.size(file)).toEqual({ width: 64, height: 48 })
    const pixels = await heic.decode(file)
    expect([pixels.width, pixels.height, pixels.channels]).toEqual([64, 48, 3])
    expectColour(pixels.data.subarray(0, 3), [200, 60, 30])
  })

  it('tells HEIC from AVIF, which sharp reads', async () => {
    const avif = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#123456' },
    })
      .avif()
      .toBuffer()
    expect(isHeic(avif)).toBe(false)
    expect(isHeic(Buffer.from('not an image at all'))).toBe(false)
  })

  it('refuses an image over the pixel limit from its header, before decoding', async () => {
    const file = await createTestHeic(solid(1200, 1000, [10, 10, 10]))
    const error = await heic.decode(file).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(HeicError)
    expect((error as HeicError).code).toBe('too_many_pixels')
  })

  it('refuses truncated and corrupt files, and keeps decoding', async () => {
    const file = await createTestHeic(solid(32, 32, [0, 120, 240]))
    for (const broken of [
      file.subarray(0, 40),
      Buffer.concat([file.subarray(0, 24), Buffer.alloc(300, 9)]),
    ]) {
      const error = await heic.decode(broken).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(HeicError)
      expect((error as HeicError).code).toBe('invalid_image')
    }
    const pixels = await heic.decode(file)
    expectColour(pixels.data.subarray(0, 3), [0, 120, 240])
  })
})
