import path from 'node:path'
import type { GraphModel, Tensor } from '@tensorflow/tfjs'
import type { AiImage, Box } from '../image.ts'
import { packageDir } from './paths.ts'
import { readArtifacts, tensorflow } from './tf.ts'

/** An object found by the COCO detector. */
export interface DetectedObject {
  /** One of the 80 COCO labels, with spaces (`dining table`). */
  label: string
  /** Confidence, 0–1: the detector's score calibrated (see `confidence`). */
  score: number
  box: Box
}

// COCO-80 in the detector's class order (as Human's labels.ts).
const LABELS = [
  'person,bicycle,car,motorcycle,airplane,bus,train,truck,boat,traffic light,fire hydrant',
  'stop sign,parking meter,bench,bird,cat,dog,horse,sheep,cow,elephant,bear,zebra,giraffe',
  'backpack,umbrella,handbag,tie,suitcase,frisbee,skis,snowboard,sports ball,kite,baseball bat',
  'baseball glove,skateboard,surfboard,tennis racket,bottle,wine glass,cup,fork,knife,spoon',
  'bowl,banana,apple,sandwich,orange,broccoli,carrot,hot dog,pizza,donut,cake,chair,couch',
  'potted plant,bed,dining table,toilet,tv,laptop,mouse,remote,keyboard,cell phone,microwave',
  'oven,toaster,sink,refrigerator,book,clock,vase,scissors,teddy bear,hair drier,toothbrush',
]
  .join(',')
  .split(',')

const SIDE = 512
// Detections below this calibrated confidence are dropped (raw 0.35): on the benchmark the
// wrong ones (a chair in a portrait, a car in a photographer's background) score below it.
const MIN_CONFIDENCE = 0.53
const MAX_DETECTED = 20
// Grey padding, as the letterbox of detectors trained on COCO.
const PAD = 114

/**
 * CenterNet's raw scores run low (right answers 0.45–0.7, wrong ones 0.2–0.35), so a threshold
 * written for a calibrated service (`awsRek.detectLabels(c:55)`) dropped every right answer.
 * `s^0.6` keeps the order and maps the raw score where the benchmark's detections turn from
 * mostly wrong to mostly right (≈ 0.37) to 0.55.
 */
export function confidence(raw: number): number {
  return Math.max(0, Math.min(1, raw)) ** 0.6
}

let loaded: Promise<GraphModel> | undefined

// Human's CenterNet (MobileNetV3, 4 MB) run directly: Human stretches every image to 512² (a
// 3:1 group photo became people a third as wide, and none was found; the cat, squeezed, was
// called a dog); here each window keeps its aspect ratio.
function detector(threads: number): Promise<GraphModel> {
  loaded ??= (async () => {
    const tf = await tensorflow(threads)
    const file = path.join(packageDir('@vladmandic/human'), 'models', 'centernet.json')
    return await tf.loadGraphModel(tf.io.fromMemory(await readArtifacts(file)))
  })()
  loaded.catch(() => {
    loaded = undefined
  })
  return loaded
}

/** Square windows over the image: the whole image, and for a long one (2:1 or more), squares of
 * its short side overlapping by half along the long side (objects in panoramas keep their size). */
export function windows(width: number, height: number): Box[] {
  const all: Box[] = [{ left: 0, top: 0, width, height }]
  const short = Math.min(width, height)
  const long = Math.max(width, height)
  if (long < 2 * short) return all
  const step = short / 2
  for (let at = 0; ; at += step) {
    const start = Math.min(Math.round(at), long - short)
    all.push(
      width >= height
        ? { left: start, top: 0, width: short, height: short }
        : { left: 0, top: start, width: short, height: short },
    )
    if (start >= long - short) break
  }
  return all
}

function overlap(a: Box, b: Box): { iou: number; ofSmaller: number } {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left)
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top)
  const inter = Math.max(0, w) * Math.max(0, h)
  const areaA = a.width * a.height
  const areaB = b.width * b.height
  return {
    iou: inter / Math.max(1, areaA + areaB - inter),
    ofSmaller: inter / Math.max(1, Math.min(areaA, areaB)),
  }
}

/** A detection and the window it was seen in. */
export type Seen = DetectedObject & { window: number }

/** Keeps the best of boxes that are one object: of one label overlapping (IoU ≥ 0.45) or, seen in
 * another window, lie mostly inside a stronger one (a part of an object cut by a window edge;
 * within one window a small person inside a large one's box is another person); of any label
 * nearly the same box (IoU ≥ 0.7: the cat also scored as a dog). */
export function suppress(found: readonly Seen[]): DetectedObject[] {
  const kept: Seen[] = []
  for (const object of [...found].sort((a, b) => b.score - a.score)) {
    const duplicate = kept.some((better) => {
      const { iou, ofSmaller } = overlap(better.box, object.box)
      if (better.label !== object.label) return iou >= 0.7
      return iou >= 0.45 || (better.window !== object.window && ofSmaller >= 0.8)
    })
    if (!duplicate) kept.push(object)
  }
  return kept.map(({ label, score, box }) => ({ label, score, box }))
}

async function detectWindow(
  tf: typeof import('@tensorflow/tfjs'),
  model: GraphModel,
  source: Tensor,
  window: Box,
): Promise<DetectedObject[]> {
  const side = Math.max(window.width, window.height)
  const output = tf.tidy(() => {
    const crop = tf.slice(source, [window.top, window.left, 0], [window.height, window.width, 3])
    const square = tf.pad(
      crop,
      [
        [0, side - window.height],
        [0, side - window.width],
        [0, 0],
      ],
      PAD,
    )
    const input = tf.image.resizeBilinear(square.expandDims(0) as never, [SIDE, SIDE])
    return model.execute(input, ['tower_0/detections']) as Tensor
  })
  // [1, 100, 6]: x1, y1, x2, y2 (model pixels), score, class.
  const rows = ((await output.array()) as number[][][])[0] ?? []
  output.dispose()
  const factor = side / SIDE
  const found: DetectedObject[] = []
  for (const [x1 = 0, y1 = 0, x2 = 0, y2 = 0, raw = 0, index = Number.NaN] of rows) {
    const label = LABELS[index]
    const score = confidence(raw)
    if (label === undefined || score < MIN_CONFIDENCE) continue
    const left = Math.max(0, Math.min(window.width, x1 * factor))
    const top = Math.max(0, Math.min(window.height, y1 * factor))
    const right = Math.max(0, Math.min(window.width, x2 * factor))
    const bottom = Math.max(0, Math.min(window.height, y2 * factor))
    if (right - left < 2 || bottom - top < 2) continue
    found.push({
      label,
      score,
      box: {
        left: Math.round(window.left + left),
        top: Math.round(window.top + top),
        width: Math.round(right - left),
        height: Math.round(bottom - top),
      },
    })
  }
  return found
}

/** COCO-80 objects in an RGB image (CenterNet from `@vladmandic/human`, 4 MB), best first. */
export async function detectObjects(image: AiImage, threads: number): Promise<DetectedObject[]> {
  if (image.channels !== 3) throw new Error('the object detector takes RGB pixels')
  const tf = await tensorflow(threads)
  const model = await detector(threads)
  const source = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32').toFloat()
  try {
    const found: Seen[] = []
    for (const [index, window] of windows(image.width, image.height).entries()) {
      for (const object of await detectWindow(tf, model, source, window)) {
        found.push({ ...object, window: index })
      }
    }
    return suppress(found).slice(0, MAX_DETECTED)
  } finally {
    source.dispose()
  }
}
