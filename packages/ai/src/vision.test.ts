// Text and faces on real pixels with ground truth made here: text rendered at known places on a
// canvas whose sides are not multiples of 32 (where the OCR model resizes), and group photos
// composited from the hand-annotated portrait at known places. One AI service for the file, so
// each model loads once.
import sharp, { type Sharp } from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import type { AiImage, Box } from './image.ts'
import { createAi } from './index.ts'
import { mergeFaces } from './models/faces.ts'
import { decode, paramsOf, SAMPLES } from './test-support.ts'

const ai = createAi({ timeoutMs: 600_000 })
afterAll(() => ai.close())

const SLOW = 900_000

function iou(a: Box, b: Box): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left)
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top)
  const inter = Math.max(0, w) * Math.max(0, h)
  return inter / (a.width * a.height + b.width * b.height - inter)
}

/** The share of `box` that im.mask(m:fill_black) turned black. */
function covered(masked: AiImage, box: Box): number {
  let black = 0
  for (let y = box.top; y < box.top + box.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) {
      const at = (y * masked.width + x) * masked.channels
      if (masked.data[at] === 0 && masked.data[at + 1] === 0 && masked.data[at + 2] === 0) black++
    }
  }
  return black / (box.width * box.height)
}

/** Raw pixels with no pure black, so black after im.mask(m:fill_black) is the mask alone. */
async function pixels(pipeline: Sharp): Promise<AiImage> {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true })
  for (let i = 0; i < data.length; i++) if (data[i] === 0) data[i] = 1
  return { data, width: info.width, height: info.height, channels: 3 }
}

