// wm.remove on real photos with marks composited here, so the clean photo is the ground truth:
// a half-transparent tiled stock-photo mark comes off without harming the rest, an opaque logo
// in a given box comes off body and all, and without a box a removal that would repaint much of
// the photo is refused. One AI service for the file (OCR and OpenCV load once).
import sharp, { type Sharp } from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import type { AiImage } from './image.ts'
import { createAi } from './index.ts'
import { repeated, unturn } from './mark-text.ts'
import { paramsOf, SAMPLES } from './test-support.ts'
import { removeMarks } from './watermark.ts'

const ai = createAi({ timeoutMs: 600_000 })
afterAll(() => ai.close())

const SLOW = 900_000
const WIDTH = 600
const HEIGHT = 400

/** PSNR in dB of two RGB images over the pixels where `where` is set. */
function psnr(a: AiImage, b: AiImage, where: Uint8Array): number {
  let sum = 0
  let count = 0
  for (let i = 0; i < where.length; i++) {
    if (where[i] === 0) continue
    for (let c = 0; c < 3; c++) {
      const d = (a.data[3 * i + c] as number) - (b.data[3 * i + c] as number)
      sum += d * d
    }
    count += 3
  }
  return sum === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255 * count) / sum)
}

async function raw(pipeline: Sharp): Promise<AiImage> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels as 3 }
}

/** The clean photo, the photo with the mark, where the mark is, and far from it (> 4 px). */
async function marked(markSvg: string, name = 'coffee.png', width = WIDTH, height = HEIGHT) {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${markSvg}</svg>`,
  )
  const photo = await sharp(new URL(name, SAMPLES).pathname)
    .removeAlpha()
    .resize(width, height)
    .png()
    .toBuffer()
  const clean = await raw(sharp(photo))
  const image = await raw(
    sharp(photo)
      .composite([{ input: svg }])
      .removeAlpha(),
  )
  const alpha = (await raw(sharp(svg).extractChannel('alpha'))).data
  const on = Uint8Array.from(alpha, (a) => (a > 8 ? 255 : 0))
  const near = (
    await raw(
      sharp(on, { raw: { width, height, channels: 1 } })
        .erode(4)
        .toColourspace('b-w'),
    )
  ).data
  const away = Uint8Array.from(near, (v) => (v > 0 ? 0 : 255))
  return { clean, image, on, away }
}

function tiledText(): string {
  const texts: string[] = []
  for (let y = -HEIGHT; y < 2 * HEIGHT; y += 129) {
    for (let x = -WIDTH; x < 2 * WIDTH; x += 387) {
      texts.push(`<text x="${x + ((y / 129) % 2) * 172}" y="${y}">© STOCKPHOTO</text>`)
    }
  }
  return `<g transform="rotate(-30 300 200)" font-family="DejaVu Sans" font-weight="bold" font-size="43" fill="#fff" fill-opacity="0.45">${texts.join('')}</g>`
}

/** White "© STOCKPHOTO" at 45 %, tiled at −30°, on the astronaut's light wall (512²): the
 * recogniser reads none of it level, so it is read again on turned copies (mark-text.ts). */
function lightTiledText(): string {
  const texts: string[] = []
  for (let y = -512; y < 1024; y += 111) {
    for (let x = -512; x < 1024; x += 333) {
      texts.push(`<text x="${x + ((y / 111) % 2) * 148}" y="${y}">© STOCKPHOTO</text>`)
    }
  }
  return `<g transform="rotate(-30 256 256)" font-family="DejaVu Sans" font-weight="bold" font-size="37" fill="#fff" fill-opacity="0.45">${texts.join('')}</g>`
}

const LOGO = `<rect x="462" y="340" width="120" height="44" rx="9" fill="#1565c0"/><text x="522" y="370" text-anchor="middle" font-family="Liberation Sans" font-weight="bold" font-size="27" fill="#fff">LOGO</text>`

describe('wm.remove', () => {
  it(
    'takes a half-transparent tiled mark off (+3 dB on it) and leaves the rest (≥ 30 dB)',
    async () => {
      const { clean, image, on, away } = await marked(tiledText())
      const params = paramsOf('wm.remove', { rem_text: true })
      const { image: out } = await ai.run({ key: 'wm.remove', image, params })
      expect(psnr(out, clean, on)).toBeGreaterThanOrEqual(psnr(image, clean, on) + 3)
      expect(psnr(out, clean, away)).toBeGreaterThanOrEqual(30)
    },
    SLOW,
  )

  it(
    'finds a light tiled mark on a light photo and takes part of it off, leaving the rest',
    async () => {
      const { clean, image, on, away } = await marked(lightTiledText(), 'astronaut.png', 512, 512)
      const params = paramsOf('wm.remove', { rem_text: true })
      const { image: out } = await ai.run({ key: 'wm.remove', image, params })
      // Read level, nothing was found and nothing gained; the turned readings find part of the
      // tiles, and their rows the rest (mark-rows.test.ts; +3.8 dB in the benchmark).
      expect(psnr(out, clean, on)).toBeGreaterThanOrEqual(psnr(image, clean, on) + 1)
      expect(psnr(out, clean, away)).toBeGreaterThanOrEqual(30)
    },
    SLOW,
  )

  it(
    'takes an opaque logo off inside its box, body and all (+6 dB on it)',
    async () => {
      const { clean, image, on, away } = await marked(LOGO)
      // The logo's box with a few pixels around it, in percent of the image: x_y_w_h.
      const box1 = [456 / 6, 334 / 4, 132 / 6, 56 / 4].map((v) => v.toFixed(2)).join('_')
      const params = paramsOf('wm.remove', { rem_logo: true, box1 })
      const { image: out } = await ai.run({ key: 'wm.remove', image, params })
      expect(psnr(out, clean, on)).toBeGreaterThanOrEqual(psnr(image, clean, on) + 6)
      expect(psnr(out, clean, away)).toBeGreaterThanOrEqual(30)
    },
    SLOW,
  )

  it(
    'refuses rem_logo without a box, saying to give one, rather than repaint the photo',
    async () => {
      const { image } = await marked(LOGO)
      const params = paramsOf('wm.remove', { rem_logo: true })
      const refusal = ai.run({ key: 'wm.remove', image, params })
      await expect(refusal).rejects.toMatchObject({ code: 'invalid_param' })
      await expect(refusal).rejects.toThrow(/without a box.*box1=x_y_w_h/)
    },
    SLOW,
  )
})

describe('removeMarks', () => {
  it('reverses a 40 % white blend on a textured image, leaving under a quarter of the error', async () => {
    // A textured "photo" and a line of text blended over it with white at 40 %.
    const width = 240
    const height = 60
    const photo = new Uint8Array(width * height * 3)
    for (let i = 0; i < width * height; i++) {
      const x = i % width
      const y = (i - x) / width
      const value = 90 + 20 * Math.sin(x / 9) + 15 * Math.cos(y / 11)
      photo.set([value, value * 0.8, value * 0.6], 3 * i)
    }
    const text = await raw(
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><text x="10" y="42" font-family="DejaVu Sans" font-weight="bold" font-size="34" fill="#fff">SAMPLE</text></svg>`,
        ),
      ).extractChannel('alpha'),
    )
    const image = Uint8Array.from(photo)
    for (let i = 0; i < width * height; i++) {
      const alpha = (0.4 * (text.data[i] as number)) / 255
      for (let c = 0; c < 3; c++) {
        image[3 * i + c] = Math.round((1 - alpha) * (photo[3 * i + c] as number) + alpha * 255)
      }
    }
    const line: [number, number][] = [
      [8, 12],
      [170, 12],
      [170, 48],
      [8, 48],
    ]
    const result = await removeMarks(
      { data: image, width, height, channels: 3 },
      { key: 'wm.remove', boxes: [], lines: [line], logo: false },
      async () => {
        throw new Error('a semi-transparent mark is not repainted')
      },
    )
    expect(result.opacity).toBeGreaterThan(0.2)
    expect(result.opacity).toBeLessThan(0.6)
    let before = 0
    let after = 0
    let count = 0
    for (let i = 0; i < width * height; i++) {
      if ((text.data[i] as number) < 250) continue
      for (let c = 0; c < 3; c++) {
        before += Math.abs((image[3 * i + c] as number) - (photo[3 * i + c] as number))
        after += Math.abs((result.image.data[3 * i + c] as number) - (photo[3 * i + c] as number))
      }
      count += 3
    }
    expect(after / count).toBeLessThan(before / count / 4)
  })
})

