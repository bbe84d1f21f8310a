import sharp from 'sharp'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEngine } from './index.ts'
import { Pipeline } from './pipeline.ts'
import { BLUE, chain, expectColour, pixels, quadrants, RED } from './test-images.ts'

const engine = createEngine()
const QUADRANTS = await quadrants()

// 48×40 RGBA: a colour gradient, a half-transparent block and a transparent corner.
async function structured(): Promise<Buffer> {
  const width = 48
  const height = 40
  const data = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4
      const alpha = x < 8 && y < 8 ? 0 : x > 30 && y > 24 ? 110 : 255
      data.set([x * 5, y * 6, (x * y) % 256, alpha], at)
    }
  }
  return await sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer()
}

const SAMPLE = await structured()

// Every step whose position in sharp's own order matters.
const STEPS = [
  't.resize(w:30,h:30,f:cover,p:left)',
  't.resize(w:40,h:40,f:contain,b:ff000080)',
  't.resize(w:36)',
  't.extract(l:5,t:4,w:30,h:24)',
  't.trim(t:20)',
  't.rotate(a:90)',
  't.rotate(a:30,b:00ff0080)',
  't.flip()',
  't.flop()',
  't.extend(t:3,l:5,b:7,r:2,bc:0000ff80)',
  't.extend(t:2,l:2,b:2,r:2,bt:reflect)',
  't.median(s:3)',
  't.blur(s:1.5)',
  't.modulate(b:1.2,s:0.8,h:30)',
  't.sharpen(s:1)',
  't.linear(a:2,b:5)',
  't.normalise()',
  't.tint(c:ff8800)',
  't.negate()',
  't.grey()',
  't.flatten(b:ffffff)',
]

// Premultiplied RGBA, so that colours under transparent pixels do not count.
async function premultiplied(image: Buffer) {
  const { data, info } = await sharp(image)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const out = new Float64Array(data.length)
  for (let at = 0; at < data.length; at += 4) {
    const alpha = (data[at + 3] ?? 0) / 255
    for (let channel = 0; channel < 3; channel++)
      out[at + channel] = (data[at + channel] ?? 0) * alpha
    out[at + 3] = data[at + 3] ?? 0
  }
  return { out, width: info.width, height: info.height }
}

async function stepByStep(pattern: string): Promise<Buffer> {
  let image = SAMPLE
  for (const step of pattern.split('~')) {
    image = (await engine.transform({ input: image, operations: chain(step) })).data
  }
  return image
}

// Mean absolute difference per channel, or Infinity when the sizes differ.
async function difference(pattern: string): Promise<number> {
  const fused = await engine.transform({ input: SAMPLE, operations: chain(pattern) })
  const a = await premultiplied(fused.data)
  const b = await premultiplied(await stepByStep(pattern))
  if (a.width !== b.width || a.height !== b.height) return Number.POSITIVE_INFINITY
  let total = 0
  for (let at = 0; at < a.out.length; at++) total += Math.abs((a.out[at] ?? 0) - (b.out[at] ?? 0))
  return total / a.out.length
}

function pairs(): string[] {
  return STEPS.flatMap((first) => STEPS.map((second) => `${first}~${second}`))
}

function randomChains(count: number, length: number): string[] {
  let seed = 7
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    return seed / 2 ** 31
  }
  return Array.from({ length: count }, () =>
    Array.from({ length }, () => STEPS[Math.floor(random() * STEPS.length)]).join('~'),
  )
}

describe('chain order', () => {
  it('rotates then extracts, unlike extracting then rotating', async () => {
    const rotateFirst = await engine.transform({
      input: QUADRANTS,
      operations: chain('t.rotate(a:90)~t.extract(l:0,t:0,w:24,h:24)'),
    })
    const extractFirst = await engine.transform({
      input: QUADRANTS,
      operations: chain('t.extract(l:0,t:0,w:24,h:24)~t.rotate(a:90)'),
    })
    expectColour((await pixels(rotateFirst.data)).at(12, 12), BLUE)
    expectColour((await pixels(extractFirst.data)).at(12, 12), RED)
  })

  it('flips after a cover resize, not before its crop', async () => {
    const result = await engine.transform({
      input: QUADRANTS,
      operations: chain('t.resize(w:24,h:48,p:left)~t.flip()'),
    })
    const out = await pixels(result.data)
    expectColour(out.at(2, 2), BLUE)
    expectColour(out.at(21, 46), RED)
  })

  it.each(pairs())('runs %s as if step by step', async (pattern) => {
    expect(await difference(pattern)).toBeLessThan(1)
  })

  it.each(
    randomChains(60, 4).concat([
      't.trim(t:20)~t.rotate(a:90)~t.resize(w:30)',
      't.extract(l:5,t:4,w:30,h:24)~t.rotate(a:90)~t.resize(w:30)',
      't.extract(l:5,t:4,w:30,h:24)~t.rotate(a:90)~t.extract(l:1,t:1,w:10,h:10)',
      't.rotate(a:90)~t.resize(w:30)~t.extract(l:1,t:1,w:10,h:10)',
      't.flip()~t.rotate(a:90)~t.resize(w:20,h:30)~t.extract(l:2,t:2,w:10,h:10)',
      't.grey()~t.resize(w:40,h:40,f:contain,b:ff0000)',
      't.flatten(b:ffffff)~t.extend(bc:ff000000)',
    ]),
  )('runs %s as if step by step', async (pattern) => {
    expect(await difference(pattern)).toBeLessThan(1)
  })
})

describe('fusion', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('runs a lone resize as one sharp pipeline, without raw copies', async () => {
    const raw = vi.spyOn(Pipeline.prototype, 'raw')
    await engine.transform({ input: QUADRANTS, operations: chain('t.resize(w:32)') })
    await engine.transform({
      input: QUADRANTS,
      operations: chain('t.resize(w:32)~t.blur(s:1)~t.sharpen()~t.compress(q:70)'),
    })
    expect(raw).not.toHaveBeenCalled()
  })

  it('materialises where sharp would reorder the steps', async () => {
    const raw = vi.spyOn(Pipeline.prototype, 'raw')
    await engine.transform({
      input: QUADRANTS,
      operations: chain('t.blur(s:1)~t.resize(w:32)'),
    })
    expect(raw).toHaveBeenCalledTimes(1)
  })
})
