import sharp, { type Sharp } from 'sharp'
import type { AiImage } from './image.ts'

/** Opens sharp on raw pixels. */
export function open(image: AiImage): Sharp {
  return sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
    limitInputPixels: false,
  })
}

/** Runs sharp to raw 8-bit pixels. */
export async function toImage(pipeline: Sharp): Promise<AiImage> {
  const { data, info } = await pipeline
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

/**
 * RGB pixels of an image, shrunk (never enlarged) to fit `maxSide` when given: models take
 * small inputs, and results are mapped back to the original size.
 */
export async function rgb(image: AiImage, maxSide?: number): Promise<AiImage> {
  let pipeline = open(image).removeAlpha().toColourspace('srgb')
  if (maxSide !== undefined && Math.max(image.width, image.height) > maxSide) {
    pipeline = pipeline.resize(maxSide, maxSide, { fit: 'inside' })
  }
  return await toImage(pipeline)
}

/** RGBA pixels of an image (opaque alpha added when it has none). */
export async function rgba(image: AiImage): Promise<AiImage> {
  if (image.channels === 4) return image
  return await toImage(open(image).toColourspace('srgb').ensureAlpha(1))
}

/** The alpha channel of an image (255 everywhere when it has none). */
export async function alphaOf(image: AiImage): Promise<Buffer> {
  if (image.channels === 2 || image.channels === 4) {
    return (await toImage(open(image).extractChannel('alpha').toColourspace('b-w'))).data as Buffer
  }
  return Buffer.alloc(image.width * image.height, 255)
}

/** Resizes a one-channel mask to a size (stretching). */
export async function resizeMask(
  mask: Uint8Array,
  from: { width: number; height: number },
  to: { width: number; height: number },
): Promise<Buffer> {
  if (from.width === to.width && from.height === to.height) return Buffer.from(mask)
  const image = { data: mask, width: from.width, height: from.height, channels: 1 as const }
  const resized = await toImage(
    open(image).resize(to.width, to.height, { fit: 'fill' }).toColourspace('b-w'),
  )
  return resized.data as Buffer
}

/** Joins RGB pixels and a mask into RGBA. */
export function withAlpha(image: AiImage, alpha: Uint8Array): AiImage {
  const pixels = image.width * image.height
  const data = Buffer.alloc(pixels * 4)
  const channels = image.channels
  for (let i = 0; i < pixels; i++) {
    const at = i * channels
    const grey = channels < 3
    data[4 * i] = image.data[at] as number
    data[4 * i + 1] = image.data[grey ? at : at + 1] as number
    data[4 * i + 2] = image.data[grey ? at : at + 2] as number
    data[4 * i + 3] = alpha[i] as number
  }
  return { data, width: image.width, height: image.height, channels: 4 }
}

/** The bounding box of mask pixels at or above `threshold`, or undefined when there are none. */
export function maskBounds(
  mask: Uint8Array,
  width: number,
  height: number,
  threshold = 128,
): { left: number; top: number; width: number; height: number } | undefined {
  let left = width
  let top = height
  let right = -1
  let bottom = -1
  for (let y = 0; y < height; y++) {
    const row = y * width
    for (let x = 0; x < width; x++) {
      if ((mask[row + x] as number) >= threshold) {
        if (x < left) left = x
        if (x > right) right = x
        if (y < top) top = y
        bottom = y
      }
    }
  }
  if (right < 0) return undefined
  return { left, top, width: right - left + 1, height: bottom - top + 1 }
}

/**
 * The box holding all but `trim` of a mask's weight on each side: stray specks the model marks
 * far from the subject (it sees a stretched 1024² copy) do not widen it, as they would the
 * plain bounds.
 */
export function subjectBounds(
  mask: Uint8Array,
  width: number,
  height: number,
  trim = 0.002,
): { left: number; top: number; width: number; height: number } | undefined {
  const columns = new Float64Array(width)
  const rows = new Float64Array(height)
  let total = 0
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const value = mask[y * width + x] as number
      if (value < 128) continue
      columns[x] = (columns[x] as number) + value
      rows[y] = (rows[y] as number) + value
      total += value
    }
  }
  if (total === 0) return undefined
  const span = (sums: Float64Array): [number, number] => {
    let low = 0
    let seen = 0
    while (low < sums.length - 1 && seen + (sums[low] as number) <= total * trim)
      seen += sums[low++] as number
    let high = sums.length - 1
    seen = 0
    while (high > low && seen + (sums[high] as number) <= total * trim)
      seen += sums[high--] as number
    return [low, high]
  }
  const [left, right] = span(columns)
  const [top, bottom] = span(rows)
  return { left, top, width: right - left + 1, height: bottom - top + 1 }
}
