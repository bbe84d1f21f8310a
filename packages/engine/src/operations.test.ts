import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createEngine } from './index.ts'
import {
  BLACK,
  BLUE,
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
const MAGENTA: Rgba = [255, 0, 255, 255]
const CYAN: Rgba = [0, 255, 255, 255]
const CLEAR: Rgba = [0, 0, 0, 0]

const { run, image, refusal } = chainRunner(engine, { input: QUADRANTS })

function grey(value: number): Rgba {
  return [value, value, value, 255]
}

describe('t.resize', () => {
  it('resizes to a width and derives the height from the aspect ratio', async () => {
    const out = await image('t.resize(w:32)')
    expect([out.width, out.height]).toEqual([32, 24])
    expectColour(out.at(8, 6), RED)
    expectColour(out.at(24, 6), GREEN)
    expectColour(out.at(8, 18), BLUE)
    expectColour(out.at(24, 18), WHITE)
  })

  it('resizes to a height and derives the width from the aspect ratio', async () => {
    const out = await image('t.resize(h:12)')
    expect([out.width, out.height]).toEqual([16, 12])
  })

  it('leaves the image alone when neither width nor height is given', async () => {
    const out = await image('t.resize()')
    expect([out.width, out.height]).toEqual([64, 48])
  })

  it.each([
    ['cover', 32, 32],
    ['contain', 32, 32],
    ['fill', 32, 32],
    ['inside', 32, 24],
    ['outside', 43, 32],
  ])('fits the image with f:%s into 32×32 as %i×%i', async (fit, width, height) => {
    const out = await image(`t.resize(w:32,h:32,f:${fit})`)
    expect([out.width, out.height]).toEqual([width, height])
  })

  it('fills the bands of a contain resize with the background colour', async () => {
    const out = await image('t.resize(w:32,h:32,f:contain,b:ff00ff)')
    expectColour(out.at(16, 1), MAGENTA)
    expectColour(out.at(8, 10), RED)
    expectColour(out.at(16, 30), MAGENTA)
  })

  it('fills the bands with transparency when the background colour has alpha', async () => {
    const out = await image('t.resize(w:32,h:32,f:contain,b:00000000)')
    expect(out.at(16, 1)[3]).toBe(0)
    expectColour(out.at(8, 10), RED)
  })

  it.each([
    ['left', 24, 48, 2, 12, RED],
    ['right', 24, 48, 21, 12, GREEN],
    ['center', 24, 48, 2, 12, RED],
    ['left_top', 24, 48, 21, 36, BLUE],
    ['right_top', 24, 48, 2, 36, WHITE],
    ['top', 64, 20, 16, 18, RED],
    ['bottom', 64, 20, 16, 1, BLUE],
    ['left_bottom', 64, 20, 48, 1, WHITE],
    ['right_bottom', 64, 20, 16, 18, BLUE],
  ] as const)(
    'keeps the %s part when cover crops to %i×%i',
    async (position, w, h, x, y, colour) => {
      const out = await image(`t.resize(w:${w},h:${h},p:${position})`)
      expect([out.width, out.height]).toEqual([w, h])
      expectColour(out.at(x, y), colour)
    },
  )

  it.each(['nearest', 'cubic', 'mitchell', 'lanczos2', 'lanczos3'])(
    'resizes with the %s kernel',
    async (kernel) => {
      const out = await image(`t.resize(w:16,k:${kernel})`)
      expect([out.width, out.height]).toEqual([16, 12])
      expectColour(out.at(3, 3), RED)
      expectColour(out.at(12, 9), WHITE)
    },
  )

  it('multiplies the size by its dpr parameter', async () => {
    const out = await image('t.resize(w:16,dpr:2)')
    expect([out.width, out.height]).toEqual([32, 24])
  })

  it('multiplies the size by the request dpr, on top of its own', async () => {
    expect((await image('t.resize(w:16)', QUADRANTS, 2)).width).toBe(32)
    expect((await image('t.resize(w:8,dpr:2)', QUADRANTS, 2)).width).toBe(32)
  })
})

describe('t.compress', () => {
  it('sets the quality of a lossy output', async () => {
    const low = await run('t.compress(q:5)', QUADRANTS_JPEG)
    const high = await run('t.compress(q:100)', QUADRANTS_JPEG)
    expect(low.format).toBe('jpeg')
    expect(low.data.length).toBeLessThan(high.data.length)
    const out = await pixels(low.data)
    expect([out.width, out.height]).toEqual([64, 48])
    expectColour(out.at(8, 6), RED, 40)
  })

  it('quantises a PNG to a palette', async () => {
    const result = await run('t.compress(q:50)')
    expect(result.format).toBe('png')
    expect((await sharp(result.data).metadata()).isPalette).toBe(true)
    expectColour((await pixels(result.data)).at(8, 6), RED)
  })
})

describe('t.extend', () => {
  it('adds 10 pixels of black on every side by default', async () => {
    const out = await image('t.extend()')
    expect([out.width, out.height]).toEqual([84, 68])
    expectColour(out.at(0, 0), BLACK)
    expectColour(out.at(12, 12), RED)
  })

  it('pads each side by its own amount with the background colour', async () => {
    const out = await image('t.extend(t:1,l:2,b:3,r:4,bc:00ffff)')
    expect([out.width, out.height]).toEqual([70, 52])
    expectColour(out.at(1, 10), CYAN)
    expectColour(out.at(2, 1), RED)
    expectColour(out.at(69, 51), CYAN)
  })

  it('pads with transparency when the colour has alpha', async () => {
    const out = await image('t.extend(bc:00000000)')
    expect(out.at(0, 0)[3]).toBe(0)
    expectColour(out.at(12, 12), RED)
  })

  it('repeats the edge pixels with bt:replicate', async () => {
    const out = await image('t.extend(bt:replicate)')
    expectColour(out.at(0, 0), RED)
    expectColour(out.at(83, 0), GREEN)
    expectColour(out.at(83, 67), WHITE)
  })

  it('mirrors the image with bt:reflect', async () => {
    const out = await image('t.extend(bt:reflect)')
    expectColour(out.at(0, 0), RED)
    expectColour(out.at(83, 67), WHITE)
  })

  it('tiles the image with bt:wrap', async () => {
    const out = await image('t.extend(bt:wrap)')
    // Above-left of the corner comes the opposite corner: white; above-right, the blue one.
    expectColour(out.at(0, 0), WHITE)
    expectColour(out.at(83, 0), BLUE)
  })

  it('multiplies the borders by its dpr parameter and the request dpr', async () => {
    expect((await image('t.extend(t:5,l:0,b:0,r:0,dpr:2)')).height).toBe(58)
    expect((await image('t.extend(t:5,l:0,b:0,r:0)', QUADRANTS, 3)).height).toBe(63)
  })
})

describe('t.extract', () => {
  it('extracts the region at left, top of width × height', async () => {
    const out = await image('t.extract(l:32,t:0,w:32,h:24)')
    expect([out.width, out.height]).toEqual([32, 24])
    expectColour(out.at(0, 0), GREEN)
    expectColour(out.at(31, 23), GREEN)
  })

  it('reads bbox as left_top_width_height', async () => {
    const out = await image('t.extract(bbox:32_24_32_24)')
    expect([out.width, out.height]).toEqual([32, 24])
    expectColour(out.at(0, 0), WHITE)
  })

  it('clamps a region that reaches past the edges', async () => {
    const out = await image('t.extract(l:48,t:36,w:100,h:100)')
    expect([out.width, out.height]).toEqual([16, 12])
    expectColour(out.at(8, 6), WHITE)
  })

  it('refuses a region entirely outside the image', async () => {
    const error = await refusal('t.extract(l:100,t:100,w:10,h:10)')
    expect(error.code).toBe('invalid_region')
    expect(error.isClientError).toBe(true)
  })

  it('refuses a region without width', async () => {
    expect((await refusal('t.extract(l:1,t:1,w:0,h:10)')).code).toBe('invalid_region')
  })
})

describe('t.trim', () => {
  it('trims the edges of the top-left colour', async () => {
    const framed = await sharp(await plain(40, 30, WHITE))
      .composite([{ input: await plain(10, 8, RED), left: 12, top: 9 }])
      .png()
      .toBuffer()
    const out = await image('t.trim()', framed)
    expect([out.width, out.height]).toEqual([10, 8])
    expectColour(out.at(5, 4), RED)
  })

  it('keeps an image with no boring edges', async () => {
    const out = await image('t.trim(t:5)')
    expect([out.width, out.height]).toEqual([64, 48])
  })
})

describe('t.rotate', () => {
  it('rotates by 90 degrees clockwise', async () => {
    const out = await image('t.rotate(a:90)')
    expect([out.width, out.height]).toEqual([48, 64])
    expectColour(out.at(0, 0), BLUE)
    expectColour(out.at(47, 0), RED)
  })

  it('rotates by -90 degrees counter-clockwise', async () => {
    const out = await image('t.rotate(a:-90)')
    expect([out.width, out.height]).toEqual([48, 64])
    expectColour(out.at(0, 0), GREEN)
  })

  it('turns the image upside down at 180 degrees', async () => {
    const out = await image('t.rotate(a:180)')
    expect([out.width, out.height]).toEqual([64, 48])
    expectColour(out.at(0, 0), WHITE)
  })

  it('rotates by any angle, filling the corners with the background colour', async () => {
    const out = await image('t.rotate(a:45,b:00ff00)')
    expect(out.width).toBeGreaterThan(70)
    expect(out.height).toBeGreaterThan(70)
    expectColour(out.at(0, 0), GREEN)
    expectColour(out.at(1, out.height - 2), GREEN)
  })

  it('does nothing at 0 or 360 degrees', async () => {
    expectColour((await image('t.rotate(a:360)')).at(0, 0), RED)
    expect((await image('t.rotate()')).width).toBe(64)
  })
})

describe('t.flip and t.flop', () => {
  it('flips the image vertically', async () => {
    const out = await image('t.flip()')
    expectColour(out.at(0, 0), BLUE)
    expectColour(out.at(63, 47), GREEN)
  })

  it('flops the image horizontally', async () => {
    const out = await image('t.flop()')
    expectColour(out.at(0, 0), GREEN)
    expectColour(out.at(63, 47), BLUE)
  })
})

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