describe('reading a turned copy', () => {
  it('maps a point of a copy sharp turned by ±30° back to where it was', async () => {
    const [width, height] = [120, 80]
    const data = Buffer.alloc(width * height * 3)
    // A bright 3×3 dot at (90, 20).
    for (let y = 19; y <= 21; y++) data.fill(255, 3 * (y * width + 89), 3 * (y * width + 92))
    for (const degrees of [30, -30]) {
      const turned = await raw(
        sharp(data, { raw: { width, height, channels: 3 } }).rotate(degrees, {
          background: '#000',
        }),
      )
      let best = 0
      for (let i = 1; i < turned.width * turned.height; i++) {
        if ((turned.data[3 * i] as number) > (turned.data[3 * best] as number)) best = i
      }
      const at: [number, number] = [
        (best % turned.width) + 0.5,
        Math.floor(best / turned.width) + 0.5,
      ]
      const [x, y] = unturn(at, degrees, turned, { width, height })
      expect(Math.abs(x - 90.5)).toBeLessThan(2)
      expect(Math.abs(y - 20.5)).toBeLessThan(2)
    }
  })
})

describe('a tiled mark', () => {
  it('is told from a lone slanted reading by its repeats', () => {
    const line = (text: string) => ({ text, score: 0.6, polygon: [] })
    const tiled = ['HOTOO', 'OSTOIKPHO', 'OCKPHOTOOSIO TO', 'TOCSTOOKP'].map(line)
    expect(repeated([...tiled, line('Jane Doe')]).map(({ text }) => text)).toEqual(
      tiled.map(({ text }) => text),
    )
  })
})
