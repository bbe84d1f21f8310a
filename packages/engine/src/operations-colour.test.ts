// The filters, colour and output operations on real images, checked on their pixels, and a
// transparent source through them. Geometry: operations-geometry.test.ts.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createEngine } from './index.ts'
import {
  BLACK,
  chainRunner,
  expectColour,
  GREEN,
  halfTransparent,
  pixels,
  plain,
  quadrants,
  RED,
  type Rgba,
  WHITE,
} from './test-images.ts'

const engine = createEngine()
const QUADRANTS = await quadrants()
const QUADRANTS_JPEG = await sharp(QUADRANTS).jpeg({ quality: 95 }).toBuffer()
const CYAN: Rgba = [0, 255, 255, 255]
const CLEAR: Rgba = [0, 0, 0, 0]

const { run, image, refusal } = chainRunner(engine, { input: QUADRANTS })

function grey(value: number): Rgba {
  return [value, value, value, 255]
}

describe('filters', () => {
  it('sharpens a soft edge', async () => {
    const sharpHalves = await sharp(await plain(64, 16, BLACK))
      .composite([{ input: await plain(32, 16, WHITE), left: 32, top: 0 }])
      .png()
      .toBuffer()
    // blur() in the same pipeline would run before composite().
    const halves = await sharp(sharpHalves).blur(2).png().toBuffer()
    const before = await pixels(halves)
    const after = await image('t.sharpen(s:2)', halves)
    // The dark side gets darker and the light side lighter near the edge.
    expect(after.at(29, 8)[0]).toBeLessThan(before.at(29, 8)[0] - 2)
    expect(after.at(34, 8)[0]).toBeGreaterThan(before.at(34, 8)[0] + 2)
    expectColour(after.at(2, 8), BLACK)
  })

  it('removes an impulse with the median filter', async () => {
    const speck = await sharp(await plain(9, 9, grey(100)))
      .composite([{ input: await plain(1, 1, WHITE), left: 4, top: 4 }])
      .png()
      .toBuffer()
    expectColour((await image('t.median(s:3)', speck)).at(4, 4), grey(100), 2)
  })

  it('blurs the edges between colours and keeps flat areas', async () => {
    const out = await image('t.blur(s:3)')
    const edge = out.at(31, 12)
    expect(edge[0]).toBeLessThan(250)
    expect(edge[1]).toBeGreaterThan(5)
    expectColour(out.at(4, 4), RED)
  })

  it('multiplies the blur sigma by its dpr parameter', async () => {
    const scaled = await image('t.blur(s:1,dpr:3)')
    const plainSigma = await image('t.blur(s:3)')
    expectColour(scaled.at(31, 12), plainSigma.at(31, 12), 1)
  })
})

describe('colour operations', () => {
  it('flattens transparency onto the background colour', async () => {
    const result = await run('t.flatten(b:00ff00)', await halfTransparent())
    expect((await sharp(result.data).metadata()).hasAlpha).toBe(false)
    const out = await pixels(result.data)
    expectColour(out.at(24, 16), GREEN)
    expectColour(out.at(4, 16), RED)
  })

  it('negates the colours and keeps the transparency', async () => {
    expectColour((await image('t.negate()')).at(4, 4), CYAN)
    const out = await image('t.negate()', await halfTransparent())
    expectColour(out.at(4, 4), CYAN)
    expect(out.at(24, 4)[3]).toBe(0)
  })

  it('stretches a low-contrast image to the full range', async () => {
    const ramp = Buffer.alloc(64 * 3)
    for (let x = 0; x < 64; x++) ramp.fill(100 + Math.round((x * 50) / 63), x * 3, x * 3 + 3)
    const input = await sharp(ramp, { raw: { width: 64, height: 1, channels: 3 } })
      .png()
      .toBuffer()
    const stats = await sharp((await run('t.normalise()', input)).data).stats()
    expect(stats.channels[0]?.min).toBeLessThan(20)
    expect(stats.channels[0]?.max).toBeGreaterThan(235)
  })

  it('applies a × pixel + b', async () => {
    expectColour(
      (await image('t.linear(a:2,b:10)', await plain(4, 4, grey(50)))).at(1, 1),
      grey(110),
      2,
    )
  })

  it('brightens with modulate', async () => {
    const out = await image('t.modulate(b:2,h:0)', await plain(4, 4, grey(60)))
    expect(out.at(1, 1)[0]).toBeGreaterThan(90)
  })

  it('desaturates with modulate', async () => {
    const [r, g, b] = (await image('t.modulate(s:0,h:0)')).at(4, 4)
    expect(Math.abs(r - g)).toBeLessThan(4)
    expect(Math.abs(g - b)).toBeLessThan(4)
  })

  it('rotates the hue with modulate', async () => {
    const [r, g, b] = (await image('t.modulate(h:180)')).at(4, 4)
    expect(Math.max(g, b)).toBeGreaterThan(r)
  })

  it('turns the image grey', async () => {
    const [r, g, b] = (await image('t.grey()')).at(4, 4)
    expect(r).toBe(g)
    expect(g).toBe(b)
    expect(r).toBeGreaterThan(20)
    expect(r).toBeLessThan(200)
  })

  it('turns a transparent image grey and keeps its transparency', async () => {
    const out = await image('t.grey()~t.resize(w:16)', await halfTransparent())
    const [r, g, b, a] = out.at(2, 8)
    expect([r - g, g - b, a]).toEqual([0, 0, 255])
    expect(r).toBeGreaterThan(100)
    expect(out.at(13, 8)[3]).toBe(0)
  })

  it('tints the image with a colour', async () => {
    const [r, , b] = (await image('t.tint(c:ff0000)', await plain(4, 4, grey(128)))).at(1, 1)
    expect(r).toBeGreaterThan(b + 20)
  })
})

