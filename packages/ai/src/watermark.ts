// wm.remove: find the mark's pixels, undo what can be undone (a semi-transparent mark is the
// photo blended with one colour: reversing the blend gives the photo back, texture and all),
// and repaint only what is opaque. Without a box, refuse rather than repaint a large part of
// the photo: a smeared photo is worse than a marked one.
import { AI_MESSAGES, AiError } from './errors.ts'
import type { AiImage, Box } from './image.ts'
import { markRows, rowPieces } from './mark-rows.ts'
import { open, toImage } from './pixels.ts'

/** Without a box, `wm.remove` repaints at most this share of the image... */
export const MAX_REPAINT_SHARE = 0.1
/** ...and changes at most this share (a semi-transparent mark's pixels are changed, not
 * repainted: the blend is reversed). */
export const MAX_CHANGE_SHARE = 0.5
// A box covering this much of the image is no box: the catalogue's default is 0_0_100_100.
const WHOLE = 0.9
// A stroke pixel stands out this much (grey levels) from its neighbourhood's median.
const CONTRAST = 10
const MEDIAN = 15
// A mark whose estimated opacity reaches this is repainted; below it, it is reversed (more
// opaque, the reversal would multiply noise and rounding by 1 / (1 - opacity) > 2.5).
const OPAQUE = 0.6
// In a box, a pixel differs this much from the box filled from its surroundings to be the logo.
const LOGO_CONTRAST = 28
const SIDE = 1.5
// How far (grey levels) a reversed pixel may end from its neighbourhood's median.
const NEAR = 28

/** What to remove, as `wm.remove`'s parameters say. */
export interface MarkRequest {
  key: string
  /** The boxes given (box1..5), in pixels; the default 0_0_100_100 counts as no box. */
  boxes: readonly Box[]
  /** The polygons (corners clockwise from the top left) of the text lines found (`rem_text`),
   * or undefined. */
  lines: readonly (readonly [number, number])[][] | undefined
  logo: boolean
}

/** Repaints the pixels of `mask` (255) from their surroundings (OpenCV inpainting). */
export type Repaint = (image: AiImage, mask: Uint8Array) => Promise<AiImage>

/** What `removeMarks` did, for the tests and the benchmark. */
export interface MarkRemoval {
  image: AiImage
  /** Estimated opacity of the mark (1 for opaque, 0 when nothing was found). */
  opacity: number
  /** Pixels changed by reversing the blend, and repainted. */
  reversed: number
  repainted: number
}

/**
 * Removes marks from RGB pixels.
 *
 * @throws {AiError} `invalid_param` when there is no box and more than `MAX_REPAINT_SHARE` of
 * the image would be repainted.
 */
