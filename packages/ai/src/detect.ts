import type { AiImage, Box } from './image.ts'
import type { Face } from './models/faces.ts'
import type { DetectedObject } from './models/objects.ts'
import type { TextLine } from './models/ocr.ts'
import { rgb } from './pixels.ts'
import type { ModelPools } from './pool.ts'

// Detectors work on a copy no larger than this; boxes are scaled back to the image.
const DETECT_SIDE = 1024
const OCR_SIDE = 1600

function scaleBox(box: Box, factor: number): Box {
  return {
    left: Math.round(box.left * factor),
    top: Math.round(box.top * factor),
    width: Math.round(box.width * factor),
    height: Math.round(box.height * factor),
  }
}

/** Faces (face-api tiny detector) in image pixels, best first. */
export async function findFaces(pools: ModelPools, image: AiImage, label: string): Promise<Face[]> {
  const small = await rgb(image, DETECT_SIDE)
  const factor = image.width / small.width
  const faces = await pools.run<Face[]>({ kind: 'faces', image: small }, label)
  return faces
    .map((face) => ({ score: face.score, box: scaleBox(face.box, factor) }))
    .sort((a, b) => b.score - a.score)
}

/** COCO objects in image pixels, best first. */
export async function findObjects(
  pools: ModelPools,
  image: AiImage,
  label: string,
): Promise<DetectedObject[]> {
  const small = await rgb(image, DETECT_SIDE)
  const factor = image.width / small.width
  const objects = await pools.run<DetectedObject[]>({ kind: 'objects', image: small }, label)
  return objects
    .map((object) => ({ ...object, box: scaleBox(object.box, factor) }))
    .sort((a, b) => b.score - a.score)
}

/** Text lines (PaddleOCR) in image pixels, top to bottom. */
export async function findText(
  pools: ModelPools,
  image: AiImage,
  label: string,
): Promise<TextLine[]> {
  const small = await rgb(image, OCR_SIDE)
  const factor = image.width / small.width
  const lines = await pools.run<TextLine[]>({ kind: 'ocr', image: small }, label)
  return lines.map((line) => ({
    ...line,
    polygon: line.polygon.map(([x, y]) => [Math.round(x * factor), Math.round(y * factor)]),
  }))
}

/** The bounding box of a polygon. */
export function polygonBox(polygon: readonly (readonly [number, number])[]): Box {
  const xs = polygon.map(([x]) => x)
  const ys = polygon.map(([, y]) => y)
  const left = Math.min(...xs)
  const top = Math.min(...ys)
  return { left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top }
}

/** The smallest box holding all of `boxes`, or undefined for none. */
export function unionBox(boxes: readonly Box[]): Box | undefined {
  if (boxes.length === 0) return undefined
  const left = Math.min(...boxes.map((box) => box.left))
  const top = Math.min(...boxes.map((box) => box.top))
  const right = Math.max(...boxes.map((box) => box.left + box.width))
  const bottom = Math.max(...boxes.map((box) => box.top + box.height))
  return { left, top, width: right - left, height: bottom - top }
}

/** Clamps a box to an image; undefined when nothing of it is inside. */
export function clampBox(box: Box, width: number, height: number): Box | undefined {
  const left = Math.max(0, Math.floor(box.left))
  const top = Math.max(0, Math.floor(box.top))
  const right = Math.min(width, Math.ceil(box.left + box.width))
  const bottom = Math.min(height, Math.ceil(box.top + box.height))
  if (right <= left || bottom <= top) return undefined
  return { left, top, width: right - left, height: bottom - top }
}
