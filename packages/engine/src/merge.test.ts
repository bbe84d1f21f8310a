import { describe, expect, it } from 'vitest'
import { createEngine } from './index.ts'
import {
  BLACK,
  BLUE,
  chain,
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

const QUADRANTS = await quadrants()
const LOGO = await plain(8, 8, BLUE)
const MAGENTA: Rgba = [255, 0, 255, 255]
const FILES: Record<string, Buffer> = { logo: LOGO }
const engine = createEngine()

function base64(pattern: string): string {
  return Buffer.from(pattern).toString('base64url')
}

const { run, image, refusal } = chainRunner(engine, { input: QUADRANTS, files: FILES })

describe('t.merge with a colour canvas', () => {
  it('draws a w×h canvas of the bg colour at the gravity', async () => {
    const out = await image('t.merge(bg:ff00ffff,w:10,h:10,g:northwest)')
    expect([out.width, out.height]).toEqual([64, 48])
    expectColour(out.at(2, 2), MAGENTA)
    expectColour(out.at(20, 2), RED)
  })

  it.each([
    ['northwest', 1, 1],
    ['north', 32, 1],
    ['northeast', 62, 1],
    ['west', 1, 24],
    ['center', 32, 24],
    ['east', 62, 24],
    ['southwest', 1, 46],
    ['south', 32, 46],
    ['southeast', 62, 46],
  ])('places the canvas at g:%s', async (gravity, x, y) => {
    const out = await image(`t.merge(bg:ff00ffff,w:8,h:8,g:${gravity})`)
    expectColour(out.at(x, y), MAGENTA)
  })

  it('places the canvas at l, t with g:custom', async () => {
    const out = await image('t.merge(bg:ff00ffff,w:8,h:8,t:5,l:40,g:custom)')
    expectColour(out.at(41, 6), MAGENTA)
    expectColour(out.at(39, 6), GREEN)
  })

  it('changes nothing with the default transparent canvas', async () => {
    const out = await image('t.merge()')
    expectColour(out.at(2, 2), RED)
    expectColour(out.at(62, 46), WHITE)
  })

  it('clips a canvas larger than the image', async () => {
    const out = await image('t.merge(bg:ff00ffff,w:100,h:100)')
    expect([out.width, out.height]).toEqual([64, 48])
    expectColour(out.at(0, 0), MAGENTA)
  })

  it('blends with the b mode', async () => {
    const out = await image('t.merge(bg:ff0000ff,b:multiply)')
    expectColour(out.at(8, 6), RED)
    expectColour(out.at(40, 6), BLACK)
    expectColour(out.at(40, 30), RED)
  })

  it('accepts the British spelling of the dodge and burn blends', async () => {
    expect((await run('t.merge(bg:808080ff,b:colour-dodge)')).width).toBe(64)
    expect((await run('t.merge(bg:808080ff,b:colour-burn)')).width).toBe(64)
  })

  it('draws under the image with m:underlay', async () => {
    const out = await image('t.merge(m:underlay,bg:00ff00ff)', await halfTransparent())
    expectColour(out.at(4, 4), RED)
    expectColour(out.at(28, 4), GREEN)
  })

  it('repeats the canvas over the image with r:true', async () => {
    const out = await image('t.merge(bg:ff00ffff,w:4,h:4,r:true)')
    expectColour(out.at(1, 1), MAGENTA)
    expectColour(out.at(62, 46), MAGENTA)
  })

  it('draws only inside bboxes', async () => {
    const out = await image('t.merge(bg:ff00ffff,bboxes:[[0_0_10_10]_[40_30_10_10]])')
    expectColour(out.at(5, 5), MAGENTA)
    expectColour(out.at(45, 35), MAGENTA)
    expectColour(out.at(20, 20), RED)
    expectColour(out.at(45, 5), GREEN)
  })

  it('draws only inside polygons', async () => {
    const out = await image('t.merge(bg:ff00ffff,polys:[[[0_0]_[20_0]_[0_20]]])')
    expectColour(out.at(2, 2), MAGENTA)
    expectColour(out.at(18, 18), RED)
  })

  it('refuses a canvas over the size limit before drawing it', async () => {
    const error = await refusal('t.merge(bg:ff00ffff,w:12000,h:10)')
    expect(error.code).toBe('output_too_large')
  })
})

describe('t.merge with another file', () => {
  it('draws the file at the gravity', async () => {
    const out = await image('t.merge(i:logo,g:northeast)')
    expectColour(out.at(60, 3), BLUE)
    expectColour(out.at(50, 3), GREEN)
  })

  it('resizes the file to w and h', async () => {
    const out = await image('t.merge(i:logo,w:16,g:northwest)')
    expectColour(out.at(14, 14), BLUE)
    expectColour(out.at(18, 18), RED)
  })

  it('applies the tr transformation (base64) to the file first', async () => {
    const out = await image(`t.merge(i:logo,g:northwest,tr:${base64('t.resize(w:4)')})`)
    expectColour(out.at(2, 2), BLUE)
    expectColour(out.at(6, 6), RED)
  })

  it('accepts a tr transformation written as a plain pattern', async () => {
    const [operation] = chain('t.merge(i:logo,g:northwest)')
    if (operation === undefined) throw new Error('no operation')
    const result = await engine.transform({
      input: QUADRANTS,
      operations: [{ ...operation, params: { ...operation.params, tr: 't.resize(w:4)' } }],
      loadFile: async (id) => FILES[id],
    })
    expectColour((await pixels(result.data)).at(6, 6), RED)
  })

  it('grows the canvas to hold both images with m:wrap', async () => {
    const out = await image('t.merge(m:wrap,i:logo,g:custom,l:60,t:44)')
    expect([out.width, out.height]).toEqual([68, 52])
    expectColour(out.at(66, 50), BLUE)
    expect(out.at(66, 2)[3]).toBe(0)
    expectColour(out.at(2, 2), RED)
  })

  it('runs a merge inside the tr of a merge', async () => {
    const inner = base64('t.merge(bg:ff0000ff,w:2,h:2,g:northwest)')
    const out = await image(`t.merge(i:logo,g:southeast,tr:${inner})`)
    expectColour(out.at(56, 40), RED)
    expectColour(out.at(60, 44), BLUE)
  })

  it('refuses merges nested three deep', async () => {
    const innermost = base64('t.merge(w:2,h:2)')
    const middle = base64(`t.merge(i:logo,tr:${innermost})`)
    const error = await refusal(`t.merge(i:logo,tr:${middle})`)
    expect(error.code).toBe('invalid_param')
  })

  it('refuses a tr that is not a valid pattern', async () => {
    expect((await refusal(`t.merge(i:logo,tr:${base64('t.resize(w:x)')})`)).code).toBe(
      'invalid_param',
    )
    expect((await refusal('t.merge(i:logo,tr:bm90IGEgcGF0dGVybg)')).code).toBe('invalid_param')
  })

  it('refuses a file that cannot be found', async () => {
    const error = await refusal('t.merge(i:nothing)')
    expect(error.code).toBe('missing_file')
    expect(error.isClientError).toBe(true)
  })

  it('refuses a file when no loader was given', async () => {
    const error = await engine
      .transform({ input: QUADRANTS, operations: chain('t.merge(i:logo)') })
      .catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'missing_file' })
  })

  it('refuses a file that is not an image', async () => {
    const error = await refusal('t.merge(i:text)', { files: { text: Buffer.from('hello, world') } })
    expect(error.code).toBe('invalid_image')
  })

  it('applies the byte limit to the file', async () => {
    const small = createEngine({ maxInputBytes: 2000 })
    const big = await plain(400, 400, WHITE).then(async (png) => {
      const sharp = (await import('sharp')).default
      return await sharp(png).jpeg({ quality: 100 }).toBuffer()
    })
    const error = await small
      .transform({
        input: await plain(4, 4, RED),
        operations: chain('t.merge(i:big)'),
        loadFile: async () => Buffer.concat([big, Buffer.alloc(3000)]),
      })
      .catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'input_too_large' })
  })
})
