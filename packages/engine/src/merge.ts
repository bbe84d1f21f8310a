import { CATALOGUE } from '@tessera/url'
import sharp, { type Blend } from 'sharp'
import { EngineError, MESSAGES } from './errors.ts'
import { clampRegion, type Gravity, placeAt, type Size } from './geometry.ts'
import { type Colour, TRANSPARENT } from './params.ts'
import { openRaw, type RawImage } from './pipeline.ts'
import type { Step } from './step.ts'

/** Most levels of merges inside the `tr` of a merge (a merge in a merge in a merge is refused). */
export const MAX_MERGE_DEPTH = 2

const GRAVITIES: readonly Gravity[] = [
  'northwest',
  'north',
  'northeast',
  'west',
  'center',
  'east',
  'southwest',
  'south',
  'southeast',
]

// The language accepts British spellings; sharp only the American ones.
const BLEND_SPELLINGS: Readonly<Record<string, Blend>> = {
  'colour-dodge': 'color-dodge',
  'colour-burn': 'color-burn',
}

// The blend modes are the catalogue's (one source of truth), in sharp's spelling.
const BLENDS: ReadonlySet<string> = new Set(
  (CATALOGUE.getOperation('t', 'merge')?.params.find((param) => param.id === 'b')?.enum ?? []).map(
    (name) => BLEND_SPELLINGS[name] ?? name,
  ),
)

function rawInput(image: RawImage) {
  return {
    input: image.data,
    raw: { width: image.width, height: image.height, channels: image.channels },
  }
}

function canvas(size: Size, background: Colour) {
  return sharp({ create: { width: size.width, height: size.height, channels: 4, background } })
}

// The coverage mask of the boxes ([left, top, width, height]) and polygons, as an SVG drawn
// white on transparent. Every number comes from a validated number list.
function maskSvg(size: Size, boxes: number[][], polygons: number[][][], dx: number, dy: number) {
  const shapes = [
    ...boxes.map(
      ([left = 0, top = 0, width = 0, height = 0]) =>
        `<rect x="${left + dx}" y="${top + dy}" width="${Math.max(0, width)}" height="${Math.max(0, height)}"/>`,
    ),
    ...polygons.map(
      (points) =>
        `<polygon points="${points.map(([x = 0, y = 0]) => `${x + dx},${y + dy}`).join(' ')}"/>`,
    ),
  ]
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">` +
      `<g fill="#fff">${shapes.join('')}</g></svg>`,
  )
}

/**
 * `t.merge`: draws another image (`i`, a stored file with the transformation `tr` applied, then
 * resized to `w`×`h`) or a `bg` colour canvas (`w`×`h`, else the image's size) over the image
 * (`m:overlay`), under it (`m:underlay`: the image is drawn over the other one with the blend),
 * or over it on a canvas grown to hold both (`m:wrap`). It sits at gravity `g`, or at `l`,`t`
 * with `g:custom`, or is repeated over the whole image with `r:true`. `b` is the blend mode.
 * With `bboxes` ([left, top, width, height] each) or `polys`, the other image shows only inside
 * those shapes (a mask in the image's coordinates).
 */
