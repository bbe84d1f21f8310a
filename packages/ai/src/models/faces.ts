import { createRequire } from 'node:module'
import path from 'node:path'
import type { AiImage, Box } from '../image.ts'
import { packageDir } from './paths.ts'
import { tensorflow } from './tf.ts'

const require = createRequire(import.meta.url)

/** A face found by the detector. */
export interface Face {
  box: Box
  score: number
}

interface FaceApi {
  nets: { tinyFaceDetector: { loadFromDisk(dir: string): Promise<void> } }
  TinyFaceDetectorOptions: new (options: { inputSize: number; scoreThreshold: number }) => unknown
  detectAllFaces(
    input: unknown,
    options: unknown,
  ): Promise<{ score: number; box: { x: number; y: number; width: number; height: number } }[]>
}

let loaded: Promise<FaceApi> | undefined

function faceApi(threads: number): Promise<FaceApi> {
  loaded ??= (async () => {
    await tensorflow(threads)
    const dir = packageDir('@vladmandic/face-api')
    const api = require(path.join(dir, 'dist', 'face-api.node-wasm.js')) as FaceApi
    await api.nets.tinyFaceDetector.loadFromDisk(path.join(dir, 'model'))
    return api
  })()
  loaded.catch(() => {
    loaded = undefined
  })
  return loaded
}

/** Faces in an RGB image, found by face-api's tiny detector (0.19 MB, MIT). */
export async function detectFaces(image: AiImage, threads: number): Promise<Face[]> {
  const tf = await tensorflow(threads)
  const api = await faceApi(threads)
  const tensor = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32')
  try {
    const options = new api.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold: 0.5 })
    const found = await api.detectAllFaces(tensor, options)
    return found.map(({ score, box }) => ({
      score,
      box: { left: box.x, top: box.y, width: box.width, height: box.height },
    }))
  } finally {
    tensor.dispose()
  }
}
