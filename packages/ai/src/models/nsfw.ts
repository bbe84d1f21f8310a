import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { AiImage } from '../image.ts'
import { packageDir } from './paths.ts'
import { tensorflow } from './tf.ts'

const require = createRequire(import.meta.url)

/** Class probabilities of nsfwjs: Drawing, Hentai, Neutral, Porn, Sexy. */
export type NsfwScores = Record<string, number>

interface Classifier {
  classify(input: unknown, top?: number): Promise<{ className: string; probability: number }[]>
}

/** Classes that make an image unsafe. "Sexy" is not one: nsfwjs gives it to clothed people
 * in party and beach photos (a clothed party photo was flagged); it stays in the scores. */
export const UNSAFE_CLASSES = ['Porn', 'Hentai'] as const

/** Whether the unsafe classes together reach `threshold` (0–1). */
export function isUnsafe(scores: NsfwScores, threshold: number): boolean {
  return UNSAFE_CLASSES.reduce((sum, name) => sum + (scores[name] ?? 0), 0) >= threshold
}

let loaded: Promise<Classifier> | undefined

interface ModelJson {
  modelTopology: unknown
  weightsManifest: { paths: string[]; weights: unknown[] }[]
}

// nsfwjs ships MobileNetV2's weights as a 3.5 MB JavaScript module holding one base64 string.
// Its own loader evaluates that module and decodes it through a binary string: 640 MB of heap
// at the peak and ~390 MB resident afterwards. The string is read from the file as text here
// and decoded once (the model itself, the small `model.min.js`, is still required).
async function artifacts() {
  const dir = path.join(packageDir('nsfwjs'), 'dist', 'models', 'mobilenet_v2')
  const json = require(path.join(dir, 'model.min.js')) as ModelJson
  const shards = await Promise.all(
    json.weightsManifest.flatMap((group) =>
      group.paths.map(async (name) => {
        const text = await readFile(path.join(dir, `${name}.min.js`), 'utf8')
        const base64 = /"([A-Za-z0-9+/=]{1000,})"/.exec(text)?.[1]
        if (base64 === undefined) throw new Error(`no weights in nsfwjs's ${name}.min.js`)
        return Buffer.from(base64, 'base64')
      }),
    ),
  )
  const weights = Buffer.concat(shards)
  return {
    modelTopology: json.modelTopology as object,
    weightSpecs: json.weightsManifest.flatMap((group) => group.weights) as never,
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length),
  }
}

function classifier(threads: number): Promise<Classifier> {
  loaded ??= (async () => {
    await tensorflow(threads)
    const nsfwjs = require('nsfwjs') as typeof import('nsfwjs')
    const model = await artifacts()
    // MobileNetV2 (224² input), as `nsfwjs.load('MobileNetV2')` would load it.
    const handler = { load: async () => model }
    return (await nsfwjs.load(handler as never, { size: 224 })) as unknown as Classifier
  })()
  loaded.catch(() => {
    loaded = undefined
  })
  return loaded
}

/** Scores every class of nsfwjs (MobileNetV2, 224² input) for an RGB image. */
export async function classifyNsfw(image: AiImage, threads: number): Promise<NsfwScores> {
  const tf = await tensorflow(threads)
  const model = await classifier(threads)
  const tensor = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32')
  try {
    const classes = await model.classify(tensor, 5)
    return Object.fromEntries(classes.map((entry) => [entry.className, entry.probability]))
  } finally {
    tensor.dispose()
  }
}
