// Turning ISNet's soft mask into a cut-out a user keeps: the mask's edges follow the image
// (a guided filter), a "ghost" mask (mostly semi-transparent, as ISNet gives for a product that
// fills the frame) is binarised and refined instead of used as is, and the colours of edge
// pixels lose the old background (blur-fusion foreground estimation). Pure pixel math on typed
// arrays: it runs in the ISNet worker thread, next to the model, never on the event loop.
import { keepAttached } from './attached.ts'
import type { AiImage } from './image.ts'

/** A semi-transparent pixel of a mask: neither clearly background nor clearly subject. */
const SEMI_LOW = 16
const SEMI_HIGH = 240
/** Guided-filter values within this of 0 or 1 become 0 or 1. */
const STRETCH = 0.06
/** A mask whose visible part is more than this share semi-transparent is a ghost. */
export const GHOST_SHARE = 0.2

/**
 * Box mean of a plane over a (2r+1)² window clipped at the borders: a sliding sum along each row,
 * then one down the columns kept as a running row of sums (both passes read memory in order).
 */
export function boxMean(
  src: Float32Array,
  width: number,
  height: number,
  r: number,
): Float32Array<ArrayBuffer> {
  const rows = new Float32Array(width * height)
  for (let y = 0; y < height; y++) {
    const at = y * width
    let sum = 0
    for (let x = 0; x < Math.min(r, width); x++) sum += src[at + x] as number
    for (let x = 0; x < width; x++) {
      if (x + r < width) sum += src[at + x + r] as number
      if (x - r - 1 >= 0) sum -= src[at + x - r - 1] as number
      const count = Math.min(width - 1, x + r) - Math.max(0, x - r) + 1
      rows[at + x] = sum / count
    }
  }
  const out = new Float32Array(width * height)
  const column = new Float64Array(width)
  for (let y = 0; y < Math.min(r, height); y++) {
    const at = y * width
    for (let x = 0; x < width; x++) column[x] = (column[x] as number) + (rows[at + x] as number)
  }
  for (let y = 0; y < height; y++) {
    if (y + r < height) {
      const at = (y + r) * width
      for (let x = 0; x < width; x++) column[x] = (column[x] as number) + (rows[at + x] as number)
    }
    if (y - r - 1 >= 0) {
      const at = (y - r - 1) * width
      for (let x = 0; x < width; x++) column[x] = (column[x] as number) - (rows[at + x] as number)
    }
    const count = Math.min(height - 1, y + r) - Math.max(0, y - r) + 1
    const at = y * width
    for (let x = 0; x < width; x++) out[at + x] = (column[x] as number) / count
  }
  return out
}

/** The share of a mask's visible pixels (≥ 16) that are semi-transparent (16–239). */
export function semiShare(mask: Uint8Array): number {
  let visible = 0
  let semi = 0
  for (const value of mask) {
    if (value < SEMI_LOW) continue
    visible++
    if (value < SEMI_HIGH) semi++
  }
  return visible === 0 ? 0 : semi / visible
}

/** Otsu's threshold of a mask: the split that best separates its values into two groups. */
export function otsu(mask: Uint8Array): number {
  const histogram = new Float64Array(256)
  let count = 0
  for (const value of mask) {
    histogram[value] = (histogram[value] as number) + 1
    count++
  }
  if (count === 0) return 128
  let total = 0
  for (let v = 0; v < 256; v++) total += v * (histogram[v] as number)
  let below = 0
  let belowSum = 0
  let best = 128
  let bestScore = -1
  for (let t = 0; t < 256; t++) {
    below += histogram[t] as number
    belowSum += t * (histogram[t] as number)
    const low = below
    const high = count - below
    if (low === 0 || high === 0) continue
    const meanLow = belowSum / low
    const meanHigh = (total - belowSum) / high
    const score = low * high * (meanLow - meanHigh) ** 2
    if (score > bestScore) {
      bestScore = score
      best = t
    }
  }
  return best + 1
}

/**
 * A ghost mask made usable: pixels at or above Otsu's threshold of its values become
 * subject, the rest background (the edges are softened again by `refineMask`).
 */
