import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine, EngineError } from './index.ts'
import { parseAspectRatio } from './smart-crop.ts'
import {
  BLUE,
  chain,
  chainRunner,
  expectColour,
  GREEN,
  plain,
  quadrants,
  RED,
  type Rgba,
  WHITE,
} from './test-images.ts'

const QUADRANTS = await quadrants()
const engine = createEngine()
// The face and object detectors load in worker threads at the first model crop.
afterAll(() => engine.close())

const { image } = chainRunner(engine, { input: QUADRANTS })

describe('parseAspectRatio', () => {
  it.each([
    ['16_9', 16 / 9],
    ['2', 2],
    ['0.25', 0.25],
    ['1_1', 1],
  ])('reads %s', (text, ratio) => {
    expect(parseAspectRatio(text)).toBeCloseTo(ratio)
  })

  it.each(['', 'abc', '16_0', '0', '1_2_3', '-1'])('refuses %j', (text) => {
    expect(parseAspectRatio(text)).toBeUndefined()
  })
})

describe('ic.crop', () => {
  it('crops the largest region of the aspect ratio at the preferred direction', async () => {
    const west = await image('ic.crop(ar:1,d:west)')
    expect([west.width, west.height]).toEqual([48, 48])
    expectColour(west.at(2, 2), RED)
    const east = await image('ic.crop(ar:1,d:east)')
    expectColour(east.at(47, 2), GREEN)
    expectColour(east.at(2, 2), RED)
    expectColour(east.at(20, 2), GREEN)
  })

  it('crops vertically towards north or south', async () => {
    const north = await image('ic.crop(ar:16_9,d:north)')
    expect([north.width, north.height]).toEqual([64, 36])
    expectColour(north.at(2, 12), RED)
    const south = await image('ic.crop(ar:16_9,d:south)')
    expectColour(south.at(2, 12), BLUE)
  })

  it('takes the aspect ratio from w and h and resizes to them', async () => {
    const out = await image('ic.crop(w:20,h:20)')
    expect([out.width, out.height]).toEqual([20, 20])
  })

  it('keeps the original aspect ratio inside w×h with ma:true', async () => {
    const out = await image('ic.crop(w:32,h:32,ma:true)')
    expect([out.width, out.height]).toEqual([32, 24])
  })

  it('adds a margin of p percent of the crop on every side', async () => {
    const out = await image('ic.crop(ar:1,p:10,d:west)')
    expect([out.width, out.height]).toEqual([58, 58])
    expectColour(out.at(1, 1), WHITE)
    expectColour(out.at(8, 8), RED)
  })

  it('falls back to the salient part of the image when the model finds nothing', async () => {
    // No COCO object in a red square on grey: libvips' attention strategy places the crop.
    const patch: Rgba = [230, 60, 40, 255]
    const scene = await sharp(await plain(96, 48, [128, 128, 128, 255]))
      .composite([{ input: await plain(14, 14, patch), left: 80, top: 17 }])
      .png()
      .toBuffer()
    const out = await image('ic.crop(ar:1,g:object,obj:giraffe)', scene)
    expect([out.width, out.height]).toEqual([48, 48])
    expectColour(out.at(40, 24), patch, 16)
  }, 300_000)

  it('changes nothing without a size, aspect ratio or padding', async () => {
    const out = await image('ic.crop()')
    expect([out.width, out.height]).toEqual([64, 48])
  })

  it('refuses an unreadable aspect ratio', async () => {
    // The URL parser refuses it first (its `ar` pattern); the engine still checks what it is given.
    const [crop] = chain('ic.crop(ar:2)')
    const operations = [{ ...crop, params: { ...crop?.params, ar: 'wide' } }] as ReturnType<
      typeof chain
    >
    const error = await engine
      .transform({ input: QUADRANTS, operations })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(EngineError)
    expect(error).toMatchObject({ code: 'invalid_param' })
  })
})
