// The text of a watermark. Stock-photo marks are tiled at a slant (±30° is the common one), and
// PaddleOCR's recogniser reads slanted words over a busy photo poorly: lines it cannot read are
// dropped, so a light "© STOCKPHOTO" tiled at −30° on the astronaut's wall gave no line at all
// (bench/ai-quality, watermarks). Read again on copies turned level, the same mark gives five
// lines; their polygons are turned back into the image's pixels.
import { findText, polygonBox } from './detect.ts'
import type { AiImage } from './image.ts'
import { centre } from './mark-rows.ts'
import type { TextLine } from './models/ocr.ts'
import { open, rgb, toImage } from './pixels.ts'
import type { ModelPools } from './pool.ts'

/** The turns (degrees, clockwise) of the extra readings: a mark tiled at −30° or +30° level. */
const ANGLES = [30, -30]
// The turned copies are read at most this large (a tiled mark's letters are large).
const TURNED_SIDE = 1024
const GREY = { r: 128, g: 128, b: 128 }

type Point = [number, number]

/** Maps a point of a copy turned by `degrees` about its centre back to the unturned image. */
export function unturn(
  point: Point,
  degrees: number,
  from: { width: number; height: number },
  to: { width: number; height: number },
): Point {
  const angle = (degrees * Math.PI) / 180
  const dx = point[0] - from.width / 2
  const dy = point[1] - from.height / 2
  // Turning by θ clockwise (y down) took (x, y) to (x cos θ − y sin θ, x sin θ + y cos θ).
  const x = dx * Math.cos(angle) + dy * Math.sin(angle)
  const y = -dx * Math.sin(angle) + dy * Math.cos(angle)
  return [x + to.width / 2, y + to.height / 2]
}

function inside(point: Point, line: TextLine): boolean {
  const box = polygonBox(line.polygon)
  return (
    point[0] >= box.left &&
    point[0] <= box.left + box.width &&
    point[1] >= box.top &&
    point[1] <= box.top + box.height
  )
}

/** The three-letter pieces of a line's text (letters and digits, upper case). */
function trigrams(text: string): Set<string> {
  const letters = text.toUpperCase().replace(/[^A-Z0-9]/g, '')
  const out = new Set<string>()
  for (let i = 0; i + 3 <= letters.length; i++) out.add(letters.slice(i, i + 3))
  return out
}

/**
 * Lines of the turned readings that repeat among themselves: a tiled mark is the same words many
 * times, so a line sharing a three-letter piece with another is kept; a lone reading at a slant
 * (a caption's words, the photo's own texture read as letters) is not.
 */
export function repeated(lines: readonly TextLine[]): TextLine[] {
  const pieces = lines.map((line) => trigrams(line.text))
  return lines.filter((_, index) => {
    const own = pieces[index] as Set<string>
    return pieces.some((other, at) => at !== index && [...own].some((piece) => other.has(piece)))
  })
}

/**
 * Text lines for `wm.remove(rem_text)`: the image read as it is, and read again turned by each
 * of ANGLES; a line of the turned readings is added when it repeats (repeated) and its centre
 * does not lie in a line already found. Polygons in the image's pixels (a turned line's polygon keeps
 * its slant).
 */
export async function findMarkText(
  pools: ModelPools,
  image: AiImage,
  label: string,
): Promise<TextLine[]> {
  const lines = await findText(pools, image, label)
  const small = await rgb(image, TURNED_SIDE)
  const factor = image.width / small.width
  const found: TextLine[] = []
  for (const degrees of ANGLES) {
    const turned = await toImage(open(small).rotate(degrees, { background: GREY }))
    for (const line of await findText(pools, turned, label)) {
      const polygon = line.polygon.map((point) => {
        const [x, y] = unturn(point, degrees, turned, small)
        return [Math.round(x * factor), Math.round(y * factor)] as Point
      })
      const [cx, cy] = centre(polygon)
      if (cx < 0 || cy < 0 || cx >= image.width || cy >= image.height) continue
      found.push({ ...line, polygon })
    }
  }
  for (const line of repeated(found)) {
    if (!lines.some((known) => inside(centre(line.polygon), known))) lines.push(line)
  }
  return lines
}
