import sharp from 'sharp'
import type { AiImage } from './image.ts'
import type { Matte } from './matte.ts'
import type { IsnetSize } from './models/isnet.ts'
import { alphaOf, maskBounds, open, resizeMask, rgb, toImage, withAlpha } from './pixels.ts'
import type { ModelPools } from './pool.ts'
import { rememberedMask, rememberedMatte } from './remembered.ts'

// ISNet sees 1024² whatever the input, so its mask has no finer detail than that: the model gets
// the image at most this large (a larger copy only costs time to send and resize), and so does
// the cut-out's matte (edge refinement, colours; about 0.7 s of CPU per megapixel,
// docs/benchmarks.md), which is then enlarged. One size for both lets a cut-out and a detection
// of the same image share the model's run (remembered.ts).
const MODEL_SIDE = 1024

/**
 * The subject mask of an image at its own size (one byte per pixel, 255 = subject): the image
 * is shrunk for ISNet and the mask stretched back.
 */
export async function subjectMask(
  pools: ModelPools,
  image: AiImage,
  size: 'small' | 'medium',
  label: string,
): Promise<Buffer> {
  const small = await rgb(image, MODEL_SIDE)
  const mask = await rememberedMask(pools, { kind: 'isnet', image: small, size }, label)
  return await resizeMask(mask, small, image)
}

/** A cut-out: its alpha and the subject's colours (RGB, edges free of the old background). */
export interface Cutout {
  alpha: Buffer
  colour: AiImage
  /** Whether the model's mask was a ghost (mostly semi-transparent) and was binarised. */
  ghost: boolean
}

const hasAlpha = (image: AiImage) => image.channels === 2 || image.channels === 4

// What the model sees of an image with transparency: its transparent areas on a plain backdrop
// that contrasts with the subject (the pixels under them are often black or leftovers, which
// ISNet would take for part of the subject).
async function flattenForModel(image: AiImage, alpha: Uint8Array): Promise<AiImage> {
  const colour = await rgb(image)
  let sum = 0
  let count = 0
  for (let i = 0; i < alpha.length; i++) {
    if ((alpha[i] as number) < 200) continue
    const at = 3 * i
    sum +=
      (colour.data[at] as number) +
      (colour.data[at + 1] as number) +
      (colour.data[at + 2] as number)
    count += 3
  }
  const backdrop = count > 0 && sum / count > 170 ? 48 : 255
  const data = Buffer.alloc(colour.data.length)
  for (let i = 0; i < alpha.length; i++) {
    const a = (alpha[i] as number) / 255
    for (let c = 0; c < 3; c++)
      data[3 * i + c] = Math.round((colour.data[3 * i + c] as number) * a + backdrop * (1 - a))
  }
  return { ...colour, data }
}

// The matte's colour corrections (decontaminated minus observed) made at the model's size,
// enlarged and applied to the full-size colours.
async function enlargeColours(small: AiImage, matte: Matte, full: AiImage): Promise<AiImage> {
  const offsets = Buffer.alloc(matte.colour.length)
  for (let i = 0; i < offsets.length; i++) {
    const d = (matte.colour[i] as number) - (small.data[i] as number)
    offsets[i] = Math.max(0, Math.min(255, d + 128))
  }
  const enlarged = await toImage(
    open({ data: offsets, width: small.width, height: small.height, channels: 3 }).resize(
      full.width,
      full.height,
      { fit: 'fill' },
    ),
  )
  const data = Buffer.from(full.data)
  for (let i = 0; i < data.length; i++) {
    data[i] = Math.max(0, Math.min(255, (data[i] as number) + (enlarged.data[i] as number) - 128))
  }
  return { ...full, data }
}

/**
 * The cut-out of an image: ISNet's mask refined at the subject's edges, a ghost mask binarised,
 * edge colours freed of the old background (matte.ts, in the worker). Transparency the image
 * already has is kept: the result is never more opaque than the input anywhere.
 */
export async function subjectCutout(
  pools: ModelPools,
  image: AiImage,
  size: IsnetSize,
  label: string,
): Promise<Cutout> {
  const inputAlpha = hasAlpha(image) ? await alphaOf(image) : undefined
  const seen = inputAlpha === undefined ? image : await flattenForModel(image, inputAlpha)
  const small = await rgb(seen, MODEL_SIDE)
  const matte = await rememberedMatte(pools, { kind: 'isnet', image: small, size }, label)
  const full = await rgb(image)
  const same = small.width === full.width && small.height === full.height
  const alpha = same ? Buffer.from(matte.alpha) : await resizeMask(matte.alpha, small, full)
  const colour: AiImage = same
    ? { ...full, data: Buffer.from(matte.colour) }
    : await enlargeColours(small, matte, full)
  for (let i = 0; i < alpha.length; i++) {
    const given = inputAlpha?.[i] ?? 255
    if (given < (alpha[i] as number)) alpha[i] = given
    // Where the input was already see-through its own colours are the subject's.
    if (given < 255) colour.data.set(full.data.subarray(3 * i, 3 * i + 3), 3 * i)
    // Fully transparent pixels carry no colour (smaller files, nothing of the old image left).
    if (alpha[i] === 0) colour.data.fill(0, 3 * i, 3 * i + 3)
  }
  return { alpha, colour, ghost: matte.ghost }
}

/**
 * A soft contact shadow under the subject, as product photos have: a flat ellipse as wide as
 * the subject's base centred on its lowest point, blurred, at `opacity`. One byte per pixel.
 */
export async function contactShadow(
  mask: Uint8Array,
  width: number,
  height: number,
  opacity: number,
): Promise<Buffer> {
  const bounds = maskBounds(mask, width, height)
  if (bounds === undefined) return Buffer.alloc(width * height)
  const bottom = bounds.top + bounds.height
  const rx = Math.max(2, bounds.width * 0.48)
  const ry = Math.max(2, bounds.height * 0.05)
  const cx = bounds.left + bounds.width / 2
  const level = Math.round(255 * opacity)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="rgb(0,0,0)"/>
    <ellipse cx="${cx}" cy="${bottom}" rx="${rx}" ry="${ry}" fill="rgb(${level},${level},${level})"/>
  </svg>`
  const sigma = Math.max(1, ry * 0.6)
  const shadow = await toImage(sharp(Buffer.from(svg)).blur(sigma).greyscale().toColourspace('b-w'))
  return shadow.data as Buffer
}

/** The subject over transparency, with an optional contact shadow in black beneath it. */
export async function cutOut(
  image: AiImage,
  mask: Uint8Array,
  shadow: Uint8Array | undefined,
): Promise<AiImage> {
  const colour = await rgb(image)
  const result = withAlpha(colour, mask)
  if (shadow === undefined) return result
  const { data } = result
  for (let i = 0; i < mask.length; i++) {
    const subject = (mask[i] as number) / 255
    const under = ((shadow[i] as number) / 255) * (1 - subject)
    const alpha = subject + under
    if (alpha <= 0) continue
    // "Over" compositing of the subject on the black shadow, unpremultiplied.
    for (let c = 0; c < 3; c++)
      data[4 * i + c] = Math.round(((data[4 * i + c] as number) * subject) / alpha)
    data[4 * i + 3] = Math.round(alpha * 255)
  }
  return result
}