export async function removeMarks(
  image: AiImage,
  request: MarkRequest,
  repaint: Repaint,
): Promise<MarkRemoval> {
  const { width, height } = image
  const area = width * height
  const boxes = request.boxes.filter((box) => box.width > 0 && box.height > 0)
  const whole = boxes.length === 0 || boxes.some((box) => box.width * box.height >= WHOLE * area)
  const holes = new Uint8Array(area)
  // Each region is judged on its own (a caption is opaque, a tiled mark beside it is not), but
  // the regions of a tiled mark's rows together: one mark, one colour and one opacity.
  const regions: { pixels: Int32Array; tiled: boolean }[] = []
  const lines = request.lines ?? []
  const heights = lines.map(lineHeight)
  const rows = request.lines === undefined ? undefined : markRows(lines)
  const read = lines.filter((_, index) => rows?.members.includes(index))
  const areas = whole ? [{ left: 0, top: 0, width, height }] : boxes
  for (const box of areas) {
    if (request.lines === undefined && !request.logo) {
      fill(holes, width, box)
      continue
    }
    // Without a box, a logo is looked for beside the text only (a © next to its words), or, with
    // no text, anywhere; in a box, it is whatever differs from the box filled from its
    // surroundings (logoHoles).
    if (request.logo && whole && request.lines === undefined) {
      regions.push({ pixels: boxPixels(box, width), tiled: false })
    }
    lines.forEach((line, index) => {
      const quad = lineRegion(line, heights[index] as number)
      const pixels = quadPixels(width, height, quad, box)
      if (pixels.length > 0) regions.push({ pixels, tiled: read.includes(line) })
    })
  }
  const grey = (await toImage(open(image).greyscale().toColourspace('b-w'))).data
  const tallest = Math.max(0, ...heights)
  const window = Math.min(51, Math.max(MEDIAN, Math.round((tallest * 2) / 3)) | 1)
  const background = (await toImage(open(image).greyscale().median(window).toColourspace('b-w')))
    .data
  // The rows the OCR did not read are followed from those it did (mark-rows.ts), where they hold
  // strokes of the mark's colour: white or black, as most of the rows read hold. A piece is as
  // tall as the rows read, with no margin: the OCR's own boxes already have one.
  const sign = markSign(grey, background, regions)
  if (rows !== undefined) {
    const stroke = new Uint8Array(area)
    for (let i = 0; i < area; i++) {
      if (sign * ((grey[i] as number) - (background[i] as number)) >= CONTRAST) stroke[i] = 1
    }
    for (const piece of rowPieces(rows, stroke, width, height, read)) {
      for (const box of areas) {
        const pixels = quadPixels(width, height, piece, box)
        if (pixels.length > 0) regions.push({ pixels, tiled: true })
      }
    }
  }
  const found = regions.map(({ pixels, tiled }) =>
    strokes(grey, background, pixels, tiled ? sign : undefined),
  )
  const markOpacity = estimateOpacity(
    grey,
    background,
    found.flatMap((region, index) => (regions[index]?.tiled ? region.pixels : [])),
    sign,
  )
  const all = new Uint8Array(area)
  for (const { pixels } of found) for (const i of pixels) all[i] = 255
  const core = await shrink(all, width, height)
  // A logo looked for across the whole image has no text to tell its strokes from the photo's
  // own light or dark detail: it is taken as opaque, so the repaint limit applies to it.
  const logoOnly = request.logo && whole && request.lines === undefined
  const out = Uint8Array.from(image.data)
  const done = new Uint8Array(area)
  const opaque = new Uint8Array(area)
  let reversed = 0
  let opacity = 0
  for (const [index, region] of found.entries()) {
    const own = logoOnly
      ? Number(region.pixels.length > 0)
      : regions[index]?.tiled
        ? markOpacity
        : estimateOpacity(grey, background, region.pixels, region.sign)
    opacity = Math.max(opacity, own)
    if (own >= OPAQUE) for (const i of region.pixels) opaque[i] = 255
    else if (own > 0) {
      reversed += reverse(image, out, background, grey, { ...region, done }, core, own)
    }
  }
  if (opacity >= OPAQUE) {
    // Opaque strokes and their soft edges are repainted.
    const grown = await grow(opaque, width, height, 3)
    for (let i = 0; i < area; i++) if ((grown[i] as number) > 0) holes[i] = 255
  }
  if (request.logo && !whole) {
    for (const box of boxes) await logoHoles(image, box, holes, repaint)
  }
  let repainted = 0
  for (let i = 0; i < area; i++) if ((holes[i] as number) > 0) repainted++
  if (whole && repainted > MAX_REPAINT_SHARE * area) {
    const percent = (100 * repainted) / area
    throw new AiError(
      'invalid_param',
      AI_MESSAGES.markTooLarge(request.key, 'repaint', percent, 100 * MAX_REPAINT_SHARE),
    )
  }
  if (whole && reversed > MAX_CHANGE_SHARE * area) {
    const percent = (100 * reversed) / area
    throw new AiError(
      'invalid_param',
      AI_MESSAGES.markTooLarge(request.key, 'change', percent, 100 * MAX_CHANGE_SHARE),
    )
  }
  const result = { ...image, data: out }
  if (repainted === 0) return { image: result, opacity, reversed, repainted }
  return { image: await repaint(result, holes), opacity, reversed, repainted }
}

type Quad = readonly (readonly [number, number])[]

function lineHeight(polygon: Quad): number {
  const [a = [0, 0], , , d = [0, 0]] = polygon
  return Math.hypot(d[0] - a[0], d[1] - a[1])
}

