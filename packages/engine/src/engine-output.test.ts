// The engine on real images, what it makes: the output format (f_auto, t.toFormat), the output's
// pixels and metadata, animations kept or flattened, and probe. Limits, bad input and refused
// requests: engine-limits.test.ts.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { chooseOutputFormat, createEngine } from './index.ts'
import {
  animatedGif,
  BLUE,
  chain,
  expectColour,
  GREEN,
  HORSE,
  halfTransparent,
  pixels,
  plain,
  quadrants,
  RED,
  WHITE,
} from './test-images.ts'

const engine = createEngine()
const QUADRANTS = await quadrants()
const GIF = await animatedGif()

describe('output format', () => {
  it('keeps the source format', async () => {
    expect(
      (await engine.transform({ input: QUADRANTS, operations: chain('t.flip()') })).format,
    ).toBe('png')
    const jpeg = await sharp(QUADRANTS).jpeg().toBuffer()
    const result = await engine.transform({ input: jpeg, operations: chain('t.flip()') })
    expect(result).toMatchObject({
      format: 'jpeg',
      contentType: 'image/jpeg',
      width: 64,
      height: 48,
    })
  })

  it.each([
    ['image/avif,image/webp,*/*', 'avif'],
    ['image/webp,*/*', 'webp'],
    ['*/*', 'png'],
  ])('picks the format of Accept: %s with f_auto', async (accept, format) => {
    const result = await engine.transform({
      input: QUADRANTS,
      operations: chain('t.resize(w:32)'),
      autoFormat: true,
      accept,
    })
    expect(result.format).toBe(format)
    expect((await pixels(result.data)).width).toBe(32)
  })

  it('answers WebP for f_auto past autoAvifMaxSide on the output, after dpr', async () => {
    const formatOf = async (pattern: string, dpr = 1, options = engine) =>
      (
        await options.transform({
          input: QUADRANTS,
          operations: chain(pattern),
          autoFormat: true,
          accept: 'image/avif,image/webp',
          dpr,
        })
      ).format
    expect(await formatOf('t.resize(w:1200,h:8,f:fill)')).toBe('avif')
    expect(await formatOf('t.resize(w:1201,h:8,f:fill)')).toBe('webp')
    expect(await formatOf('t.resize(w:8,h:601,f:fill)', 2)).toBe('webp')
    expect(await formatOf('t.resize(w:1201,h:8,f:fill)~t.toFormat(f:avif)')).toBe('avif')
    const never = createEngine({ autoAvifMaxSide: 0 })
    expect(await formatOf('t.resize(w:8)', 1, never)).toBe('webp')
    const wide = createEngine({ autoAvifMaxSide: 2000 })
    expect(await formatOf('t.resize(w:1201,h:8,f:fill)', 1, wide)).toBe('avif')
    // What delivery asks before rendering (its cache key) is what the render answers.
    expect(
      engine.chooseOutputFormat({
        sourceFormat: 'png',
        operations: chain('t.resize(w:1201,h:8,f:fill)'),
        autoFormat: true,
        accept: 'image/avif,image/webp',
        outputSize: { width: 1201, height: 8 },
      }),
    ).toBe('webp')
    expect(() => createEngine({ autoAvifMaxSide: -1 })).toThrow(RangeError)
  })

  it('lets t.toFormat win over f_auto', async () => {
    const result = await engine.transform({
      input: QUADRANTS,
      operations: chain('t.toFormat(f:jpeg)'),
      autoFormat: true,
      accept: 'image/avif',
    })
    expect(result.format).toBe('jpeg')
  })

  it('agrees with chooseOutputFormat', () => {
    const request = {
      sourceFormat: 'png',
      operations: chain('t.flip()'),
      autoFormat: true,
      accept: 'image/webp',
    }
    expect(engine.chooseOutputFormat(request)).toBe(chooseOutputFormat(request))
  })

  it('shows transparent areas on white in a JPEG', async () => {
    const result = await engine.transform({
      input: await halfTransparent(),
      operations: chain('t.toFormat(f:jpeg)'),
    })
    const out = await pixels(result.data)
    expectColour(out.at(4, 4), RED, 16)
    expectColour(out.at(28, 4), WHITE, 4)
  })
})

