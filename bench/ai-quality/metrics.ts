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

/** Luma (BT.601) of 8-bit pixels with `channels` channels (the first three are RGB; one or two
 * channels are grey already). */
export function luma(data: Uint8Array, channels: number): Float64Array {
  const out = new Float64Array(Math.floor(data.length / channels))
  for (let i = 0; i < out.length; i += 1) {
    const at = i * channels
    out[i] =
      channels < 3
        ? (data[at] ?? 0)
        : 0.299 * (data[at] ?? 0) + 0.587 * (data[at + 1] ?? 0) + 0.114 * (data[at + 2] ?? 0)
  }
  return out
}

/** Structural similarity of two 8-bit images of the same size, on luma, with a 7×7 uniform
 * window (as scikit-image's default) stepped one pixel; 1 when equal. */
export function ssim(
  a: Uint8Array,
  b: Uint8Array,
  width: number,
  height: number,
  channels: number,
): number {
  if (a.length !== b.length) throw new Error('ssim: buffers differ in size')
  const x = luma(a, channels)
  const y = luma(b, channels)
  const win = 7
  const n = win * win
  const c1 = (0.01 * 255) ** 2
  const c2 = (0.03 * 255) ** 2
  // Summed-area tables of x, y, x², y² and xy make each window O(1).
  const stride = width + 1
  const tables = [0, 1, 2, 3, 4].map(() => new Float64Array(stride * (height + 1)))
  const [sx, sy, sxx, syy, sxy] = tables as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ]
  for (let row = 0; row < height; row += 1) {
    for (let col = 0; col < width; col += 1) {
      const i = row * width + col
      const vx = x[i] ?? 0
      const vy = y[i] ?? 0
      const t = (row + 1) * stride + col + 1
      const values = [vx, vy, vx * vx, vy * vy, vx * vy]
      tables.forEach((table, k) => {
        table[t] =
          (values[k] ?? 0) +
          (table[t - 1] ?? 0) +
          (table[t - stride] ?? 0) -
          (table[t - stride - 1] ?? 0)
      })
    }
  }
  const sum = (table: Float64Array, row: number, col: number) =>
    (table[(row + win) * stride + col + win] ?? 0) -
    (table[row * stride + col + win] ?? 0) -
    (table[(row + win) * stride + col] ?? 0) +
    (table[row * stride + col] ?? 0)
  let total = 0
  let count = 0
  for (let row = 0; row + win <= height; row += 1) {
    for (let col = 0; col + win <= width; col += 1) {
      const mx = sum(sx, row, col) / n
      const my = sum(sy, row, col) / n
      // Sample (co)variances, as scikit-image computes them.
      const vx = ((sum(sxx, row, col) / n - mx * mx) * n) / (n - 1)
      const vy = ((sum(syy, row, col) / n - my * my) * n) / (n - 1)
      const cxy = ((sum(sxy, row, col) / n - mx * my) * n) / (n - 1)
      total += ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
      count += 1
    }
  }
  return count === 0 ? Number.NaN : total / count
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