// A mark sits beside its text (the © of "© SAMPLE" is rarely read as a letter): the line's
// region reaches one and a half line heights further along the line at each end, and a
// quarter of a height above and below — along the line's own slant (a tiled stock-photo mark
// is rotated), so little of the photo around it is included.
function lineRegion(polygon: Quad, height: number): Quad {
  const [a = [0, 0], b = [0, 0], , d = [0, 0]] = polygon
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1
  const across = height || 1
  const u = [(b[0] - a[0]) / length, (b[1] - a[1]) / length]
  const v = [(d[0] - a[0]) / across, (d[1] - a[1]) / across]
  const side = height * SIDE
  const pad = height / 4
  const at = (s: number, t: number): [number, number] => [
    a[0] + (u[0] as number) * s + (v[0] as number) * t,
    a[1] + (u[1] as number) * s + (v[1] as number) * t,
  ]
  return [
    at(-side, -pad),
    at(length + side, -pad),
    at(length + side, across + pad),
    at(-side, across + pad),
  ]
}

/** The pixels of a convex quadrilateral (clockwise, in image y-down terms) within `box`. */
function quadPixels(width: number, height: number, quad: Quad, box: Box): Int32Array {
  const xs = quad.map(([x]) => x)
  const ys = quad.map(([, y]) => y)
  const left = Math.max(box.left, Math.floor(Math.min(...xs)), 0)
  const right = Math.min(box.left + box.width, Math.ceil(Math.max(...xs)), width)
  const top = Math.max(box.top, Math.floor(Math.min(...ys)), 0)
  const bottom = Math.min(box.top + box.height, Math.ceil(Math.max(...ys)), height)
  const pixels: number[] = []
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      let inside = true
      for (let k = 0; k < quad.length && inside; k++) {
        const [x0, y0] = quad[k] as readonly [number, number]
        const [x1, y1] = quad[(k + 1) % quad.length] as readonly [number, number]
        inside = (x1 - x0) * (y + 0.5 - y0) - (y1 - y0) * (x + 0.5 - x0) >= 0
      }
      if (inside) pixels.push(y * width + x)
    }
  }
  return Int32Array.from(pixels)
}

function boxPixels(box: Box, width: number): Int32Array {
  const pixels = new Int32Array(box.width * box.height)
  let at = 0
  for (let y = box.top; y < box.top + box.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) pixels[at++] = y * width + x
  }
  return pixels
}

/** How many more of a region's pixels stand out lighter than darker from the background. */
function lightness(grey: Uint8Array, background: Uint8Array, region: Int32Array): number {
  let lighter = 0
  for (const i of region) {
    const difference = (grey[i] as number) - (background[i] as number)
    if (difference >= CONTRAST) lighter++
    else if (difference <= -CONTRAST) lighter--
  }
  return lighter
}

/** A tiled mark's colour, white (1) or black (−1): what most of its rows read stand out as (one
 * row over a dark part of the photo may hold more of the photo's dark detail than of the mark). */
function markSign(
  grey: Uint8Array,
  background: Uint8Array,
  regions: readonly { pixels: Int32Array; tiled: boolean }[],
): number {
  let lighter = 0
  for (const { pixels, tiled } of regions) if (tiled) lighter += lightness(grey, background, pixels)
  return lighter >= 0 ? 1 : -1
}

/**
 * The pixels of a region that stand out from the median background: lighter (a white mark) or
 * darker, whichever the region holds more of (or as `sign` says), so the photo's own detail of
 * the other sign stays.
 */
function strokes(grey: Uint8Array, background: Uint8Array, region: Int32Array, sign?: number) {
  sign ??= lightness(grey, background, region) >= 0 ? 1 : -1
  const pixels: number[] = []
  for (const i of region) {
    if (sign * ((grey[i] as number) - (background[i] as number)) >= CONTRAST) pixels.push(i)
  }
  return { pixels, sign }
}

/**
 * The mark's opacity: over its stroke pixels, how far each moved from its background towards
 * white (a lighter mark) or black, as a share of the way there, where the way is long enough to
 * measure. Soft edges and the photo's own detail move less than the mark's inside, so the upper
 * quartile is taken. 0 when nothing was found.
 */