export async function merge(step: Step): Promise<void> {
  const { params } = step
  if (step.depth >= MAX_MERGE_DEPTH) throw new EngineError('invalid_param', MESSAGES.mergeTooDeep)
  const mode = params.string('m')
  const gravity = params.string('g')
  const blendName = params.string('b')
  const blend = BLEND_SPELLINGS[blendName] ?? blendName
  if (!['overlay', 'underlay', 'wrap'].includes(mode)) {
    throw new EngineError('invalid_param', MESSAGES.invalidParam(step.key, 'm', 'a merge mode'))
  }
  if (gravity !== 'custom' && !(GRAVITIES as readonly string[]).includes(gravity)) {
    throw new EngineError('invalid_param', MESSAGES.invalidParam(step.key, 'g', 'a gravity'))
  }
  if (!BLENDS.has(blend)) {
    throw new EngineError('invalid_param', MESSAGES.invalidParam(step.key, 'b', 'a blend mode'))
  }
  const width = params.integer('w')
  const height = params.integer('h')
  if (width < 0 || height < 0) {
    throw new EngineError('invalid_param', MESSAGES.invalidParam(step.key, 'w, h', 'positive'))
  }
  const tile = params.boolean('r')
  const boxes = params.boxes('bboxes')
  const polygons = params.polygons('polys')

  const base = await step.image.raw()
  const other = await otherImage(step, base, width, height)

  const position =
    gravity === 'custom'
      ? { left: params.integer('l'), top: params.integer('t') }
      : placeAt(gravity as Gravity, base, other)
  // The canvas: the image's own size, or for wrap the box holding both images.
  let offset = { left: 0, top: 0 }
  let size: Size = base
  if (mode === 'wrap' && !tile) {
    const left = Math.min(0, position.left)
    const top = Math.min(0, position.top)
    size = {
      width: Math.max(base.width, position.left + other.width) - left,
      height: Math.max(base.height, position.top + other.height) - top,
    }
    step.checkSize(size.width, size.height)
    offset = { left: -left, top: -top }
  }

  let layer = await step.render(
    canvas(size, TRANSPARENT).composite([
      tile
        ? {
            ...rawInput(await fitWithin(step, other, size)),
            tile: true,
            gravity: tileGravity(gravity),
          }
        : await placed(step, other, size, position.left + offset.left, position.top + offset.top),
    ]),
  )
  if (boxes.length > 0 || polygons.length > 0) {
    const mask = maskSvg(size, boxes, polygons, offset.left, offset.top)
    layer = await step.render(openRaw(layer).composite([{ input: mask, blend: 'dest-in' }]))
  }

  let below = base
  let above = layer
  if (mode === 'wrap' && !tile) {
    below = await step.render(
      canvas(size, TRANSPARENT).composite([{ ...rawInput(base), ...offset }]),
    )
  } else if (mode === 'underlay') {
    below = layer
    above = base
  }
  const result = await step.render(
    openRaw(below).composite([{ ...rawInput(above), blend: blend as Blend }]),
  )
  step.image.replace(result)
}

function tileGravity(gravity: string): Gravity {
  return gravity === 'custom' ? 'northwest' : (gravity as Gravity)
}

async function otherImage(
  step: Step,
  base: RawImage,
  width: number,
  height: number,
): Promise<RawImage> {
  const { params } = step
  const fileId = params.string('i')
  if (fileId === '') {
    const size = { width: width || base.width, height: height || base.height }
    step.checkSize(size.width, size.height)
    return await step.render(canvas(size, params.colour('bg')))
  }
  const other = await step.loadImage(fileId, params.string('tr'))
  if (width === 0 && height === 0) return other
  // Both sides: exactly that box; one side: the other follows the aspect ratio.
  const target = {
    width: width || Math.max(1, Math.round((other.width * height) / other.height)),
    height: height || Math.max(1, Math.round((other.height * width) / other.width)),
  }
  step.checkSize(target.width, target.height)
  return await step.render(openRaw(other).resize({ ...target, fit: 'fill' }))
}

// sharp refuses a tile larger than the canvas: keep its top-left part.
async function fitWithin(step: Step, image: RawImage, size: Size): Promise<RawImage> {
  if (image.width <= size.width && image.height <= size.height) return image
  const region = {
    left: 0,
    top: 0,
    width: Math.min(image.width, size.width),
    height: Math.min(image.height, size.height),
  }
  return await step.render(openRaw(image).extract(region))
}

// The part of `image` visible on the canvas when its top-left corner is at left, top.
async function placed(step: Step, image: RawImage, size: Size, left: number, top: number) {
  const visible = clampRegion({ left, top, width: image.width, height: image.height }, size)
  if (visible === undefined) {
    return {
      input: { create: { width: 1, height: 1, channels: 4 as const, background: TRANSPARENT } },
    }
  }
  const part =
    visible.width === image.width && visible.height === image.height
      ? image
      : await step.render(
          openRaw(image).extract({
            left: visible.left - left,
            top: visible.top - top,
            width: visible.width,
            height: visible.height,
          }),
        )
  return { ...rawInput(part), left: visible.left, top: visible.top }
}
