import { clampBox } from './detect.ts'
import { AI_MESSAGES, AiError } from './errors.ts'
import type { AiImage, Box } from './image.ts'
import type { AiColour } from './params.ts'
import { open, rgb, toImage } from './pixels.ts'

/** Hides regions: black, pixelated, blurred, or covered by another image. */
export async function maskImage(
  image: AiImage,
  regions: readonly Box[],
  mode: string,
  replacement: AiImage | undefined,
  key: string,
): Promise<AiImage> {
  if (!['fill_black', 'pixelate', 'blur'].includes(mode)) {
    throw new AiError(
      'invalid_param',
      AI_MESSAGES.invalidParam(key, 'm', 'fill_black, pixelate or blur'),
    )
  }
  const base = await toImage(open(image).toColourspace('srgb'))
  const channels = base.channels
  const layers: {
    input: Buffer
    raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 }
    left: number
    top: number
  }[] = []
  for (const found of regions) {
    const box = clampBox(found, image.width, image.height)
    if (box === undefined) continue
    let patch: AiImage
    const region = open(base).extract(box)
    if (replacement !== undefined) {
      patch = await toImage(
        open(replacement).toColourspace('srgb').resize(box.width, box.height, { fit: 'fill' }),
      )
      patch = await toImage(open(patch).removeAlpha().ensureAlpha(1))
      if (channels === 3) patch = await toImage(open(patch).removeAlpha())
    } else if (mode === 'fill_black') {
      patch = {
        data: Buffer.alloc(box.width * box.height * channels),
        width: box.width,
        height: box.height,
        channels,
      }
      if (channels === 4) for (let i = 3; i < patch.data.length; i += 4) patch.data[i] = 255
    } else if (mode === 'pixelate') {
      const cells = Math.max(1, Math.round(Math.max(box.width, box.height) / 10))
      const small = await toImage(
        region.resize(
          Math.max(1, Math.round(box.width / cells)),
          Math.max(1, Math.round(box.height / cells)),
          { fit: 'fill' },
        ),
      )
      patch = await toImage(
        open(small).resize(box.width, box.height, { fit: 'fill', kernel: 'nearest' }),
      )
    } else {
      patch = await toImage(region.blur(Math.max(3, Math.max(box.width, box.height) / 8)))
    }
    layers.push({
      input: patch.data as Buffer,
      raw: { width: box.width, height: box.height, channels: patch.channels },
      left: box.left,
      top: box.top,
    })
  }
  if (layers.length === 0) return base
  // Compositing adds an alpha channel; an opaque image stays without one.
  const composed = open(base).composite(layers)
  return await toImage(channels === 4 ? composed : composed.removeAlpha())
}

/** Options of `shadowScene`. */
export interface ShadowOptions {
  /** Direction the shadow falls, in degrees (0 = right, 90 = down). */
  angle: number
  /** Darkness 0–1. */
  intensity: number
  /** Background colour when there is no background image. */
  colour: AiColour
  background: AiImage | undefined
}

/**
 * The subject (by its mask) with a soft shadow cast at an angle, on a colour or an image
 * covering the same size.
 */
export async function shadowScene(
  image: AiImage,
  subject: Uint8Array,
  options: ShadowOptions,
): Promise<AiImage> {
  const { width, height } = image
  const intensity = Math.max(0, Math.min(1, options.intensity))
  const radians = (options.angle * Math.PI) / 180
  const distance = Math.round(Math.min(width, height) * 0.04)
  const dx = Math.round(Math.cos(radians) * distance)
  const dy = Math.round(Math.sin(radians) * distance)
  const shifted = Buffer.alloc(width * height)
  for (let y = 0; y < height; y++) {
    const from = y - dy
    if (from < 0 || from >= height) continue
    for (let x = 0; x < width; x++) {
      const source = x - dx
      if (source >= 0 && source < width)
        shifted[y * width + x] = subject[from * width + source] as number
    }
  }
  const sigma = Math.max(1, Math.min(width, height) * 0.015)
  const shadow = (
    await toImage(
      open({ data: shifted, width, height, channels: 1 }).blur(sigma).toColourspace('b-w'),
    )
  ).data
  const front = await rgb(image)
  let back: AiImage
  if (options.background !== undefined) {
    back = await rgb(
      await toImage(open(options.background).resize(width, height, { fit: 'cover' })),
    )
  } else {
    const { r, g, b } = options.colour
    const data = Buffer.alloc(width * height * 3)
    for (let i = 0; i < width * height; i++) {
      data[3 * i] = r
      data[3 * i + 1] = g
      data[3 * i + 2] = b
    }
    back = { data, width, height, channels: 3 }
  }
  if (options.background === undefined && options.colour.alpha < 1) {
    return transparentScene(front, subject, shadow, intensity, options.colour)
  }
  const out = Buffer.alloc(width * height * 3)
  for (let i = 0; i < width * height; i++) {
    const s = ((shadow[i] as number) / 255) * intensity
    const m = (subject[i] as number) / 255
    for (let c = 0; c < 3; c++) {
      const ground = (back.data[3 * i + c] as number) * (1 - s)
      out[3 * i + c] = Math.round((front.data[3 * i + c] as number) * m + ground * (1 - m))
    }
  }
  return { data: out, width, height, channels: 3 }
}

// The subject and its black shadow over a background colour that is not opaque (`bgc` with
// alpha, 00000000 for none): "over" compositing, unpremultiplied, so the result keeps alpha.
function transparentScene(
  front: AiImage,
  subject: Uint8Array,
  shadow: Uint8Array,
  intensity: number,
  colour: AiColour,
): AiImage {
  const { width, height } = front
  const ground = [colour.r, colour.g, colour.b]
  const out = Buffer.alloc(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    const s = ((shadow[i] as number) / 255) * intensity
    const m = (subject[i] as number) / 255
    const groundAlpha = s + colour.alpha * (1 - s)
    const alpha = m + groundAlpha * (1 - m)
    if (alpha <= 0) continue
    for (let c = 0; c < 3; c++) {
      const under = (ground[c] as number) * colour.alpha * (1 - s)
      const value = (front.data[3 * i + c] as number) * m + under * (1 - m)
      out[4 * i + c] = Math.round(value / alpha)
    }
    out[4 * i + 3] = Math.round(alpha * 255)
  }
  return { data: out, width, height, channels: 4 }
}
