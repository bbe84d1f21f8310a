import path from 'node:path'
import type { LayersModel } from '@tensorflow/tfjs'
import type { AiImage } from '../image.ts'
import { backProject, backProjectTiled } from './back-projection.ts'
import { packageDir } from './paths.ts'
import { readArtifacts, tensorflow } from './tf.ts'

/**
 * ESRGAN variants: `slim` (fast, the catalogue's `Flash`), `medium` (`Picasso`), and
 * `slim-twice`, ×4 as two ×2 passes of `slim` (Picasso's ×4: +1.0–1.1 dB PSNR over lanczos3
 * on the benchmark's photos against +0.7–0.95 for one ×4 pass, at about the cost `medium` ×4
 * had).
 */
export type EsrganVariant = 'slim' | 'medium' | 'slim-twice'
export type EsrganScale = 2 | 4 | 8

// Tiles of this many input pixels per side are upscaled one at a time, each with a margin of
// real neighbouring pixels that is cut off afterwards, so no seam shows where tiles meet and
// memory stays flat whatever the image size. Each tile is back-projected (see
// back-projection.ts) before its margin is cut: the correction reaches a few pixels per round,
// so the margin keeps tiles from disagreeing where they meet.
const TILE = 128
const MARGIN = 16
const ROUNDS = 4

const models = new Map<string, Promise<LayersModel>>()

function model(variant: EsrganVariant, scale: EsrganScale, threads: number): Promise<LayersModel> {
  const key = `${variant}x${scale}`
  let loaded = models.get(key)
  if (loaded === undefined) {
    loaded = (async () => {
      const tf = await tensorflow(threads)
      const file = path.join(
        packageDir(`@upscalerjs/esrgan-${variant}`),
        'models',
        `x${scale}`,
        'model.json',
      )
      return await tf.loadLayersModel(tf.io.fromMemory(await readArtifacts(file)))
    })()
    loaded.catch(() => models.delete(key))
    models.set(key, loaded)
  }
  return loaded
}

/** Upscales an RGB image by `scale`, tile by tile; returns RGB pixels. */
export async function esrganUpscale(
  image: AiImage,
  variant: EsrganVariant,
  scale: EsrganScale,
  threads: number,
): Promise<AiImage> {
  if (image.channels !== 3) throw new Error('ESRGAN takes RGB pixels')
  if (variant === 'slim-twice') {
    if (scale !== 4) throw new Error('slim-twice enlarges ×4 only')
    const half = await esrganUpscale(image, 'slim', 2, threads)
    const full = await esrganUpscale(half, 'slim', 2, threads)
    // Each pass agrees with its own input; this makes the result agree with the original.
    return { ...full, data: backProjectTiled(full, image, 4, ROUNDS) }
  }
  const tf = await tensorflow(threads)
  const network = await model(variant, scale, threads)
  const { width, height } = image
  const outWidth = width * scale
  const out = new Uint8Array(outWidth * height * scale * 3)
  const source = tf.tensor3d(image.data, [height, width, 3], 'int32')
  try {
    for (let top = 0; top < height; top += TILE) {
      for (let left = 0; left < width; left += TILE) {
        const tileWidth = Math.min(TILE, width - left)
        const tileHeight = Math.min(TILE, height - top)
        const x0 = Math.max(0, left - MARGIN)
        const y0 = Math.max(0, top - MARGIN)
        const x1 = Math.min(width, left + tileWidth + MARGIN)
        const y1 = Math.min(height, top + tileHeight + MARGIN)
        const result = tf.tidy(() => {
          const tile = tf
            .slice(source, [y0, x0, 0], [y1 - y0, x1 - x0, 3])
            .toFloat()
            .expandDims(0)
          const predicted = network.predict(tile) as import('@tensorflow/tfjs').Tensor4D
          return predicted.clipByValue(0, 255).squeeze([0])
        })
        // A copy: the correction is made in place, and the backend may hand out its own memory.
        const enlarged = new Float32Array((await result.data()) as Float32Array)
        result.dispose()
        const small = new Float32Array((x1 - x0) * (y1 - y0) * 3)
        for (let row = y0; row < y1; row++) {
          const from = (row * width + x0) * 3
          small.set(image.data.subarray(from, from + (x1 - x0) * 3), (row - y0) * (x1 - x0) * 3)
        }
        backProject(enlarged, small, x1 - x0, y1 - y0, scale, ROUNDS)
        const fullWidth = (x1 - x0) * scale
        const rowBytes = tileWidth * scale * 3
        for (let row = 0; row < tileHeight * scale; row++) {
          const target = ((top * scale + row) * outWidth + left * scale) * 3
          const from = (((top - y0) * scale + row) * fullWidth + (left - x0) * scale) * 3
          for (let i = 0; i < rowBytes; i++) {
            const value = Math.round(enlarged[from + i] as number)
            out[target + i] = value < 0 ? 0 : value > 255 ? 255 : value
          }
        }
      }
    }
  } finally {
    source.dispose()
  }
  return { data: out, width: outWidth, height: height * scale, channels: 3 }
}
