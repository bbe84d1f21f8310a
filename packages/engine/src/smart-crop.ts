import type { Box } from '@tessera/ai'
import { fromAiError, toAiImage } from './ai-step.ts'
import { EngineError, MESSAGES } from './errors.ts'
import { resizedSize } from './geometry.ts'
import { TRANSPARENT } from './params.ts'
import type { Step } from './step.ts'

// `d` (preferred direction) in sharp's gravity words.
const DIRECTIONS: Readonly<Record<string, string>> = {
  north_west: 'northwest',
  north: 'north',
  north_east: 'northeast',
  west: 'west',
  center: 'centre',
  east: 'east',
  south_west: 'southwest',
  south: 'south',
  south_east: 'southeast',
}

const WHITE = { r: 255, g: 255, b: 255, alpha: 1 }

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}

// Faces (face-api), the `obj` object (COCO detector) or the subject (ISNet mask); undefined
// for `g:none`, and when nothing is found (the crop then falls back to attention).
async function findFocus(step: Step, gravity: string): Promise<Box | undefined> {
  if (gravity !== 'face' && gravity !== 'object' && gravity !== 'foreground') return undefined
  const raw = await step.image.raw()
  try {
    return await step.ai().focus(gravity, toAiImage(raw), step.params.string('obj'))
  } catch (error) {
    throw fromAiError(error)
  }
}

/**
 * Reads an aspect ratio written `16_9`, `2` or `0.25`.
 *
 * @returns undefined for anything else (or a ratio that is not positive).
 */
export function parseAspectRatio(text: string): number | undefined {
  const parts = text.split('_')
  if (parts.length > 2 || !parts.every((part) => /^\d+(\.\d+)?$/.test(part))) return undefined
  const [numerator = 0, denominator = 1] = parts.map(Number)
  const ratio = numerator / denominator
  return Number.isFinite(ratio) && ratio > 0 ? ratio : undefined
}

/**
 * `ic.crop`: crops the largest region of the wanted aspect ratio (`ar`, else `w`/`h`; none
 * with `ma`), centred on what the gravity finds — the faces (`g:face`), the best `obj` object
 * (`g:object`), the subject's mask (`g:foreground`) — or at the preferred direction `d` when
 * `g` is none; when a model finds nothing, libvips' attention strategy places it. Then adds
 * `p` % of the crop's size as a margin on every side (white, or transparent when the image has
 * alpha), and resizes to `w`×`h` (cover; inside when `ma` keeps the original aspect).
 */
export async function smartCrop(step: Step): Promise<void> {
  const { params, image } = step
  const width = params.integer('w')
  const height = params.integer('h')
  const padding = params.integer('p')
  const keepAspect = params.boolean('ma')
  const ratioText = params.string('ar')
  const gravity = params.string('g')
  if (width < 0 || height < 0 || padding < 0) {
    throw new EngineError('invalid_param', MESSAGES.invalidParam(step.key, 'w, h, p', 'positive'))
  }
  let ratio: number | undefined
  if (!keepAspect && ratioText !== '') {
    ratio = parseAspectRatio(ratioText)
    if (ratio === undefined) {
      throw new EngineError(
        'invalid_param',
        MESSAGES.invalidParam(step.key, 'ar', 'a ratio such as 16_9, 2 or 0.25'),
      )
    }
  } else if (!keepAspect && width > 0 && height > 0) {
    ratio = width / height
  }

  if (ratio !== undefined) {
    const cropWidth = Math.min(image.width, Math.max(1, Math.round(image.height * ratio)))
    const cropHeight = Math.min(image.height, Math.max(1, Math.round(image.width / ratio)))
    const focus = await findFocus(step, gravity)
    if (focus !== undefined && (cropWidth !== image.width || cropHeight !== image.height)) {
      // Centre the crop on what was found, kept inside the image.
      const centreX = focus.left + focus.width / 2
      const centreY = focus.top + focus.height / 2
      const left = clamp(Math.round(centreX - cropWidth / 2), 0, image.width - cropWidth)
      const top = clamp(Math.round(centreY - cropHeight / 2), 0, image.height - cropHeight)
      const region = { left, top, width: cropWidth, height: cropHeight }
      await image.pipe('extract', (sharp) => sharp.extract(region), region)
    } else if (cropWidth !== image.width || cropHeight !== image.height) {
      const position =
        gravity === 'none' ? (DIRECTIONS[params.string('d')] ?? 'centre') : 'attention'
      // A cover resize to a box the image already covers at scale 1 is a pure crop.
      await image.pipe(
        'resize',
        (sharp) => sharp.resize({ width: cropWidth, height: cropHeight, fit: 'cover', position }),
        { width: cropWidth, height: cropHeight },
      )
    }
  }

  if (padding > 0) {
    const x = Math.round((image.width * padding) / 100)
    const y = Math.round((image.height * padding) / 100)
    step.checkSize(image.width + 2 * x, image.height + 2 * y)
    const background = image.alpha ? TRANSPARENT : WHITE
    await image.pipe(
      'extend',
      (sharp) => sharp.extend({ top: y, bottom: y, left: x, right: x, background }),
      { width: image.width + 2 * x, height: image.height + 2 * y },
      { paints: true },
    )
  }

  if (width > 0 || height > 0) {
    const fit = keepAspect ? 'inside' : 'cover'
    const next = resizedSize(image.width, image.height, width, height, fit)
    step.checkSize(next.width, next.height)
    await image.pipe(
      'resize',
      (sharp) => sharp.resize({ width: width || undefined, height: height || undefined, fit }),
      next,
    )
  }
}