function estimateOpacity(
  grey: Uint8Array,
  background: Uint8Array,
  strokes: readonly number[],
  sign: number,
): number {
  const shares: number[] = []
  const target = sign > 0 ? 255 : 0
  for (const i of strokes) {
    const way = target - (background[i] as number)
    if (Math.abs(way) < 48) continue
    shares.push(((grey[i] as number) - (background[i] as number)) / way)
  }
  if (shares.length === 0) return 0
  shares.sort((a, b) => a - b)
  return Math.max(0, Math.min(1, shares[Math.floor(shares.length * 0.75)] as number))
}

/**
 * Undoes a blend with white (or black) at `opacity` on the stroke pixels: inner pixels with
 * the mark's opacity (which keeps the photo's texture under them), edge pixels with their own,
 * no more than the mark's. A pixel the blend cannot have made (darker than the mark's colour
 * times its opacity) is left alone. Returns how many pixels changed.
 */
function reverse(
  image: AiImage,
  out: Uint8Array,
  background: Uint8Array,
  grey: Uint8Array,
  found: { pixels: readonly number[]; sign: number; done: Uint8Array },
  core: Uint8Array,
  opacity: number,
): number {
  const colour = found.sign > 0 ? 255 : 0
  let changed = 0
  for (const i of found.pixels) {
    // Regions overlap where lines are close: a pixel is reversed once.
    if (found.done[i] === 1) continue
    let alpha = opacity
    if (core[i] === 0) {
      const way = colour - (background[i] as number)
      const own = way === 0 ? 0 : ((grey[i] as number) - (background[i] as number)) / way
      alpha = Math.max(0, Math.min(opacity, own))
    }
    if (alpha <= 0) continue
    const values = [0, 1, 2].map(
      (c) => ((image.data[3 * i + c] as number) - alpha * colour) / (1 - alpha),
    )
    if (values.some((value) => value < -24 || value > 279)) continue
    // Under a mark, the photo is like its neighbourhood; a pixel the reversal takes far from
    // it was the photo's own light (or dark) detail, not the mark.
    const [r = 0, g = 0, b = 0] = values
    if (Math.abs(0.299 * r + 0.587 * g + 0.114 * b - (background[i] as number)) > NEAR) continue
    for (let c = 0; c < 3; c++) {
      out[3 * i + c] = Math.max(0, Math.min(255, Math.round(values[c] as number)))
    }
    found.done[i] = 1
    changed++
  }
  return changed
}

/**
 * Adds to `holes` the logo inside a box the user gave: the pixels that differ from the box
 * filled from its surroundings (so the logo's whole body, not only its outline), grown by two
 * pixels; the photo inside the box that matches its surroundings stays.
 */
async function logoHoles(image: AiImage, box: Box, holes: Uint8Array, repaint: Repaint) {
  const { width, height } = image
  const whole = new Uint8Array(width * height)
  fill(whole, width, box)
  const filled = await repaint(image, whole)
  const differs = new Uint8Array(width * height)
  for (let y = box.top; y < box.top + box.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) {
      const i = y * width + x
      let most = 0
      for (let c = 0; c < 3; c++) {
        most = Math.max(
          most,
          Math.abs((image.data[3 * i + c] as number) - (filled.data[3 * i + c] as number)),
        )
      }
      if (most >= LOGO_CONTRAST) differs[i] = 255
    }
  }
  const grown = await grow(differs, width, height, 2)
  for (let y = box.top; y < box.top + box.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) {
      if ((grown[y * width + x] as number) > 0) holes[y * width + x] = 255
    }
  }
}

// libvips' morphology takes black as the foreground: `erode` grows white, `dilate` shrinks it.
async function grow(mask: Uint8Array, width: number, height: number, by: number) {
  return (
    await toImage(open({ data: mask, width, height, channels: 1 }).erode(by).toColourspace('b-w'))
  ).data
}

async function shrink(mask: Uint8Array, width: number, height: number) {
  return (
    await toImage(open({ data: mask, width, height, channels: 1 }).dilate(1).toColourspace('b-w'))
  ).data
}

function fill(mask: Uint8Array, width: number, box: Box): void {
  for (let y = box.top; y < box.top + box.height; y++) {
    mask.fill(255, y * width + box.left, y * width + box.left + box.width)
  }
}