describe('output operations', () => {
  it.each([
    ['jpeg', 'jpeg'],
    ['png', 'png'],
    ['webp', 'webp'],
    ['tiff', 'tiff'],
    ['avif', 'heif'],
    ['heif', 'heif'],
  ])('writes f:%s', async (format, decoder) => {
    const result = await run(`t.toFormat(f:${format})`)
    expect(result.format).toBe(format)
    const metadata = await sharp(result.data).metadata()
    expect(metadata.format).toBe(decoder)
    if (format === 'avif') expect(metadata.compression).toBe('av1')
    const out = await pixels(result.data)
    expect([out.width, out.height]).toEqual([64, 48])
    expectColour(out.at(8, 6), RED, 24)
  })

  it('writes f:bmp with its own encoder', async () => {
    const result = await run('t.toFormat(f:bmp)')
    expect(result.contentType).toBe('image/bmp')
    expect(result.data.subarray(0, 2).toString('latin1')).toBe('BM')
    expect(result.data.readInt32LE(18)).toBe(64)
    expect(result.data.readInt32LE(22)).toBe(48)
  })

  it('maps the quality words to qualities', async () => {
    const low = await run('t.toFormat(f:jpeg,q:low)', QUADRANTS_JPEG)
    const best = await run('t.toFormat(f:jpeg,q:best)', QUADRANTS_JPEG)
    expect(low.data.length).toBeLessThan(best.data.length)
  })

  it('writes the density into the metadata', async () => {
    const result = await run('t.density(d:300)')
    expect((await sharp(result.data).metadata()).density).toBe(300)
  })

  it('refuses a density that is not positive', async () => {
    expect((await refusal('t.density(d:0)')).code).toBe('invalid_param')
  })
})

describe('a transparent source', () => {
  it('keeps its transparency through operations', async () => {
    const out = await image('t.resize(w:16)~t.flop()', await halfTransparent())
    expect(out.at(1, 1)[3]).toBe(0)
    expectColour(out.at(14, 1), RED)
  })

  it('keeps the transparency of a grey image through steps on raw pixels', async () => {
    const pixelsGreyAlpha = Buffer.alloc(8 * 8 * 2)
    for (let at = 0; at < 64; at++) pixelsGreyAlpha.set([200, at < 32 ? 255 : 0], at * 2)
    const greyAlpha = await sharp(pixelsGreyAlpha, { raw: { width: 8, height: 8, channels: 2 } })
      .png()
      .toBuffer()
    const out = await image('t.rotate(a:90)~t.extract(l:0,t:0,w:8,h:8)', greyAlpha)
    expect(out.at(6, 2)[3]).toBe(255)
    expect(out.at(1, 2)[3]).toBe(0)
  })

  it('is written with a clear background when nothing flattens it', async () => {
    expectColour((await image('t.flip()', await halfTransparent())).at(30, 4), CLEAR, 0)
  })
})
