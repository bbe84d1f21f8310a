// Text: lines rendered at known places on canvases of odd sizes (never multiples of 32, where
// the OCR library resizes), in several fonts, sizes and colours, on flat colours and on
// photos. Each line's truth is the box of its ink (rendered alone, the alpha's bounds).
// Measured: box IoU of each line against the best line found (ocr.extract), the character
// error rate of its text, wmc.detect's regions the same way, and the share of each line's box
// that im.mask(d:text) covers.
import { type AiImage, createAi } from '@tessera/ai'
import sharp from 'sharp'
import { paramsOf } from '../../packages/ai/src/test-support.ts'
import { type Box, boxCoverage, boxIou, printRows } from './metrics.ts'

const SAMPLES = new URL('../../apps/server/demo/samples/', import.meta.url)

interface Line {
  text: string
  x: number
  /** Baseline. */
  y: number
  size: number
  font: string
  colour: string
  weight?: string
}

interface Scene {
  name: string
  width: number
  height: number
  /** A flat colour, or a sample photo covering the canvas. */
  background: string
  lines: Line[]
}

const SCENES: Scene[] = [
  {
    name: 'banner 1000×100',
    width: 1000,
    height: 100,
    background: '#ffffff',
    lines: [
      {
        text: 'Call +1 555 012 3456',
        x: 24,
        y: 46,
        size: 30,
        font: 'DejaVu Sans',
        colour: '#1a237e',
      },
      {
        text: 'hello@example.com',
        x: 560,
        y: 80,
        size: 26,
        font: 'Liberation Sans',
        colour: '#111111',
      },
    ],
  },
  {
    name: 'thin strip 601×97',
    width: 601,
    height: 97,
    background: '#ffeb3b',
    lines: [
      {
        text: 'OPEN SUNDAY 10-18',
        x: 18,
        y: 60,
        size: 34,
        font: 'Liberation Sans',
        colour: '#c62828',
        weight: 'bold',
      },
    ],
  },
  {
    name: 'coffee 777×333',
    width: 777,
    height: 333,
    background: 'coffee.png',
    lines: [
      {
        text: 'SALE 50% OFF',
        x: 40,
        y: 90,
        size: 56,
        font: 'DejaVu Sans',
        colour: '#ffffff',
        weight: 'bold',
      },
      {
        text: 'www.example.shop',
        x: 44,
        y: 300,
        size: 24,
        font: 'DejaVu Sans Mono',
        colour: '#ffffff',
      },
    ],
  },
  {
    name: 'astronaut 1234×567',
    width: 1234,
    height: 567,
    background: 'astronaut.png',
    lines: [
      {
        text: 'Mission Control',
        x: 610,
        y: 120,
        size: 48,
        font: 'Liberation Serif',
        colour: '#ffeb3b',
      },
      {
        text: 'info@tessera.test',
        x: 640,
        y: 520,
        size: 30,
        font: 'Liberation Sans',
        colour: '#ffffff',
      },
      {
        text: 'Tel 0800 123 987',
        x: 30,
        y: 540,
        size: 22,
        font: 'DejaVu Serif',
        colour: '#000000',
      },
    ],
  },
  {
    name: 'header 1500×250',
    width: 1500,
    height: 250,
    background: '#263238',
    lines: [
      {
        text: 'Tessera Image Service',
        x: 60,
        y: 110,
        size: 72,
        font: 'Liberation Sans',
        colour: '#eceff1',
        weight: 'bold',
      },
      {
        text: 'Resize crop and deliver 2026',
        x: 64,
        y: 200,
        size: 32,
        font: 'DejaVu Sans',
        colour: '#80cbc4',
      },
    ],
  },
]

function xml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

function svg(scene: Scene, lines: readonly Line[]): Buffer {
  const texts = lines
    .map(
      (line) =>
        `<text x="${line.x}" y="${line.y}" font-family="${line.font}" font-size="${line.size}" font-weight="${line.weight ?? 'normal'}" fill="${line.colour}">${xml(line.text)}</text>`,
    )
    .join('')
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}">${texts}</svg>`,
  )
}

/** The bounds of a line's ink: the line rendered alone, where its alpha is not zero. */
async function inkBox(scene: Scene, line: Line): Promise<Box> {
  const { data, info } = await sharp(svg(scene, [line]))
    .extractChannel('alpha')
    .raw()
    .toBuffer({ resolveWithObject: true })
  let left = info.width
  let top = info.height
  let right = -1
  let bottom = -1
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if ((data[y * info.width + x] as number) < 64) continue
      left = Math.min(left, x)
      right = Math.max(right, x)
      top = Math.min(top, y)
      bottom = Math.max(bottom, y)
    }
  }
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 }
}

