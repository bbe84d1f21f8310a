import path from 'node:path'
import type { LayersModel } from '@tensorflow/tfjs'
import type { AiImage } from '../image.ts'
import { packageDir } from './paths.ts'
import { readArtifacts, tensorflow } from './tf.ts'

/** ESRGAN variants: `slim` (fast, the catalogue's `Flash`) and `medium` (`Picasso`). */
export type EsrganVariant = 'slim' | 'medium'
export type EsrganScale = 2 | 4 | 8

// Tiles of this many input pixels per side are upscaled one at a time, each with a margin of
// real neighbouring pixels that is cut off afterwards, so no seam shows where tiles meet and
// memory stays flat whatever the image size.
const TILE = 128
const MARGIN = 12

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
          const inner = tf.slice(
            predicted,
            [0, (top - y0) * scale, (left - x0) * scale, 0],
            [1, tileHeight * scale, tileWidth * scale, 3],
          )
          return inner.clipByValue(0, 255).round().toInt().squeeze([0])
        })
        const pixels = await result.data()
        result.dispose()
        const rowBytes = tileWidth * scale * 3
        for (let row = 0; row < tileHeight * scale; row++) {
          const target = ((top * scale + row) * outWidth + left * scale) * 3
          for (let i = 0; i < rowBytes; i++) out[target + i] = pixels[row * rowBytes + i] as number
        }
      }
    }
  } finally {
    source.dispose()
  }
  return { data: out, width: outWidth, height: height * scale, channels: 3 }
}