export function unghost(mask: Uint8Array): Uint8Array {
  const threshold = Math.min(200, Math.max(40, otsu(mask)))
  const out = new Uint8Array(mask.length)
  for (let i = 0; i < mask.length; i++) out[i] = (mask[i] as number) >= threshold ? 255 : 0
  return out
}

function colourPlanes(image: AiImage): Float32Array<ArrayBuffer>[] {
  const { data, channels } = image
  const n = image.width * image.height
  const planes: Float32Array<ArrayBuffer>[] = []
  for (let c = 0; c < 3; c++) {
    const plane = new Float32Array(n)
    const from = channels < 3 ? 0 : c
    for (let i = 0; i < n; i++) plane[i] = (data[i * channels + from] as number) / 255
    planes.push(plane)
  }
  return planes
}

/**
 * Refines a mask's edges with a guided filter over the image's colours (He et al., the colour
 * version: an edge between two colours of equal brightness still guides it): near an edge the
 * mask becomes a local linear function of the colour, so it follows the subject's real outline
 * at the image's resolution instead of the model's blurred 1024² one. Pixels away from any
 * edge keep the mask's value.
 */
export function refineMask(image: AiImage, mask: Uint8Array): Uint8Array {
  const { width, height } = image
  const n = width * height
  // Wider than the model's own blur at this size (it sees a 1024² copy).
  const r = Math.max(4, Math.round(Math.max(width, height) / 128))
  const eps = 1e-3
  const box = (plane: Float32Array) => boxMean(plane, width, height, r)
  const [red, green, blue] = colourPlanes(image) as [Float32Array, Float32Array, Float32Array]
  const p = new Float32Array(n)
  for (let i = 0; i < n; i++) p[i] = (mask[i] as number) / 255
  const meanP = box(p)
  const product = (x: Float32Array, y: Float32Array) => {
    const out = new Float32Array(n)
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) * (y[i] as number)
    return box(out)
  }
  const [mr, mg, mb] = [box(red), box(green), box(blue)]
  const [pr, pg, pb] = [product(red, p), product(green, p), product(blue, p)]
  const [rr, rg, rb] = [product(red, red), product(red, green), product(red, blue)]
  const [gg, gb, bb] = [product(green, green), product(green, blue), product(blue, blue)]
  const [ar, ag, ab, b] = [0, 1, 2, 3].map(() => new Float32Array(n)) as [
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
  ]
  for (let i = 0; i < n; i++) {
    const m = meanP[i] as number
    const [ur, ug, ub] = [mr[i] as number, mg[i] as number, mb[i] as number]
    // The covariance of the colours in the window (plus eps) and their covariance with p.
    const srr = (rr[i] as number) - ur * ur + eps
    const srg = (rg[i] as number) - ur * ug
    const srb = (rb[i] as number) - ur * ub
    const sgg = (gg[i] as number) - ug * ug + eps
    const sgb = (gb[i] as number) - ug * ub
    const sbb = (bb[i] as number) - ub * ub + eps
    const cr = (pr[i] as number) - ur * m
    const cg = (pg[i] as number) - ug * m
    const cb = (pb[i] as number) - ub * m
    // a = c · Σ⁻¹, by the adjugate of the symmetric 3×3 Σ.
    const i00 = sgg * sbb - sgb * sgb
    const i01 = srb * sgb - srg * sbb
    const i02 = srg * sgb - srb * sgg
    const i11 = srr * sbb - srb * srb
    const i12 = srb * srg - srr * sgb
    const i22 = srr * sgg - srg * srg
    const det = srr * i00 + srg * i01 + srb * i02
    const x = (cr * i00 + cg * i01 + cb * i02) / det
    const y = (cr * i01 + cg * i11 + cb * i12) / det
    const z = (cr * i02 + cg * i12 + cb * i22) / det
    ar[i] = x
    ag[i] = y
    ab[i] = z
    b[i] = m - x * ur - y * ug - z * ub
  }
  const [qar, qag, qab, qb] = [box(ar), box(ag), box(ab), box(b)]
  // Only where the mask changes within the window (its box mean is neither 0 nor 1).
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const m = meanP[i] as number
    if (m <= 0.002 || m >= 0.998) {
      const value = mask[i] as number
      out[i] = value < 8 ? 0 : value > 247 ? 255 : value
      continue
    }
    const q =
      (qar[i] as number) * (red[i] as number) +
      (qag[i] as number) * (green[i] as number) +
      (qab[i] as number) * (blue[i] as number) +
      (qb[i] as number)
    // The averaged linear fits leave a faint tail on both sides of an edge: stretched away.
    const value = Math.round(Math.min(1, Math.max(0, (q - STRETCH) / (1 - 2 * STRETCH))) * 255)
    out[i] = value < 8 ? 0 : value > 247 ? 255 : value
  }
  return out
}