async function render(scene: Scene): Promise<AiImage> {
  const base = scene.background.startsWith('#')
    ? sharp({
        create: {
          width: scene.width,
          height: scene.height,
          channels: 3,
          background: scene.background,
        },
      })
    : sharp(new URL(scene.background, SAMPLES).pathname).resize(scene.width, scene.height, {
        fit: 'cover',
      })
  const png = await base.png().toBuffer()
  const { data, info } = await sharp(png)
    .removeAlpha()
    .composite([{ input: svg(scene, scene.lines) }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  // No pure black in the scene: black after im.mask(m:fill_black) is then the mask alone.
  for (let i = 0; i < data.length; i++) if (data[i] === 0) data[i] = 1
  return { data, width: info.width, height: info.height, channels: 3 }
}

/** Levenshtein distance of two strings over characters. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min(
        (row[j - 1] as number) + 1,
        (previous[j] as number) + 1,
        (previous[j - 1] as number) + cost,
      )
    }
    previous = row
  }
  return previous[b.length] as number
}

interface Found {
  box: Box
  text: string
}

function best(truth: Box, found: readonly Found[]): { iou: number; text: string } {
  let pick = { iou: 0, text: '' }
  for (const line of found) {
    const iou = boxIou(truth, line.box)
    if (iou > pick.iou) pick = { iou, text: line.text }
  }
  return pick
}

type PixelBox = { left: number; top: number; width: number; height: number }
const toBox = (box: PixelBox): Box => ({
  x: box.left,
  y: box.top,
  width: box.width,
  height: box.height,
})

/** Pixels im.mask(m:fill_black) turned black that were not black before. */
function blackened(before: AiImage, after: AiImage): Uint8Array {
  const mask = new Uint8Array(before.width * before.height)
  for (let i = 0; i < mask.length; i++) {
    const sum = (image: AiImage) =>
      (image.data[3 * i] as number) +
      (image.data[3 * i + 1] as number) +
      (image.data[3 * i + 2] as number)
    const was = sum(before)
    const now = sum(after)
    mask[i] = now === 0 && was > 0 ? 255 : 0
  }
  return mask
}

const ai = createAi({ timeoutMs: 600_000 })
const rows: Record<string, string | number>[] = []
const all = { iou: [] as number[], cer: [] as number[], wmc: [] as number[], cover: [] as number[] }
try {
  for (const scene of SCENES) {
    const image = await render(scene)
    const ocr = await ai.run({ key: 'ocr.extract', image, params: paramsOf('ocr.extract') })
    const lines = (ocr.data?.lines ?? []) as { text: string; box: PixelBox }[]
    const found = lines.map((line) => ({ box: toBox(line.box), text: line.text }))
    const wmc = await ai.run({ key: 'wmc.detect', image, params: paramsOf('wmc.detect') })
    const regions = ((wmc.data?.regions ?? []) as { box: PixelBox }[]).map((r) => ({
      box: toBox(r.box),
      text: '',
    }))
    const masked = await ai.run({
      key: 'im.mask',
      image,
      params: paramsOf('im.mask', { d: 'text', m: 'fill_black' }),
    })
    const black = blackened(image, await rgbOf(masked.image))
    for (const line of scene.lines) {
      const truth = await inkBox(scene, line)
      const match = best(truth, found)
      const cer = Math.min(1, distance(match.text, line.text) / line.text.length)
      const wmcIou = best(truth, regions).iou
      const cover = boxCoverage(black, image.width, truth)
      all.iou.push(match.iou)
      all.cer.push(cer)
      all.wmc.push(wmcIou)
      all.cover.push(cover)
      rows.push({
        scene: scene.name,
        line: line.text,
        'box IoU (ocr)': match.iou,
        CER: cer,
        'box IoU (wmc)': wmcIou,
        'mask cover': cover,
        read: match.text,
      })
    }
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
  rows.push({
    scene: 'mean',
    line: `${all.iou.length} lines`,
    'box IoU (ocr)': mean(all.iou),
    CER: mean(all.cer),
    'box IoU (wmc)': mean(all.wmc),
    'mask cover': mean(all.cover),
    read: `min IoU ${Math.min(...all.iou).toFixed(3)}, min cover ${Math.min(...all.cover).toFixed(3)}`,
  })
  printRows(rows)
} finally {
  await ai.close()
}

async function rgbOf(image: AiImage): Promise<AiImage> {
  if (image.channels === 3) return image
  const { data, info } = await sharp(image.data, { raw: image })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: 3 }
}
