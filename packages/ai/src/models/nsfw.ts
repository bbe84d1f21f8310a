import { createRequire } from 'node:module'
import type { AiImage } from '../image.ts'
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

function classifier(threads: number): Promise<Classifier> {
  loaded ??= (async () => {
    await tensorflow(threads)
    // MobileNetV2: its weights are bundled in the package's JavaScript (3.5 MB).
    const nsfwjs = require('nsfwjs') as typeof import('nsfwjs')
    return (await nsfwjs.load('MobileNetV2')) as unknown as Classifier
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