/**
 * The subject's own colours where it is semi-transparent, without the old background that the
 * photo mixed in (hair keeps its colour, not a halo of the backdrop): Forte and Pitié's
 * blur-fusion foreground estimate, from wide passes to narrow ones. RGB, the image's size;
 * fully opaque pixels keep their colour exactly.
 */
export function foregroundColours(image: AiImage, alpha: Uint8Array): Buffer {
  const { width, height, channels } = image
  const n = width * height
  const a = new Float32Array(n)
  for (let i = 0; i < n; i++) a[i] = (alpha[i] as number) / 255
  const planes = colourPlanes(image)
  const side = Math.max(width, height)
  let f = planes.map((plane) => Float32Array.from(plane))
  let back = planes.map((plane) => Float32Array.from(plane))
  for (const r of RADII.map((share) => Math.max(2, Math.round(side * share)))) {
    const meanA = boxMean(a, width, height, r)
    const nextF: Float32Array<ArrayBuffer>[] = []
    const nextB: Float32Array<ArrayBuffer>[] = []
    for (let c = 0; c < 3; c++) {
      const fa = new Float32Array(n)
      const b1a = new Float32Array(n)
      const fc = f[c] as Float32Array
      const bc = back[c] as Float32Array
      for (let i = 0; i < n; i++) {
        fa[i] = (fc[i] as number) * (a[i] as number)
        b1a[i] = (bc[i] as number) * (1 - (a[i] as number))
      }
      const meanFa = boxMean(fa, width, height, r)
      const meanB1a = boxMean(b1a, width, height, r)
      const plane = planes[c] as Float32Array
      const outF = new Float32Array(n)
      const outB = new Float32Array(n)
      for (let i = 0; i < n; i++) {
        const ma = meanA[i] as number
        const blurredF = (meanFa[i] as number) / (ma + 1e-5)
        const blurredB = (meanB1a[i] as number) / (1 - ma + 1e-5)
        const ai = a[i] as number
        const value = blurredF + ai * ((plane[i] as number) - ai * blurredF - (1 - ai) * blurredB)
        outF[i] = Math.min(1, Math.max(0, value))
        outB[i] = blurredB
      }
      nextF.push(outF)
      nextB.push(outB)
    }
    f = nextF
    back = nextB
  }
  const out = Buffer.alloc(n * 3)
  for (let i = 0; i < n; i++) {
    const opaque = (alpha[i] as number) === 255
    for (let c = 0; c < 3; c++) {
      const from = channels < 3 ? 0 : c
      out[3 * i + c] = opaque
        ? (image.data[i * channels + from] as number)
        : Math.round(((f[c] as Float32Array)[i] as number) * 255)
    }
  }
  return out
}

// The blur radii of the foreground estimate's passes, wide to narrow, as shares of the image's
// longer side: four passes took the halo of a soft 12-px edge from 75 to 13 levels (two, as
// in the paper, to 37).
const RADII = [1 / 4, 1 / 16, 1 / 64, 1 / 170]

/** What `cutoutMatte` gives back: alpha and de-contaminated colours at the image's size. */
export interface Matte {
  alpha: Uint8Array
  /** RGB, three bytes per pixel (a Uint8Array once it has crossed from the worker). */
  colour: Uint8Array
  /** Whether the model's mask was a ghost and was binarised before refining. */
  ghost: boolean
}

/** The cut-out of an RGB image from the model's mask at the same size. */
export function cutoutMatte(image: AiImage, mask: Uint8Array): Matte {
  const ghost = semiShare(mask) > GHOST_SHARE
  // What the subject holds, on a plain backdrop (attached.ts), before the edges are refined.
  const alpha = refineMask(image, keepAttached(image, ghost ? unghost(mask) : mask))
  return { alpha, colour: foregroundColours(image, alpha), ghost }
}
