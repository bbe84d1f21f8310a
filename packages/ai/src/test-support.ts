// Test helpers: the demo samples, parameters with catalogue defaults, pixel measures. Not part
// of the API.
import { CATALOGUE, type ParamValue } from '@tessera/url'
import sharp from 'sharp'
import type { AiImage } from './image.ts'
import type { AiColour, AiParams } from './params.ts'

/** The demo samples kept in the repository (see apps/server/demo/samples/README.md). */
export const SAMPLES = new URL('../../../apps/server/demo/samples/', import.meta.url)

/** Decodes an encoded image (or a sample's file name) to raw pixels. */
export async function decode(input: Buffer | string): Promise<AiImage> {
  const source = typeof input === 'string' ? new URL(input, SAMPLES).pathname : input
  const { data, info } = await sharp(source).raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

/** Encodes raw pixels as PNG. */
export async function encode(image: AiImage): Promise<Buffer> {
  const { width, height, channels } = image
  return await sharp(image.data, { raw: { width, height, channels } }).png().toBuffer()
}

function colour(hex: string): AiColour {
  const byte = (at: number) => Number.parseInt(hex.slice(at, at + 2), 16)
  return { r: byte(0), g: byte(2), b: byte(4), alpha: hex.length === 8 ? byte(6) / 255 : 1 }
}

/** Parameters of a catalogue operation: `values` over the catalogue's defaults. */
export function paramsOf(key: string, values: Record<string, ParamValue> = {}): AiParams {
  const [plugin = '', method = ''] = key.split('.')
  const spec = CATALOGUE.getOperation(plugin, method)
  if (spec === undefined) throw new Error(`${key} is not in the catalogue`)
  const read = (id: string): unknown =>
    Object.hasOwn(values, id) ? values[id] : spec.params.find((param) => param.id === id)?.default
  return {
    integer: (id) => Number(read(id)),
    number: (id) => Number(read(id)),
    string: (id) => (read(id) === null || read(id) === undefined ? '' : String(read(id))),
    boolean: (id) => read(id) === true,
    colour: (id) => colour(String(read(id))),
  }
}

/** One channel of an image as bytes. */
export function channel(image: AiImage, index: number): Uint8Array {
  const out = new Uint8Array(image.width * image.height)
  for (let i = 0; i < out.length; i++) out[i] = image.data[i * image.channels + index] as number
  return out
}

/** Intersection over union of two masks thresholded at 128. */
export function iou(a: Uint8Array, b: Uint8Array): number {
  let both = 0
  let either = 0
  for (let i = 0; i < a.length; i++) {
    const x = (a[i] as number) >= 128
    const y = (b[i] as number) >= 128
    if (x && y) both++
    if (x || y) either++
  }
  return either === 0 ? 1 : both / either
}

/** Peak signal-to-noise ratio of two same-sized RGB images, in dB. */
export function psnr(a: AiImage, b: AiImage): number {
  let sum = 0
  for (let i = 0; i < a.data.length; i++) {
    const d = (a.data[i] as number) - (b.data[i] as number)
    sum += d * d
  }
  const mse = sum / a.data.length
  return 10 * Math.log10((255 * 255) / mse)
}
