import sharp from 'sharp'
import type { AiImage } from './image.ts'
import { maskBounds, resizeMask, rgb, toImage, withAlpha } from './pixels.ts'
import type { ModelPools } from './pool.ts'

// ISNet sees 1024² whatever the input: a larger copy only costs time to send and resize.
const MODEL_SIDE = 2048

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
  const mask = await pools.run<Uint8Array>({ kind: 'isnet', image: small, size }, label)
  return await resizeMask(mask, small, image)
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