describe('text on a 1000×100 banner', () => {
  const lines = [
    { text: 'Call +1 555 012 3456', x: 24, y: 46, size: 30 },
    { text: 'hello@example.com', x: 560, y: 80, size: 26 },
  ]
  const svg = (only?: (typeof lines)[number]) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="100">${(only ? [only] : lines)
        .map(
          (line) =>
            `<text x="${line.x}" y="${line.y}" font-family="DejaVu Sans" font-size="${line.size}" fill="#1a237e">${line.text}</text>`,
        )
        .join('')}</svg>`,
    )

  /** The bounds of a line's ink: the line rendered alone, where its alpha shows. */
  async function ink(line: (typeof lines)[number]): Promise<Box> {
    const { data } = await sharp(svg(line)).extractChannel('alpha').raw().toBuffer({
      resolveWithObject: true,
    })
    let [left, top, right, bottom] = [1000, 100, -1, -1]
    for (let i = 0; i < data.length; i++) {
      if ((data[i] as number) < 64) continue
      const x = i % 1000
      const y = (i - x) / 1000
      ;[left, right] = [Math.min(left, x), Math.max(right, x)]
      ;[top, bottom] = [Math.min(top, y), Math.max(bottom, y)]
    }
    return { left, top, width: right - left + 1, height: bottom - top + 1 }
  }

  const banner = () =>
    pixels(
      sharp({ create: { width: 1000, height: 100, channels: 3, background: '#ffffff' } })
        .composite([{ input: svg() }])
        .png(),
    )

  it(
    'is found where it was drawn (ocr.extract, wmc.detect), not shifted by the model resize',
    async () => {
      const image = await banner()
      const ocr = await ai.run({ key: 'ocr.extract', image, params: paramsOf('ocr.extract') })
      const found = ((ocr.data?.lines ?? []) as { box: Box; text: string }[]).map(
        (line) => line.box,
      )
      const wmc = await ai.run({ key: 'wmc.detect', image, params: paramsOf('wmc.detect') })
      const regions = ((wmc.data?.regions ?? []) as { box: Box }[]).map((region) => region.box)
      for (const line of lines) {
        const truth = await ink(line)
        expect(Math.max(...found.map((box) => iou(box, truth))), line.text).toBeGreaterThan(0.7)
        expect(Math.max(...regions.map((box) => iou(box, truth))), line.text).toBeGreaterThan(0.7)
      }
      expect(ocr.data?.text).toContain('hello@example.com')
    },
    SLOW,
  )

  it(
    'is hidden whole by im.mask(d:text): every line, every letter',
    async () => {
      const image = await banner()
      const params = paramsOf('im.mask', { d: 'text', m: 'fill_black' })
      const { image: masked } = await ai.run({ key: 'im.mask', image, params })
      for (const line of lines) {
        expect(covered(masked, await ink(line)), line.text).toBeGreaterThanOrEqual(0.95)
      }
      // Away from the text the banner is untouched.
      expect(
        Array.from(masked.data.subarray((95 * 1000 + 500) * 3, (95 * 1000 + 500) * 3 + 3)),
      ).toEqual([255, 255, 255])
    },
    SLOW,
  )
})

// The astronaut's face, annotated by hand on the 512² sample (brows to chin, ear to ear).
const FACE = { left: 177, top: 80, width: 96, height: 105 }

/** Heads of the portrait, the face `size` px wide, centred on each of `centres`, on a photo. */
async function group(
  width: number,
  height: number,
  size: number,
  centres: [number, number][],
): Promise<{ image: AiImage; faces: Box[] }> {
  const scale = size / FACE.width
  const head = { left: 129, top: 36, width: 192, height: 192 }
  const cx = (FACE.left + FACE.width / 2 - head.left) * scale
  const cy = (FACE.top + FACE.height / 2 - head.top) * scale
  const input = await sharp(new URL('astronaut.png', SAMPLES).pathname)
    .extract(head)
    .resize(Math.round(head.width * scale))
    .png()
    .toBuffer()
  const image = await pixels(
    sharp(new URL('coffee.png', SAMPLES).pathname)
      .resize(width, height, { fit: 'cover' })
      .composite(
        centres.map(([x, y]) => ({ input, left: Math.round(x - cx), top: Math.round(y - cy) })),
      ),
  )
  const faces = centres.map(([x, y]) => ({
    left: Math.round(x - size / 2),
    top: Math.round(y - (FACE.height * scale) / 2),
    width: size,
    height: Math.round(FACE.height * scale),
  }))
  return { image, faces }
}

describe('faces', () => {
  it(
    'are all hidden by im.mask(d:face) in a group photo of small faces, each whole',
    async () => {
      const centres: [number, number][] = []
      for (let row = 0; row < 2; row++) {
        for (let column = 0; column < 4; column++)
          centres.push([200 + column * 330, 220 + row * 400])
      }
      const { image, faces } = await group(1400, 840, 44, centres)
      const params = paramsOf('im.mask', { d: 'face', m: 'fill_black' })
      const { image: masked } = await ai.run({ key: 'im.mask', image, params })
      for (const face of faces) expect(covered(masked, face)).toBeGreaterThanOrEqual(0.95)
    },
    SLOW,
  )

  it(
    'keep every face in view for ic.crop(g:face) when they fit together',
    async () => {
      const { image, faces } = await group(1300, 480, 70, [
        [220, 240],
        [380, 250],
        [530, 230],
      ])
      const focus = await ai.focus('face', image)
      if (focus === undefined) throw new Error('no face found')
      for (const face of faces) {
        expect(focus.left).toBeLessThanOrEqual(face.left + face.width / 4)
        expect(focus.left + focus.width).toBeGreaterThanOrEqual(face.left + (face.width * 3) / 4)
      }
    },
    SLOW,
  )

  it(
    'are not found on a cat: SSD calls chelsea.png a face, the second opinion does not',
    async () => {
      expect(await ai.focus('face', await decode('chelsea.png'))).toBeUndefined()
    },
    SLOW,
  )

  it('join the part of a face a tile saw with the whole face, and keep neighbours apart', () => {
    const whole = { score: 0.9, box: { left: 100, top: 100, width: 60, height: 70 } }
    const part = { score: 0.95, box: { left: 100, top: 100, width: 40, height: 68 } }
    const neighbour = { score: 0.8, box: { left: 175, top: 105, width: 60, height: 70 } }
    const merged = mergeFaces([whole, part, neighbour])
    expect(merged).toHaveLength(2)
    expect(merged[0]?.box).toEqual(whole.box)
    expect(merged[1]?.box).toEqual(neighbour.box)
  })
})
