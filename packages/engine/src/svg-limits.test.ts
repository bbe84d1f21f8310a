// Issue 19 finding 2: an SVG's element count and rasterised size are checked before librsvg
// renders it; each cap is a setting of the engine.
import { parsePattern } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { createEngine } from './engine.ts'
import { countSvgElements } from './svg-limits.ts'

const svg = (body: string, size = 'width="100" height="100"') =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" ${size}>${body}</svg>`)
const rects = (count: number) => '<rect width="1" height="1"/>'.repeat(count)
const resize = parsePattern('t.resize(w:50)').value

describe('the SVG limits', () => {
  it('counts start tags, not closing tags or declarations', () => {
    expect(
      countSvgElements(Buffer.from('<?xml version="1.0"?><!-- x --><svg><g></g><a/></svg>')),
    ).toBe(3)
  })

  it('renders an SVG at the element limit and refuses one over it', async () => {
    const engine = createEngine({ maxSvgElements: 11 })
    const ok = await engine.transform({ input: svg(rects(10)), operations: resize })
    expect(ok.width).toBe(50)
    await expect(
      engine.transform({ input: svg(rects(11)), operations: resize }),
    ).rejects.toMatchObject({
      code: 'too_many_pixels',
      message: expect.stringMatching(/more than 11 elements/),
    })
    // Probing (uploads) applies the same limit.
    await expect(engine.probe(svg(rects(11)))).rejects.toMatchObject({ code: 'too_many_pixels' })
  })

  it('counts elements of an SVG whose markup starts after a long comment', async () => {
    const engine = createEngine({ maxSvgElements: 11 })
    const input = Buffer.concat([Buffer.from(`<!--${' '.repeat(5000)}-->`), svg(rects(11))])
    await expect(engine.transform({ input, operations: resize })).rejects.toMatchObject({
      code: 'too_many_pixels',
    })
  })

  it('refuses an SVG that would rasterise to more pixels than the SVG limit', async () => {
    const engine = createEngine({ maxSvgPixels: 100 * 100 })
    const ok = await engine.transform({ input: svg(rects(1)), operations: resize })
    expect(ok.width).toBe(50)
    const large = svg(rects(1), 'width="101" height="100"')
    await expect(engine.transform({ input: large, operations: resize })).rejects.toMatchObject({
      code: 'too_many_pixels',
      message: expect.stringMatching(/rasterised to 10100 pixels/),
    })
  })

  it('refuses cache and SVG settings out of range', () => {
    expect(() => createEngine({ cacheItems: -1 })).toThrow(RangeError)
    expect(() => createEngine({ maxSvgElements: 0 })).toThrow(RangeError)
    expect(() => createEngine({ cacheItems: 0, cacheMemoryMb: 0 })).not.toThrow()
  })
})
