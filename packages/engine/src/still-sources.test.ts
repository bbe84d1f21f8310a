// HEIC/HEIF, BMP and TIFF sources: decoded (HEIC by libheif, BMP by the engine, TIFF by sharp)
// and transformed like any image, answered in a format browsers show.
import { createTestHeic, createTestPdf } from '@tessera/media'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { encodeBmp } from './bmp.ts'
import { decodeBmp } from './bmp-decode.ts'
import { createEngine } from './engine.ts'
import { EngineError } from './errors.ts'

const chain = (pattern: string) => parsePattern(pattern).value
const CORAL = [230, 90, 60] as const

function solid(width: number, height: number, colour: readonly number[], channels = 3) {
  const data = Buffer.alloc(width * height * channels)
  for (let i = 0; i < width * height; i++) data.set(colour, i * channels)
  return { data, width, height }
}

async function centre(image: Buffer): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true })
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels
  return [...data.subarray(at, at + info.channels)]
}

function expectColour(actual: number[], expected: readonly number[], tolerance = 8) {
  for (const [index, value] of expected.entries()) {
    expect(Math.abs((actual[index] ?? -99) - value)).toBeLessThanOrEqual(tolerance)
  }
}

async function codeOf(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(EngineError)
  return (error as EngineError).code
}

describe('HEIC sources', () => {
  const engine = createEngine({ concurrency: 1, maxInputPixels: 1_000_000 })
  afterAll(() => engine.close())
  const heic = createTestHeic(solid(80, 60, CORAL))

  it('probes a HEIC', async () => {
    expect(await engine.probe(await heic)).toMatchObject({
      format: 'heic',
      width: 80,
      height: 60,
      pages: 1,
      hasAlpha: false,
    })
  })

  it('answers a HEIC in JPEG (opaque) with no steps, or WebP/AVIF under f_auto', async () => {
    const plain = await engine.transform({ input: await heic, operations: [] })
    expect(plain.format).toBe('jpeg')
    expect(await sharp(plain.data).metadata()).toMatchObject({
      format: 'jpeg',
      width: 80,
      height: 60,
    })
    expectColour(await centre(plain.data), CORAL)
    const auto = await engine.transform({
      input: await heic,
      operations: [],
      autoFormat: true,
      accept: 'image/avif,image/webp,*/*',
    })
    expect(auto.format).toBe('avif')
  })

  it('transforms a HEIC like any image', async () => {
    const result = await engine.transform({
      input: await heic,
      operations: chain('t.resize(w:40)~t.flip()~t.toFormat(f:png)'),
    })
    expect(await sharp(result.data).metadata()).toMatchObject({
      format: 'png',
      width: 40,
      height: 30,
    })
    expectColour(await centre(result.data), CORAL)
  })

  it('decodes a HEIC outside the pipeline slots: a PNG asked meanwhile does not wait for it', async () => {
    const data = Buffer.alloc(1008 * 756 * 3)
    for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff
    const large = await createTestHeic({ data, width: 1008, height: 756 })
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#0af' } })
      .png()
      .toBuffer()
    const finished: string[] = []
    const heicJob = engine
      .transform({ input: large, operations: [] })
      .then(() => finished.push('heic'))
    // Once the HEIC job has started (its decode is under way), the one slot is free again.
    await new Promise((resolve) => setTimeout(resolve, 50))
    await engine
      .transform({ input: png, operations: chain('t.resize(w:10)') })
      .then(() => finished.push('png'))
    await heicJob
    expect(finished).toEqual(['png', 'heic'])
  })

  it('refuses a HEIC over the pixel limit, and a corrupt one', async () => {
    const large = await createTestHeic(solid(1200, 1000, CORAL))
    expect(await codeOf(engine.transform({ input: large, operations: [] }))).toBe('too_many_pixels')
    const corrupt = Buffer.concat([(await heic).subarray(0, 30), Buffer.alloc(200, 3)])
    expect(await codeOf(engine.probe(corrupt))).toBe('invalid_image')
  })
})

