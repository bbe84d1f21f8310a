import type { AiImage, Box } from './image.ts'
import type { Face } from './models/faces.ts'
import type { DetectedObject } from './models/objects.ts'
import type { TextLine } from './models/ocr.ts'
import { rgb } from './pixels.ts'
import type { ModelPools } from './pool.ts'

// Detectors work on a copy no larger than this; boxes are scaled back to the image.
const DETECT_SIDE = 1024
const OCR_SIDE = 1600
// Faces are found in tiles (models/faces.ts), so small faces of a group photo need more pixels.
const FACE_SIDE = 2048

function scaleBox(box: Box, factor: number): Box {
  return {
    left: Math.round(box.left * factor),
    top: Math.round(box.top * factor),
    width: Math.round(box.width * factor),
    height: Math.round(box.height * factor),
  }
}

/** Faces (face-api SSD MobileNet v1, tiled) in image pixels, best first. */
export async function findFaces(pools: ModelPools, image: AiImage, label: string): Promise<Face[]> {
  const small = await rgb(image, FACE_SIDE)
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
  // An RGB image the detector can take as it is goes straight to the worker: a sharp pass that
  // changes nothing cost a tenth of od.detect's time on a 512² photo (bench/ai.bench.ts).
  const ready = image.channels === 3 && Math.max(image.width, image.height) <= DETECT_SIDE
  const small = ready ? image : await rgb(image, DETECT_SIDE)
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
  return (
    lines
      .map((line) => ({
        ...line,
        polygon: line.polygon.map(
          ([x, y]) => [Math.round(x * factor), Math.round(y * factor)] as [number, number],
        ),
      }))
      // A line found only in the padding the OCR model needs is clamped to nothing.
      .filter((line) => {
        const box = polygonBox(line.polygon)
        return box.width > 0 && box.height > 0
      })
  )
}

/**
 * The regions `im.mask(d:face)` hides: each face box grown to the whole face. The detector's box
 * runs from the brows to the lips, and for a face in profile from the nose to the cheek only:
 * a quarter more above (forehead), a fifth below (chin), and at least 1.2 heights wide (ears,
 * the far side of a turned head), clamped to the image.
 */
export function faceRegions(faces: readonly Face[], width: number, height: number): Box[] {
  return faces.flatMap(({ box }) => {
    const wide = Math.max((box.width * 4) / 3, box.height * 1.2)
    const grown = clampBox(
      {
        left: box.left + box.width / 2 - wide / 2,
        top: box.top - box.height / 4,
        width: wide,
        height: box.height * 1.45,
      },
      width,
      height,
    )
    return grown === undefined ? [] : [grown]
  })
}

/**
 * The regions `im.mask(d:text)` hides: each line's box grown by a fifth of its height on every
 * side, so ascenders, descenders and the first and last letters' edges are covered too.
 */
export function textRegions(lines: readonly TextLine[], width: number, height: number): Box[] {
  return lines.flatMap((line) => {
    const box = polygonBox(line.polygon)
    const pad = Math.max(2, box.height / 5)
    const grown = clampBox(
      {
        left: box.left - pad,
        top: box.top - pad,
        width: box.width + 2 * pad,
        height: box.height + 2 * pad,
      },
      width,
      height,
    )
    return grown === undefined ? [] : [grown]
  })
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
