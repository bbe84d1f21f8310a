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

type Detection = { score: number; box: { x: number; y: number; width: number; height: number } }

interface FaceApi {
  nets: {
    ssdMobilenetv1: { loadFromDisk(dir: string): Promise<void> }
    tinyFaceDetector: { loadFromDisk(dir: string): Promise<void> }
  }
  SsdMobilenetv1Options: new (options: { minConfidence: number; maxResults: number }) => unknown
  TinyFaceDetectorOptions: new (options: { inputSize: number; scoreThreshold: number }) => unknown
  detectAllFaces(input: unknown, options: unknown): Promise<Detection[]>
}

// SSD MobileNet v1 sees every input at 512²: a face under ~20 px there is lost. Tiles of this
// side, overlapping by a quarter, bring small faces of a large photo up to a size it finds;
// faces larger than the overlap are found on the whole image.
const TILE = 640
const STEP = 480
const MIN_SCORE = 0.45
// The second opinion (confirmFaces): the tiny detector on each face's surroundings, at these input
// sides in turn, any face at all at this score. SSD fires on a cat's face (chelsea.png, 0.93);
// the tiny detector sees nothing there even at 0.1, and finds every face of the benchmark,
// turned and tilted ones at 0.14–0.34.
const CONFIRM_SIDES = [160, 320, 224]
const CONFIRM_SCORE = 0.1
const CONFIRM_PAD = 0.4

let loaded: Promise<FaceApi> | undefined

function faceApi(threads: number): Promise<FaceApi> {
  loaded ??= (async () => {
    await tensorflow(threads)
    const dir = packageDir('@vladmandic/face-api')
    const api = require(path.join(dir, 'dist', 'face-api.node-wasm.js')) as FaceApi
    await api.nets.ssdMobilenetv1.loadFromDisk(path.join(dir, 'model'))
    await api.nets.tinyFaceDetector.loadFromDisk(path.join(dir, 'model'))
    return api
  })()
  loaded.catch(() => {
    loaded = undefined
  })
  return loaded
}

/** The tiles of one side: starts every STEP px, the last one flush with the edge. */
function starts(length: number): number[] {
  if (length <= TILE) return [0]
  const out: number[] = []
  for (let at = 0; at + TILE < length; at += STEP) out.push(at)
  out.push(length - TILE)
  return out
}

function crop(image: AiImage, left: number, top: number, width: number, height: number) {
  const data = new Uint8Array(width * height * 3)
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * image.width + left) * 3
    data.set(image.data.subarray(from, from + width * 3), y * width * 3)
  }
  return data
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left)
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top)
  if (w <= 0 || h <= 0) return 0
  // Over the smaller box: a face cut by a tile's edge lies inside the whole face's box.
  return (w * h) / Math.min(a.width * a.height, b.width * b.height)
}

/**
 * Joins the faces of the whole image and of its tiles: boxes sharing most of the smaller one
 * are one face, kept as the better-scored box grown to hold both (a tile may see only part).
 */
export function mergeFaces(faces: readonly Face[]): Face[] {
  const kept: Face[] = []
  for (const face of [...faces].sort((a, b) => b.score - a.score)) {
    const same = kept.find((other) => overlap(other.box, face.box) > 0.5)
    if (same === undefined) {
      kept.push({ score: face.score, box: { ...face.box } })
      continue
    }
    // A face cut by a tile's edge lies inside the whole face's box: the union is about the
    // larger box; a much larger union is two faces, and is not made.
    const left = Math.min(same.box.left, face.box.left)
    const top = Math.min(same.box.top, face.box.top)
    const right = Math.max(same.box.left + same.box.width, face.box.left + face.box.width)
    const bottom = Math.max(same.box.top + same.box.height, face.box.top + face.box.height)
    const larger = Math.max(same.box.width * same.box.height, face.box.width * face.box.height)
    if ((right - left) * (bottom - top) <= 1.25 * larger) {
      same.box = { left, top, width: right - left, height: bottom - top }
    }
  }
  return kept
}

/**
 * Faces in an RGB image, found by face-api's SSD MobileNet v1 (5.6 MB, MIT) on the whole image
 * and, when it is larger than a tile, on overlapping tiles; each one confirmed by the tiny
 * detector on its surroundings (confirmed).
 */
export async function detectFaces(image: AiImage, threads: number): Promise<Face[]> {
  const tf = await tensorflow(threads)
  const api = await faceApi(threads)
  const options = new api.SsdMobilenetv1Options({ minConfidence: MIN_SCORE, maxResults: 200 })
  const found: Face[] = []
  const run = async (data: Uint8Array, width: number, height: number, dx: number, dy: number) => {
    const tensor = tf.tensor3d(data, [height, width, 3], 'int32')
    try {
      for (const { score, box } of await api.detectAllFaces(tensor, options)) {
        found.push({
          score,
          box: { left: box.x + dx, top: box.y + dy, width: box.width, height: box.height },
        })
      }
    } finally {
      tensor.dispose()
    }
  }
  await run(image.data, image.width, image.height, 0, 0)
  if (Math.max(image.width, image.height) > TILE) {
    for (const top of starts(image.height)) {
      for (const left of starts(image.width)) {
        const width = Math.min(TILE, image.width - left)
        const height = Math.min(TILE, image.height - top)
        await run(crop(image, left, top, width, height), width, height, left, top)
      }
    }
  }
  const merged = mergeFaces(found)
  if (merged.length === 0) return merged
  const whole = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32')
  try {
    const kept: Face[] = []
    for (const face of merged) if (await confirmed(api, tf, whole, face.box)) kept.push(face)
    return kept
  } finally {
    whole.dispose()
  }
}

/**
 * A second opinion on one face: the tiny detector (another network, 0.2 MB, trained apart from
 * SSD) run on the box grown by CONFIRM_PAD on every side. SSD's confident false positives (an
 * animal's face) are not faces to it; a real face, even turned or tilted, is one at some size.
 */
async function confirmed(
  api: FaceApi,
  tf: Awaited<ReturnType<typeof tensorflow>>,
  whole: import('@tensorflow/tfjs').Tensor3D,
  box: Box,
): Promise<boolean> {
  const [height, width] = whole.shape
  const left = Math.max(0, Math.floor(box.left - box.width * CONFIRM_PAD))
  const top = Math.max(0, Math.floor(box.top - box.height * CONFIRM_PAD))
  const right = Math.min(width, Math.ceil(box.left + box.width * (1 + CONFIRM_PAD)))
  const bottom = Math.min(height, Math.ceil(box.top + box.height * (1 + CONFIRM_PAD)))
  if (right - left < 8 || bottom - top < 8) return true
  const crop = tf.slice(whole, [top, left, 0], [bottom - top, right - left, 3])
  try {
    for (const inputSize of CONFIRM_SIDES) {
      const options = new api.TinyFaceDetectorOptions({ inputSize, scoreThreshold: CONFIRM_SCORE })
      if ((await api.detectAllFaces(crop, options)).length > 0) return true
    }
    return false
  } finally {
    crop.dispose()
  }
}