describe('BMP sources', () => {
  const engine = createEngine({ concurrency: 1, maxInputPixels: 1_000_000 })

  it('decodes 24-bit, 32-bit with alpha, 8-bit palette and 16-bit BMPs', () => {
    const rgb = decodeBmp(encodeBmp({ ...solid(5, 3, CORAL), channels: 3, pages: 1 }), 1e6)
    expect([rgb.width, rgb.height, rgb.channels]).toEqual([5, 3, 3])
    expect([...rgb.data.subarray(0, 3)]).toEqual([...CORAL])
    const rgba = decodeBmp(
      encodeBmp({ ...solid(2, 2, [10, 20, 30, 128], 4), channels: 4, pages: 1 }),
      1e6,
    )
    expect([...rgba.data.subarray(0, 4)]).toEqual([10, 20, 30, 128])
    // 2×1, 8-bit: palette blue (index 0) and white (index 1), bottom-up.
    const palette = Buffer.alloc(54 + 8 + 4)
    palette.write('BM', 0, 'latin1')
    palette.writeUInt32LE(palette.length, 2)
    palette.writeUInt32LE(62, 10)
    palette.writeUInt32LE(40, 14)
    palette.writeInt32LE(2, 18)
    palette.writeInt32LE(1, 22)
    palette.writeUInt16LE(1, 26)
    palette.writeUInt16LE(8, 28)
    palette.writeUInt32LE(2, 46)
    palette.set([255, 0, 0, 0, 255, 255, 255, 0], 54)
    palette.set([0, 1, 0, 0], 62)
    const indexed = decodeBmp(palette, 1e6)
    expect([...indexed.data]).toEqual([0, 0, 255, 255, 255, 255])
    // 1×1, 16-bit 5-5-5: pure red is 0x7c00.
    const five = Buffer.alloc(54 + 4)
    five.write('BM', 0, 'latin1')
    five.writeUInt32LE(54, 10)
    five.writeUInt32LE(40, 14)
    five.writeInt32LE(1, 18)
    five.writeInt32LE(1, 22)
    five.writeUInt16LE(16, 28)
    five.writeUInt16LE(0x7c00, 54)
    expect([...decodeBmp(five, 1e6).data]).toEqual([255, 0, 0])
  })

  it('transforms a BMP like any image and answers BMP, or WebP under f_auto', async () => {
    const bmp = encodeBmp({ ...solid(60, 40, CORAL), channels: 3, pages: 1 })
    expect(await engine.probe(bmp)).toMatchObject({ format: 'bmp', width: 60, height: 40 })
    const resized = await engine.transform({ input: bmp, operations: chain('t.resize(w:30)') })
    expect(resized.format).toBe('bmp')
    const back = decodeBmp(resized.data, 1e6)
    expect([back.width, back.height]).toEqual([30, 20])
    expectColour([...back.data.subarray(0, 3)], CORAL, 2)
    const auto = await engine.transform({
      input: bmp,
      operations: [],
      autoFormat: true,
      accept: 'image/webp,*/*',
    })
    expect(auto.format).toBe('webp')
  })

  it('refuses a huge BMP from its header and a truncated one', async () => {
    const huge = encodeBmp({ ...solid(2, 2, CORAL), channels: 3, pages: 1 })
    huge.writeInt32LE(100_000, 18)
    huge.writeInt32LE(100_000, 22)
    expect(await codeOf(engine.probe(huge))).toBe('too_many_pixels')
    const bmp = encodeBmp({ ...solid(60, 40, CORAL), channels: 3, pages: 1 })
    expect(await codeOf(engine.probe(bmp.subarray(0, 500)))).toBe('invalid_image')
  })
})

describe('TIFF sources', () => {
  const engine = createEngine({ concurrency: 1 })

  it('transforms a TIFF like any image and answers JPEG or PNG, TIFF only when asked', async () => {
    const tiff = await sharp(solid(50, 30, CORAL).data, {
      raw: { width: 50, height: 30, channels: 3 },
    })
      .tiff()
      .toBuffer()
    expect(await engine.probe(tiff)).toMatchObject({ format: 'tiff', width: 50, height: 30 })
    const resized = await engine.transform({ input: tiff, operations: chain('t.resize(w:25)') })
    expect(resized.format).toBe('jpeg')
    expect(await sharp(resized.data).metadata()).toMatchObject({ width: 25, height: 15 })
    expectColour(await centre(resized.data), CORAL)
    const kept = await engine.transform({ input: tiff, operations: chain('t.toFormat(f:tiff)') })
    expect((await sharp(kept.data).metadata()).format).toBe('tiff')
  })
})

describe('merged files beyond sharp', () => {
  const engine = createEngine({ concurrency: 1 })
  afterAll(() => engine.close())

  it('merges a PDF (its page 1), a HEIC and a BMP over an image', async () => {
    const base = await sharp({
      create: { width: 200, height: 200, channels: 3, background: '#fff' },
    })
      .png()
      .toBuffer()
    const files: Record<string, Buffer> = {
      doc: await createTestPdf([{ width: 24, height: 24, colour: [20, 160, 60] }]),
      photo: await createTestHeic(solid(48, 48, CORAL)),
      icon: encodeBmp({ ...solid(50, 50, [40, 40, 200]), channels: 3, pages: 1 }),
    }
    const expected: Record<string, readonly number[]> = {
      doc: [20, 160, 60],
      photo: CORAL,
      icon: [40, 40, 200],
    }
    for (const [id, colour] of Object.entries(expected)) {
      const result = await engine.transform({
        input: base,
        operations: chain(`t.merge(i:${id})~t.toFormat(f:png)`),
        loadFile: async (fileId) => files[fileId],
      })
      expectColour(await centre(result.data), colour, 10)
    }
  })
})
