import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AiImage, Box } from '../image.ts'
import { packageDir } from './paths.ts'
import { tensorflow } from './tf.ts'

const require = createRequire(import.meta.url)

/** An object found by the COCO detector. */
export interface DetectedObject {
  /** One of the 80 COCO labels, with spaces (`dining table`). */
  label: string
  score: number
  box: Box
}

interface HumanResult {
  object: { score: number; label: string; box: [number, number, number, number] }[]
}
interface Human {
  load(): Promise<void>
  detect(input: unknown): Promise<HumanResult>
}

let loaded: Promise<Human> | undefined

function human(threads: number): Promise<Human> {
  loaded ??= (async () => {
    await tensorflow(threads)
    const dir = packageDir('@vladmandic/human')
    // Human's exports map is malformed (keys without ./), so its file is required by path.
    const { Human } = require(path.join(dir, 'dist', 'human.node-wasm.js')) as {
      Human: new (config: object) => Human
    }
    const instance = new Human({
      backend: 'wasm',
      wasmPath: `${path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')}/`,
      modelBasePath: `${pathToFileURL(path.join(dir, 'models')).href}/`,
      // Still images: a cache keyed on input similarity would answer a different image.
      cacheSensitivity: 0,
      debug: false,
      face: { enabled: false },
      body: { enabled: false },
      hand: { enabled: false },
      gesture: { enabled: false },
      segmentation: { enabled: false },
      filter: { enabled: false },
      object: { enabled: true, modelPath: 'centernet.json', minConfidence: 0.3, maxDetected: 20 },
    })
    await instance.load()
    return instance
  })()
  loaded.catch(() => {
    loaded = undefined
  })
  return loaded
}

/** COCO-80 objects in an RGB image (Human's CenterNet, 4 MB). */
export async function detectObjects(image: AiImage, threads: number): Promise<DetectedObject[]> {
  const tf = await tensorflow(threads)
  const detector = await human(threads)
  const tensor = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32').expandDims(0)
  try {
    const result = await detector.detect(tensor)
    return result.object.map(({ score, label, box }) => ({
      label,
      score,
      box: { left: box[0], top: box[1], width: box[2], height: box[3] },
    }))
  } finally {
    tensor.dispose()
  }
}
