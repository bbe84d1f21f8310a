// Test helpers: images generated with sharp, pixel sampling, patterns. Not part of the API.
import { readFileSync } from 'node:fs'
import { type ParsedOperation, parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { expect } from 'vitest'
import { type Engine, EngineError } from './index.ts'

/** An RGBA colour, channels 0–255. */
export type Rgba = [number, number, number, number]

export const RED: Rgba = [255, 0, 0, 255]
export const GREEN: Rgba = [0, 255, 0, 255]
export const BLUE: Rgba = [0, 0, 255, 255]
export const WHITE: Rgba = [255, 255, 255, 255]
export const BLACK: Rgba = [0, 0, 0, 255]

/** The horse silhouette of the fixtures (400×328 RGBA PNG, CC0; see fixtures/README.md). */
export const HORSE = readFileSync(new URL('./fixtures/horse.png', import.meta.url))

function solid(width: number, height: number, [r, g, b, a]: Rgba) {
  return {
    input: {
      create: { width, height, channels: 4 as const, background: { r, g, b, alpha: a / 255 } },
    },
  }
}

/**
 * A 64×48 opaque PNG of four 32×24 quadrants: red top-left, green top-right, blue bottom-left,
 * white bottom-right.
 */
export async function quadrants(width = 64, height = 48): Promise<Buffer> {
  const w = width / 2
  const h = height / 2
  return await sharp({ create: { width, height, channels: 3, background: '#000' } })
    .composite([
      { ...solid(w, h, RED), left: 0, top: 0 },
      { ...solid(w, h, GREEN), left: w, top: 0 },
      { ...solid(w, h, BLUE), left: 0, top: h },
      { ...solid(w, h, WHITE), left: w, top: h },
    ])
    .removeAlpha()
    .png()
    .toBuffer()
}

/** A 32×32 PNG with alpha: the left half opaque red, the right half fully transparent. */
export async function halfTransparent(): Promise<Buffer> {
  return await sharp({
    create: { width: 32, height: 32, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([{ ...solid(16, 32, RED), left: 0, top: 0 }])
    .png()
    .toBuffer()
}

/** A PNG of one colour. */
export async function plain(width: number, height: number, colour: Rgba): Promise<Buffer> {
  const [r, g, b, a] = colour
  return await sharp({
    create: { width, height, channels: 4, background: { r, g, b, alpha: a / 255 } },
  })
    .png()
    .toBuffer()
}

/** An animated GIF of 3 frames of 20×10: red, green, blue, 100/200/300 ms. */
export async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(
    [RED, GREEN, BLUE].map((colour) =>
      sharp({ create: { width: 20, height: 10, channels: 3, background: rgb(colour) } })
        .raw()
        .toBuffer(),
    ),
  )
  return await sharp(Buffer.concat(frames), {
    raw: { width: 20, height: 30, channels: 3, pageHeight: 10 },
  })
    .gif({ delay: [100, 200, 300], loop: 0 })
    .toBuffer()
}

function rgb([r, g, b]: Rgba) {
  return { r, g, b }
}

/** Decoded RGBA pixels of an encoded image (all frames stacked). */
export interface Pixels {
  width: number
  height: number
  pages: number
  at(x: number, y: number, page?: number): Rgba
}

/** Decodes an image (every frame) to RGBA. */
export async function pixels(image: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(image, { animated: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const pageHeight = info.pageHeight ?? info.height
  const pages = Math.max(1, Math.round(info.height / pageHeight))
  return {
    width: info.width,
    height: pages > 1 ? pageHeight : info.height,
    pages,
    at(x, y, page = 0) {
      const offset = ((page * pageHeight + y) * info.width + x) * 4
      return [...data.subarray(offset, offset + 4)] as Rgba
    },
  }
}

/** Asserts that two colours differ by at most `tolerance` on every channel. */
export function expectColour(actual: Rgba, expected: Rgba, tolerance = 8): void {
  const close = actual.every(
    (value, index) => Math.abs(value - (expected[index] ?? 0)) <= tolerance,
  )
  if (!close) expect(actual).toEqual(expected)
}

/** Parses a pattern that must be valid. */
export function chain(pattern: string): ParsedOperation[] {
  const { value, issues } = parsePattern(pattern)
  expect(issues).toEqual([])
  return value
}

/** What a chain run may take besides its pattern: the image, the dpr, files `t.merge` loads. */
export interface RunOptions {
  input?: Buffer
  dpr?: number
  files?: Record<string, Buffer>
}

/**
 * The three ways every engine test runs a pattern on `engine`: the result, its pixels, or the
 * `EngineError` it is refused with. `defaults` gives the image (and the files) when a call does
 * not.
 */
export function chainRunner(
  engine: Engine,
  defaults: { input: Buffer; files?: Record<string, Buffer> },
) {
  const run = async (pattern: string, input = defaults.input, options: RunOptions = {}) => {
    const files = options.files ?? defaults.files
    return await engine.transform({
      input,
      operations: chain(pattern),
      ...(options.dpr === undefined ? {} : { dpr: options.dpr }),
      ...(files === undefined ? {} : { loadFile: async (id: string) => files[id] }),
    })
  }
  const image = async (pattern: string, input = defaults.input, dpr?: number) =>
    await pixels((await run(pattern, input, dpr === undefined ? {} : { dpr })).data)
  const refusal = async (pattern: string, options: RunOptions = {}): Promise<EngineError> => {
    const error = await run(pattern, options.input ?? defaults.input, options).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(EngineError)
    return error as EngineError
  }
  return { run, image, refusal }
}
