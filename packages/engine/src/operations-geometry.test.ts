// The geometry operations on real images, checked on their pixels: t.resize, t.compress,
// t.extend, t.extract, t.trim, t.rotate, t.flip and t.flop. Filters, colours, output operations
// and transparency: operations-colour.test.ts.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createEngine } from './index.ts'
import {
  BLACK,
  BLUE,
  chainRunner,
  expectColour,
  GREEN,
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

const { run, image, refusal } = chainRunner(engine, { input: QUADRANTS })

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