describe('output pixels and metadata', () => {
  it('applies the EXIF orientation', async () => {
    const rotated = await sharp(QUADRANTS).withMetadata({ orientation: 6 }).jpeg().toBuffer()
    const result = await engine.transform({ input: rotated, operations: chain('t.resize(h:32)') })
    expect([result.width, result.height]).toEqual([24, 32])
    const out = await pixels(result.data)
    expectColour(out.at(2, 2), BLUE, 24)
    expectColour(out.at(21, 2), RED, 24)
  })

  it('strips the metadata', async () => {
    const tagged = await sharp(QUADRANTS)
      .withExif({ IFD0: { Copyright: 'SECRET', Artist: 'Someone' } })
      .jpeg()
      .toBuffer()
    expect((await sharp(tagged).metadata()).exif).toBeDefined()
    const result = await engine.transform({ input: tagged, operations: chain('t.flip()') })
    const metadata = await sharp(result.data).metadata()
    expect(metadata.exif).toBeUndefined()
    expect(metadata.icc).toBeUndefined()
  })

  it('converts the colours to sRGB', async () => {
    const wide = await sharp(await plain(8, 8, RED))
      .withIccProfile('p3')
      .png()
      .toBuffer()
    const stored = await sharp(wide, { ignoreIcc: true }).raw().toBuffer()
    expect(stored[0]).toBeLessThan(245)
    const result = await engine.transform({ input: wide, operations: chain('t.flop()') })
    expect((await sharp(result.data).metadata()).hasProfile).toBe(false)
    expectColour((await pixels(result.data)).at(2, 2), RED, 4)
  })

  it('processes a real photograph', async () => {
    const result = await engine.transform({
      input: HORSE,
      operations: chain('t.resize(w:200)~t.flatten(b:ffffff)~t.toFormat(f:webp)'),
    })
    expect(result).toMatchObject({ format: 'webp', width: 200, height: 164 })
    const out = await pixels(result.data)
    expectColour(out.at(2, 2), WHITE, 8)
    expectColour(out.at(100, 80), [0, 0, 0, 255], 24)
  })
})

