/** A resize fit, as sharp and the language name it. */
export type Fit = 'cover' | 'contain' | 'fill' | 'inside' | 'outside'

/** A width and a height in pixels. */
export interface Size {
  width: number
  height: number
}

/** A rectangle in pixels: left, top, width, height. */
export interface Region extends Size {
  left: number
  top: number
}

/**
 * The size sharp gives an image of `width`×`height` resized to `targetWidth`×`targetHeight`
 * (0 = derived from the aspect ratio) with `fit`. Mirrors sharp's ResolveShrink and libvips'
 * rounding, so steps after a resize in the same pipeline know the exact size.
 */
export function resizedSize(
  width: number,
  height: number,
  targetWidth: number,
  targetHeight: number,
  fit: Fit,
): Size {
  if (targetWidth <= 0 && targetHeight <= 0) return { width, height }
  let hshrink = 1
  let vshrink = 1
  if (targetWidth > 0 && targetHeight > 0) {
    hshrink = width / targetWidth
    vshrink = height / targetHeight
    if (fit === 'cover' || fit === 'outside') {
      if (hshrink < vshrink) vshrink = hshrink
      else hshrink = vshrink
    } else if (fit === 'contain' || fit === 'inside') {
      if (hshrink > vshrink) vshrink = hshrink
      else hshrink = vshrink
    }
  } else if (targetWidth > 0) {
    hshrink = width / targetWidth
    if (fit !== 'fill') vshrink = hshrink
  } else {
    vshrink = height / targetHeight
    if (fit !== 'fill') hshrink = vshrink
  }
  hshrink = Math.min(hshrink, width)
  vshrink = Math.min(vshrink, height)
  const resizedWidth = Math.round(width * (1 / hshrink))
  const resizedHeight = Math.round(height * (1 / vshrink))
  const pick = (target: number, resized: number) => {
    if (target <= 0) return resized
    if (fit === 'cover') return Math.min(target, resized)
    if (fit === 'contain') return Math.max(target, resized)
    return fit === 'fill' ? target : resized
  }
  return { width: pick(targetWidth, resizedWidth), height: pick(targetHeight, resizedHeight) }
}

/**
 * Intersects `region` with an image of `size`.
 *
 * @returns undefined when nothing of the region lies inside the image.
 */
export function clampRegion(region: Region, size: Size): Region | undefined {
  const left = Math.max(0, region.left)
  const top = Math.max(0, region.top)
  const right = Math.min(size.width, region.left + region.width)
  const bottom = Math.min(size.height, region.top + region.height)
  if (right <= left || bottom <= top) return undefined
  return { left, top, width: right - left, height: bottom - top }
}

/** Compass gravities of overlays and crops. */
export type Gravity =
  | 'northwest'
  | 'north'
  | 'northeast'
  | 'west'
  | 'center'
  | 'east'
  | 'southwest'
  | 'south'
  | 'southeast'

/** Where an `inner` rectangle sits inside (or around) an `outer` one at `gravity`. */
export function placeAt(gravity: Gravity, outer: Size, inner: Size): { left: number; top: number } {
  const horizontal = gravity.endsWith('west') ? 0 : gravity.endsWith('east') ? 2 : 1
  const vertical = gravity.startsWith('north') ? 0 : gravity.startsWith('south') ? 2 : 1
  return {
    left: Math.floor(((outer.width - inner.width) * horizontal) / 2),
    top: Math.floor(((outer.height - inner.height) * vertical) / 2),
  }
}

/** The bounding box of `size` rotated by `degrees`, rounded up. */
export function rotatedSize(size: Size, degrees: number): Size {
  const radians = (degrees * Math.PI) / 180
  const cos = Math.abs(Math.cos(radians))
  const sin = Math.abs(Math.sin(radians))
  return {
    width: Math.ceil(size.width * cos + size.height * sin),
    height: Math.ceil(size.width * sin + size.height * cos),
  }
}
