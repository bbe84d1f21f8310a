// Measures against ground truth, shared by the areas of the AI quality benchmark. Areas add
// their own measures in their own files; only measures more than one area uses belong here.

/** Peak signal-to-noise ratio in dB of two 8-bit buffers of the same layout, over `mask`
 * (one byte per pixel, non-zero = counted) when given; `Infinity` when they are equal. */
export function psnr(a: Uint8Array, b: Uint8Array, channels: number, mask?: Uint8Array): number {
  if (a.length !== b.length) throw new Error('psnr: buffers differ in size')
  let sum = 0
  let count = 0
  for (let pixel = 0; pixel * channels < a.length; pixel += 1) {
    if (mask !== undefined && mask[pixel] === 0) continue
    for (let c = 0; c < channels; c += 1) {
      const at = pixel * channels + c
      const d = (a[at] ?? 0) - (b[at] ?? 0)
      sum += d * d
      count += 1
    }
  }
  if (count === 0) return Number.NaN
  const mse = sum / count
  return mse === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / mse)
}

/** Intersection over union of two masks (one byte per pixel), each binarised at `threshold`. */
export function maskIou(a: Uint8Array, b: Uint8Array, threshold = 128): number {
  let inter = 0
  let union = 0
  for (let i = 0; i < a.length; i += 1) {
    const x = (a[i] ?? 0) >= threshold
    const y = (b[i] ?? 0) >= threshold
    if (x && y) inter += 1
    if (x || y) union += 1
  }
  return union === 0 ? 1 : inter / union
}

/** Mean absolute difference of two masks, 0–1. */
export function meanAbsError(a: Uint8Array, b: Uint8Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i += 1) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0))
  return a.length === 0 ? 0 : sum / a.length / 255
}

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

/** Intersection over union of two boxes. */
export function boxIou(a: Box, b: Box): number {
  const left = Math.max(a.x, b.x)
  const top = Math.max(a.y, b.y)
  const right = Math.min(a.x + a.width, b.x + b.width)
  const bottom = Math.min(a.y + a.height, b.y + b.height)
  const inter = Math.max(0, right - left) * Math.max(0, bottom - top)
  const union = a.width * a.height + b.width * b.height - inter
  return union <= 0 ? 0 : inter / union
}

/** Greedy matching of predicted boxes to truth boxes at `minIou`: recall, precision and the
 * IoU of each matched truth box (0 when missed). */
export function matchBoxes(
  truth: readonly Box[],
  predicted: readonly Box[],
  minIou = 0.5,
): { recall: number; precision: number; ious: number[] } {
  const used = new Set<number>()
  const ious = truth.map((t) => {
    let best = -1
    let bestIou = 0
    predicted.forEach((p, index) => {
      if (used.has(index)) return
      const iou = boxIou(t, p)
      if (iou > bestIou) {
        best = index
        bestIou = iou
      }
    })
    if (best >= 0 && bestIou >= minIou) {
      used.add(best)
      return bestIou
    }
    return 0
  })
  const hits = ious.filter((iou) => iou > 0).length
  return {
    recall: truth.length === 0 ? 1 : hits / truth.length,
    precision: predicted.length === 0 ? 1 : used.size / predicted.length,
    ious,
  }
}

/** Prints rows as a markdown table (the figures go in docs/benchmarks.md as printed). */
export function printRows(rows: readonly Record<string, string | number>[]): void {
  const first = rows[0]
  if (first === undefined) return
  const columns = Object.keys(first)
  const cell = (value: string | number | undefined) =>
    typeof value === 'number'
      ? Number.isInteger(value)
        ? String(value)
        : value.toFixed(3)
      : (value ?? '')
  console.log(`| ${columns.join(' | ')} |`)
  console.log(`| ${columns.map(() => '---').join(' | ')} |`)
  for (const row of rows) console.log(`| ${columns.map((c) => cell(row[c])).join(' | ')} |`)
}

/**
 * The band around a mask's edge (one byte per pixel, 1 = in the band): every pixel within
 * `radius` pixels (a square window) of both a pixel at or above `threshold` and one below it.
 * Errors there are what a viewer sees of a cut-out; errors inside or far outside hide them.
 */
export function edgeBand(
  mask: Uint8Array,
  width: number,
  height: number,
  radius: number,
  threshold = 128,
): Uint8Array {
  // A summed-area table of the binary mask: each window's count in constant time.
  const stride = width + 1
  const sums = new Float64Array(stride * (height + 1))
  for (let y = 0; y < height; y++) {
    let row = 0
    for (let x = 0; x < width; x++) {
      row += (mask[y * width + x] ?? 0) >= threshold ? 1 : 0
      sums[(y + 1) * stride + x + 1] = (sums[y * stride + x + 1] ?? 0) + row
    }
  }
  const band = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    const top = Math.max(0, y - radius)
    const bottom = Math.min(height, y + radius + 1)
    for (let x = 0; x < width; x++) {
      const left = Math.max(0, x - radius)
      const right = Math.min(width, x + radius + 1)
      const count =
        (sums[bottom * stride + right] ?? 0) -
        (sums[top * stride + right] ?? 0) -
        (sums[bottom * stride + left] ?? 0) +
        (sums[top * stride + left] ?? 0)
      const area = (bottom - top) * (right - left)
      if (count > 0 && count < area) band[y * width + x] = 1
    }
  }
  return band
}

/** Mean absolute difference of two masks, 0–1, over the pixels `where` is non-zero. */
export function meanAbsErrorWhere(a: Uint8Array, b: Uint8Array, where: Uint8Array): number {
  let sum = 0
  let count = 0
  for (let i = 0; i < a.length; i += 1) {
    if (where[i] === 0) continue
    sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0))
    count += 1
  }
  return count === 0 ? 0 : sum / count / 255
}