describe('animations', () => {
  it('keeps an animated GIF animated through a resize', async () => {
    const result = await engine.transform({
      input: GIF,
      operations: chain('t.resize(w:10)~t.flop()'),
    })
    expect(result).toMatchObject({ format: 'gif', width: 10, height: 5 })
    const out = await pixels(result.data)
    expect(out.pages).toBe(3)
    expectColour(out.at(5, 2, 0), RED, 16)
    expectColour(out.at(5, 2, 1), GREEN, 16)
    expectColour(out.at(5, 2, 2), BLUE, 16)
    expect((await sharp(result.data).metadata()).delay).toEqual([100, 200, 300])
  })

  it('keeps the frames through steps that run on raw pixels', async () => {
    const result = await engine.transform({
      input: GIF,
      operations: chain('t.extend(t:2,l:0,b:0,r:0)~t.resize(w:10,h:6)~t.negate()'),
    })
    const out = await pixels(result.data)
    expect([out.width, out.height, out.pages]).toEqual([10, 6, 3])
    expectColour(out.at(5, 4, 1), [255, 0, 255, 255], 16)
    expect((await sharp(result.data).metadata()).delay).toEqual([100, 200, 300])
  })

  it('becomes an animated WebP with f_auto when WebP is accepted', async () => {
    const result = await engine.transform({
      input: GIF,
      operations: chain('t.resize(w:10)'),
      autoFormat: true,
      accept: 'image/avif,image/webp',
    })
    expect(result.format).toBe('webp')
    expect((await pixels(result.data)).pages).toBe(3)
  })

  it('stays a GIF with f_auto when only AVIF is accepted', async () => {
    const result = await engine.transform({
      input: GIF,
      operations: chain('t.resize(w:10)'),
      autoFormat: true,
      accept: 'image/avif',
    })
    expect(result.format).toBe('gif')
  })

  it('keeps every frame through rotate, flip and the neighbourhood filters, frame by frame', async () => {
    for (const pattern of [
      't.rotate(a:90)',
      't.rotate(a:30)~t.resize(w:16)',
      't.flip()~t.blur(s:2)',
      't.sharpen(s:2)~t.median(s:3)',
    ]) {
      const result = await engine.transform({ input: GIF, operations: chain(pattern) })
      expect(result.format, pattern).toBe('gif')
      const out = await pixels(result.data)
      expect(out.pages, pattern).toBe(3)
      // Each frame keeps its own colour: nothing bled across frames.
      const x = Math.floor(out.width / 2)
      const y = Math.floor(out.height / 2)
      expectColour(out.at(x, y, 0), RED, 24)
      expectColour(out.at(x, y, 1), GREEN, 24)
      expectColour(out.at(x, y, 2), BLUE, 24)
      expect((await sharp(result.data).metadata()).delay).toEqual([100, 200, 300])
    }
    const turned = await pixels(
      (await engine.transform({ input: GIF, operations: chain('t.rotate(a:90)') })).data,
    )
    expect([turned.width, turned.height]).toEqual([10, 20])
  })

  it('trims every frame of an animation by the edges of its first', async () => {
    const framed = await sharp(
      Buffer.concat(
        [RED, GREEN, BLUE].map((colour) => {
          const frame = Buffer.alloc(20 * 10 * 3, 255)
          for (let y = 3; y < 7; y++) {
            for (let x = 5; x < 15; x++) frame.set(colour.slice(0, 3), (y * 20 + x) * 3)
          }
          return frame
        }),
      ),
      { raw: { width: 20, height: 30, channels: 3, pageHeight: 10 } },
    )
      .gif({ delay: [100, 100, 100] })
      .toBuffer()
    const result = await engine.transform({ input: framed, operations: chain('t.trim()') })
    const out = await pixels(result.data)
    expect([out.width, out.height, out.pages]).toEqual([10, 4, 3])
    expectColour(out.at(5, 2, 2), BLUE, 24)
  })

  it('renders the first frame into a still format', async () => {
    const result = await engine.transform({ input: GIF, operations: chain('t.toFormat(f:png)') })
    const out = await pixels(result.data)
    expect([out.width, out.height, out.pages]).toEqual([20, 10, 1])
  })
})

describe('probe', () => {
  it('reads the format, size, frames and transparency', async () => {
    expect(await engine.probe(QUADRANTS)).toEqual({
      format: 'png',
      width: 64,
      height: 48,
      pages: 1,
      hasAlpha: false,
      size: QUADRANTS.length,
    })
    expect(await engine.probe(GIF)).toMatchObject({
      format: 'gif',
      width: 20,
      height: 10,
      pages: 3,
    })
    expect(await engine.probe(await halfTransparent())).toMatchObject({ hasAlpha: true })
  })

  it('reports the size as displayed, with the EXIF orientation applied', async () => {
    const rotated = await sharp(QUADRANTS).withMetadata({ orientation: 6 }).jpeg().toBuffer()
    expect(await engine.probe(rotated)).toMatchObject({ format: 'jpeg', width: 48, height: 64 })
  })

  it('names AVIF files avif', async () => {
    const avif = await sharp(QUADRANTS).avif({ effort: 0 }).toBuffer()
    expect(await engine.probe(avif)).toMatchObject({ format: 'avif', width: 64, height: 48 })
  })
})
