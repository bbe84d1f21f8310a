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

/** The share (0–1) of a box's pixels where `mask` (one byte per pixel, `width` wide) is set. */
export function boxCoverage(mask: Uint8Array, width: number, box: Box, threshold = 128): number {
  let covered = 0
  let count = 0
  const height = mask.length / width
  for (let y = Math.max(0, box.y); y < Math.min(height, box.y + box.height); y++) {
    for (let x = Math.max(0, box.x); x < Math.min(width, box.x + box.width); x++) {
      count++
      if ((mask[y * width + x] ?? 0) >= threshold) covered++
    }
  }
  return count === 0 ? 0 : covered / count
}
