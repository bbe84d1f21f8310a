// Iterative back-projection (Irani and Peleg): an enlarged image is corrected until shrinking it
// gives back the input, so what the super-resolution model invents never contradicts the pixels
// it was given. Measured in bench/ai-quality/upscale.quality.ts: +0.5 dB PSNR over the ESRGAN
// models alone at ×4 and +1.3 dB at ×2 on photos, for a fraction of the model's time.

/** Keys' cubic (a = −0.5), the kernel of bicubic shrinking (MATLAB's `imresize`). */
function cubic(x: number): number {
  const t = Math.abs(x)
  if (t <= 1) return 1.5 * t ** 3 - 2.5 * t ** 2 + 1
  if (t < 2) return -0.5 * t ** 3 + 2.5 * t ** 2 - 4 * t + 2
  return 0
}

interface Taps {
  /** Source index of each tap, border repeated. */
  index: Int32Array
  count: number
  weights: Float32Array
}

// The taps of each output position along one axis; when shrinking, the kernel is stretched by
// the factor (antialiasing). Edges repeat the border pixel.
function taps(inSize: number, outSize: number): Taps {
  const scale = outSize / inSize
  const stretch = scale < 1 ? 1 / scale : 1
  const count = Math.ceil(4 * stretch) + 1
  const index = new Int32Array(outSize * count)
  const weights = new Float32Array(outSize * count)
  for (let o = 0; o < outSize; o++) {
    const centre = (o + 0.5) / scale - 0.5
    const start = Math.floor(centre - 2 * stretch)
    let sum = 0
    for (let k = 0; k < count; k++) {
      const w = cubic((start + k - centre) / stretch)
      index[o * count + k] = Math.min(inSize - 1, Math.max(0, start + k))
      weights[o * count + k] = w
      sum += w
    }
    for (let k = 0; k < count; k++)
      weights[o * count + k] = (weights[o * count + k] as number) / sum
  }
  return { index, count, weights }
}

/** Resamples RGB floats to `outWidth`×`outHeight` with the cubic kernel, one axis at a time. */
export function resampleCubic(
  source: Float32Array,
  width: number,
  height: number,
  outWidth: number,
  outHeight: number,
): Float32Array {
  const across = taps(width, outWidth)
  const rows = new Float32Array(outWidth * height * 3)
  for (let y = 0; y < height; y++) {
    for (let o = 0; o < outWidth; o++) {
      let r = 0
      let g = 0
      let b = 0
      const row = y * width
      for (let t = o * across.count; t < (o + 1) * across.count; t++) {
        const w = across.weights[t] as number
        const at = (row + (across.index[t] as number)) * 3
        r += w * (source[at] as number)
        g += w * (source[at + 1] as number)
        b += w * (source[at + 2] as number)
      }
      const to = (y * outWidth + o) * 3
      rows[to] = r
      rows[to + 1] = g
      rows[to + 2] = b
    }
  }
  const down = taps(height, outHeight)
  const out = new Float32Array(outWidth * outHeight * 3)
  for (let o = 0; o < outHeight; o++) {
    for (let t = o * down.count; t < (o + 1) * down.count; t++) {
      const w = down.weights[t] as number
      if (w === 0) continue
      const from = (down.index[t] as number) * outWidth * 3
      const to = o * outWidth * 3
      for (let i = 0; i < outWidth * 3; i++) {
        out[to + i] = (out[to + i] as number) + w * (rows[from + i] as number)
      }
    }
  }
  return out
}

/**
 * Corrects `enlarged` (RGB floats, `scale` times `width`×`height`) in place so that shrinking
 * it (bicubic) comes closer to `small` each round.
 */
export function backProject(
  enlarged: Float32Array,
  small: Float32Array,
  width: number,
  height: number,
  scale: number,
  rounds: number,
): Float32Array {
  const bigWidth = width * scale
  const bigHeight = height * scale
  for (let round = 0; round < rounds; round++) {
    const shrunk = resampleCubic(enlarged, bigWidth, bigHeight, width, height)
    for (let i = 0; i < shrunk.length; i++) shrunk[i] = (small[i] as number) - (shrunk[i] as number)
    const error = resampleCubic(shrunk, width, height, bigWidth, bigHeight)
    for (let i = 0; i < enlarged.length; i++) {
      enlarged[i] = (enlarged[i] as number) + (error[i] as number)
    }
  }
  return enlarged
}

/** An RGB image of bytes, as the models return it. */
interface Pixels {
  data: Uint8Array
  width: number
  height: number
}

/**
 * Back-projects a whole enlargement (`scale` times `small`) tile by tile, each tile with a margin
 * of real neighbours that is cut off afterwards, so memory stays flat and no seam shows.
 */
export function backProjectTiled(
  enlarged: Pixels,
  small: Pixels,
  scale: number,
  rounds: number,
  tile = 128,
  margin = 16,
): Uint8Array {
  const out = new Uint8Array(enlarged.data.length)
  const { width, height } = small
  const bigWidth = width * scale
  for (let top = 0; top < height; top += tile) {
    for (let left = 0; left < width; left += tile) {
      const tileWidth = Math.min(tile, width - left)
      const tileHeight = Math.min(tile, height - top)
      const x0 = Math.max(0, left - margin)
      const y0 = Math.max(0, top - margin)
      const w = Math.min(width, left + tileWidth + margin) - x0
      const h = Math.min(height, top + tileHeight + margin) - y0
      const lr = new Float32Array(w * h * 3)
      for (let row = 0; row < h; row++) {
        const from = ((y0 + row) * width + x0) * 3
        lr.set(small.data.subarray(from, from + w * 3), row * w * 3)
      }
      const hr = new Float32Array(w * scale * h * scale * 3)
      for (let row = 0; row < h * scale; row++) {
        const from = ((y0 * scale + row) * bigWidth + x0 * scale) * 3
        hr.set(enlarged.data.subarray(from, from + w * scale * 3), row * w * scale * 3)
      }
      backProject(hr, lr, w, h, scale, rounds)
      const rowBytes = tileWidth * scale * 3
      for (let row = 0; row < tileHeight * scale; row++) {
        const target = ((top * scale + row) * bigWidth + left * scale) * 3
        const from = (((top - y0) * scale + row) * w * scale + (left - x0) * scale) * 3
        for (let i = 0; i < rowBytes; i++) {
          const value = Math.round(hr[from + i] as number)
          out[target + i] = value < 0 ? 0 : value > 255 ? 255 : value
        }
      }
    }
  }
  return out
}
