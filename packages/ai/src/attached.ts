// What the subject holds, on a plain backdrop. ISNet is a salient-object model: a box held out
// by a person is "another object" and is dropped (bench/ai-quality: the box and the arm holding
// it, IoU 0.77). On a studio backdrop (one colour, as product and catalogue shots are) nothing
// but the backdrop is background, so whatever differs from it and touches the subject is kept
// with it. Shadows (the backdrop's own colour, darker) stay background. Busy backgrounds are left
// to the model: there "unlike the background" says nothing.
import type { AiImage } from './image.ts'
import { boxMean } from './matte.ts'

/** A backdrop is plain when this share of its border lies within TOLERANCE of one colour. */
const PLAIN_SHARE = 0.95
const TOLERANCE = 14
/** A pixel differs from the backdrop by more than this (any channel) to be something else. */
const DIFFERENT = 16
/** A shadow keeps the backdrop's chromaticity: channel ratios within this of their mean. */
const SHADOW_CHROMA = 0.07
/** A kept region is at least this share of the image (specks and edge fringes are not). */
const MIN_REGION = 0.004

/** The backdrop's colour when the background along the image's border is plain, else undefined. */
export function plainBackdrop(image: AiImage, mask: Uint8Array): number[] | undefined {
  const { width, height, data } = image
  const n = width * height
  const subject = new Float32Array(n)
  for (let i = 0; i < n; i++) subject[i] = (mask[i] as number) >= 8 ? 1 : 0
  // The border band, away from anything the model marked: what is there is the backdrop (a held
  // object rarely reaches the frame's edge; anywhere else it would count against a plain one).
  const near = boxMean(
    subject,
    width,
    height,
    Math.max(2, Math.round(Math.max(width, height) / 50)),
  )
  const band = Math.max(2, Math.round(Math.min(width, height) / 16))
  const histograms = [0, 1, 2].map(() => new Float64Array(256))
  const border: number[] = []
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x >= band && x < width - band && y >= band && y < height - band) continue
      const i = y * width + x
      if ((near[i] as number) > 0) continue
      border.push(i)
      for (let c = 0; c < 3; c++) {
        const h = histograms[c] as Float64Array
        const v = data[3 * i + c] as number
        h[v] = (h[v] as number) + 1
      }
    }
  }
  // Too little border left (a subject filling the frame): nothing to judge by.
  if (border.length < 0.02 * n) return undefined
  const colour = histograms.map((h) => {
    let seen = 0
    for (let v = 0; v < 256; v++) {
      seen += h[v] as number
      if (seen >= border.length / 2) return v
    }
    return 255
  })
  let close = 0
  for (const i of border) if (distance(data, i, colour) <= TOLERANCE) close++
  return close >= PLAIN_SHARE * border.length ? colour : undefined
}

function distance(data: Uint8Array, i: number, colour: readonly number[]): number {
  return Math.max(
    Math.abs((data[3 * i] as number) - (colour[0] as number)),
    Math.abs((data[3 * i + 1] as number) - (colour[1] as number)),
    Math.abs((data[3 * i + 2] as number) - (colour[2] as number)),
  )
}

function isShadow(data: Uint8Array, i: number, colour: readonly number[]): boolean {
  const r = ((data[3 * i] as number) + 1) / ((colour[0] as number) + 1)
  const g = ((data[3 * i + 1] as number) + 1) / ((colour[1] as number) + 1)
  const b = ((data[3 * i + 2] as number) + 1) / ((colour[2] as number) + 1)
  const mean = (r + g + b) / 3
  return (
    mean < 1 &&
    Math.abs(r - mean) < SHADOW_CHROMA &&
    Math.abs(g - mean) < SHADOW_CHROMA &&
    Math.abs(b - mean) < SHADOW_CHROMA
  )
}

/**
 * The mask with what the subject holds added: on a plain backdrop, each region of pixels unlike
 * the backdrop that the model left out, touches the subject and is not only shadow becomes
 * subject. The mask is returned unchanged on a busy background. RGB image, mask the same size.
 */
export function keepAttached(image: AiImage, mask: Uint8Array): Uint8Array {
  const { width, height, data } = image
  const n = width * height
  const colour = plainBackdrop(image, mask)
  if (colour === undefined) return mask
  // 1: unlike the backdrop; 2: unlike it but shadow-like (an arm of grey cloth is too, so a
  // shadow-like region may join the subject only as the bridge to something that is not).
  const candidate = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    // The model's own soft edge (≥ 8) is not a candidate: its fringe would join every region.
    if ((mask[i] as number) >= 8 || distance(data, i, colour) <= DIFFERENT) continue
    candidate[i] = isShadow(data, i, colour) ? 2 : 1
  }
  const solid = new Float32Array(n)
  for (let i = 0; i < n; i++) solid[i] = (mask[i] as number) >= 128 ? 1 : 0
  // Touching: within a few pixels of the subject (the soft edge lies between them).
  const touching = boxMean(solid, width, height, Math.max(3, Math.round(width / 100)))
  const out = Uint8Array.from(mask)
  const seen = new Uint8Array(n)
  const stack = new Int32Array(n)
  const region: number[] = []
  for (let start = 0; start < n; start++) {
    if (candidate[start] === 0 || seen[start] === 1) continue
    let top = 0
    stack[top++] = start
    seen[start] = 1
    region.length = 0
    let touches = false
    let solidPixels = 0
    while (top > 0) {
      const i = stack[--top] as number
      region.push(i)
      if ((touching[i] as number) > 0) touches = true
      if (candidate[i] === 1) solidPixels++
      const x = i % width
      for (const j of [i - width, i + width, x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1]) {
        if (j < 0 || j >= n || candidate[j] === 0 || seen[j] === 1) continue
        seen[j] = 1
        stack[top++] = j
      }
    }
    if (!touches || solidPixels < MIN_REGION * n) continue
    for (const i of region) out[i] = 255
  }
  return out
}
