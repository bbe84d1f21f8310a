// Everything that needs the ISNet model is in this one file, so one test run holds one copy of
// it (about 1.5 GB) however many files run in parallel.
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { subjectCutout, subjectMask } from './erase.ts'
import type { AiImage } from './image.ts'
import { createAi } from './index.ts'
import { rgb } from './pixels.ts'
import { ModelPools } from './pool.ts'
import { REMEMBERED_MAX_BYTES, rememberedSize } from './remembered.ts'
import { resolveAiSettings } from './settings.ts'
import { channel, decode, iou, paramsOf, SAMPLES } from './test-support.ts'
import type { Task } from './worker.ts'

const ai = createAi({ timeoutMs: 600_000 })
afterAll(() => ai.close())

const SLOW = 900_000
const HORSE = await decode('horse.png')
const ASTRONAUT = await decode('astronaut.png')
const TRUTH = channel(
  await decode(new URL('./fixtures/horse-mask.png', import.meta.url).pathname),
  0,
)

function alphaAt(image: { data: Uint8Array; width: number }, x: number, y: number): number {
  return image.data[(y * image.width + x) * 4 + 3] as number
}

describe('erase.bg', () => {
  it(
    'cuts out the subject: IoU ≥ 0.9 against the true mask, corners transparent',
    async () => {
      const { image } = await ai.run({
        key: 'erase.bg',
        image: HORSE,
        params: paramsOf('erase.bg'),
      })
      expect(image).toMatchObject({ width: 400, height: 328, channels: 4 })
      expect(iou(channel(image, 3), TRUTH)).toBeGreaterThanOrEqual(0.9)
      for (const [x, y] of [
        [0, 0],
        [399, 0],
        [0, 327],
        [399, 327],
      ] as const) {
        expect(alphaAt(image, x, y)).toBe(0)
      }
      // The horse's body, middle of the barrel: opaque.
      expect(alphaAt(image, 200, 150)).toBe(255)
    },
    SLOW,
  )

  it(
    'adds a soft contact shadow under the subject with shadow:true',
    async () => {
      const params = paramsOf('erase.bg', { shadow: true })
      const { image } = await ai.run({ key: 'erase.bg', image: HORSE, params })
      // Just below the hooves (the silhouette ends at y 312): a dark, partly transparent
      // shadow; far above the horse: nothing.
      const below = [150, 200, 250].map((x) => alphaAt(image, x, 318))
      expect(Math.max(...below)).toBeGreaterThan(20)
      expect(Math.max(...below)).toBeLessThan(255)
      expect(alphaAt(image, 380, 10)).toBe(0)
      expect(alphaAt(image, 200, 150)).toBe(255)
    },
    SLOW,
  )

  it(
    'remove.bg does the same on a photo: the portrait stays, the backdrop goes',
    async () => {
      const { image } = await ai.run({
        key: 'remove.bg',
        image: ASTRONAUT,
        params: paramsOf('remove.bg'),
      })
      expect(alphaAt(image, 10, 10)).toBe(0)
      expect(alphaAt(image, 500, 10)).toBe(0)
      // Her face.
      expect(alphaAt(image, 220, 130)).toBe(255)
    },
    SLOW,
  )
})

describe('the subject mask', () => {
  it(
    'places ic.crop(g:foreground) on the subject',
    async () => {
      const box = await ai.focus('foreground', HORSE)
      const truth = { left: 400, top: 328, right: 0, bottom: 0 }
      for (let i = 0; i < TRUTH.length; i++) {
        if ((TRUTH[i] as number) < 128) continue
        const x = i % 400
        const y = Math.floor(i / 400)
        truth.left = Math.min(truth.left, x)
        truth.right = Math.max(truth.right, x)
        truth.top = Math.min(truth.top, y)
        truth.bottom = Math.max(truth.bottom, y)
      }
      // Within 3 % of the horse's size: the bounds leave out the thinnest 0.2 % of the mask on
      // each side (here the tip of the tail), so stray specks do not widen them.
      expect(Math.abs((box?.left ?? -99) - truth.left)).toBeLessThanOrEqual(12)
      expect(Math.abs((box?.top ?? -99) - truth.top)).toBeLessThanOrEqual(10)
      expect(Math.abs((box?.width ?? 0) - (truth.right - truth.left + 1))).toBeLessThanOrEqual(24)
    },
    SLOW,
  )

  it(
    'reports the object size, its centring and a plain background (cos, imc, dbt)',
    async () => {
      const size = await ai.run({ key: 'cos.detect', image: HORSE, params: paramsOf('cos.detect') })
      // The horse's bounding box covers about 70 % of the picture.
      expect(size.data?.objectPercentage).toBeGreaterThan(55)
      expect(size.data?.passed).toBe(true)
      expect(size.image).toBe(HORSE)
      const centre = await ai.run({
        key: 'imc.detect',
        image: HORSE,
        params: paramsOf('imc.detect'),
      })
      expect(centre.data?.centred).toBe(true)
      const plain = await ai.run({
        key: 'dbt.detect',
        image: HORSE,
        params: paramsOf('dbt.detect'),
      })
      expect(plain.data?.type).toBe('plain')
      // Its box's centre is a few percent from the picture's.
      const offset = centre.data?.offsetPercent as { x: number; y: number }
      expect(Math.abs(offset.x)).toBeLessThan(5)
      expect(Math.abs(offset.y)).toBeLessThan(5)
    },
    SLOW,
  )

  it(
    'shadow.gen casts a shadow and composites the subject on a colour',
    async () => {
      const params = paramsOf('shadow.gen', { bgc: '3060c0', a: 90, i: 0.8 })
      const { image } = await ai.run({ key: 'shadow.gen', image: HORSE, params })
      expect(image).toMatchObject({ width: 400, height: 328, channels: 3 })
      const at = (x: number, y: number) =>
        Array.from(image.data.subarray((y * 400 + x) * 3, (y * 400 + x) * 3 + 3))
      // Far from the horse: the background colour; the horse itself: black; just below its
      // belly (which ends near y 190; the shadow falls downwards at 90°): the colour darkened,
      // and more so than the same point with the light from below (a: 270).
      expect(at(390, 10)).toEqual([0x30, 0x60, 0xc0])
      expect(Math.max(...at(200, 150))).toBeLessThan(40)
      const belly = at(200, 197)[2] as number
      expect(belly).toBeLessThan(0xc0 - 30)
      const up = paramsOf('shadow.gen', { bgc: '3060c0', a: 270, i: 0.8 })
      const lit = await ai.run({ key: 'shadow.gen', image: HORSE, params: up })
      expect(lit.image.data[(197 * 400 + 200) * 3 + 2]).toBeGreaterThan(belly)
    },
    SLOW,
  )
})

describe('onnxruntime', () => {
  it(
    'runs in several worker threads of one process: OCR beside ISNet, ISNet again after a timeout',
    async () => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="80">
        <rect width="100%" height="100%" fill="#fff"/>
        <text x="16" y="52" font-family="DejaVu Sans, sans-serif" font-size="32">two models</text>
      </svg>`
      const text = await decode(await sharp(Buffer.from(svg)).png().toBuffer())
      const { data } = await ai.run({
        key: 'ocr.extract',
        image: text,
        params: paramsOf('ocr.extract'),
      })
      expect(data?.text).toBe('two models')
      // A call stopped by its time limit ends its worker; the next call loads ISNet afresh.
      const hasty = createAi({ timeoutMs: 100 })
      try {
        await expect(
          hasty.run({ key: 'erase.bg', image: HORSE, params: paramsOf('erase.bg') }),
        ).rejects.toMatchObject({ code: 'timeout' })
      } finally {
        await hasty.close()
      }
      const { image } = await ai.run({
        key: 'erase.bg',
        image: HORSE,
        params: paramsOf('erase.bg'),
      })
      expect(iou(channel(image, 3), TRUTH)).toBeGreaterThanOrEqual(0.9)
    },
    SLOW,
  )
})

/** An SVG shape (white on transparent) as the alpha of a sample photo, RGBA, at `w`×`h`. */
async function shapedSample(sample: string, shape: string, w: number, h: number) {
  const texture = await sharp(new URL(sample, SAMPLES).pathname)
    .resize(w, h, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer()
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${shape}</svg>`
  const alpha = await sharp(Buffer.from(svg)).ensureAlpha().extractChannel(3).raw().toBuffer()
  const data = Buffer.alloc(w * h * 4)
  for (let i = 0; i < w * h; i++) {
    texture.copy(data, 4 * i, 3 * i, 3 * i + 3)
    data[4 * i + 3] = alpha[i] as number
  }
  return { data, width: w, height: h, channels: 4 as const }
}

/** An RGBA foreground over a flat colour: what a camera would have seen. */
function over(fg: AiImage, colour: readonly number[]): AiImage {
  const data = Buffer.alloc(fg.width * fg.height * 3)
  for (let i = 0; i < fg.width * fg.height; i++) {
    const a = (fg.data[4 * i + 3] as number) / 255
    for (let c = 0; c < 3; c++)
      data[3 * i + c] = Math.round(
        (fg.data[4 * i + c] as number) * a + (colour[c] as number) * (1 - a),
      )
  }
  return { data, width: fg.width, height: fg.height, channels: 3 }
}

const MUG = `<rect x="100" y="50" width="150" height="200" rx="18" fill="#fff"/>
  <ellipse cx="262" cy="150" rx="40" ry="50" fill="none" stroke="#fff" stroke-width="14"/>`

describe('cut-outs a user keeps', () => {
  it(
    'keeps the transparency an image already has: never more opaque than the input',
    async () => {
      const mug = await shapedSample('coffee.png', MUG, 400, 300)
      // Many PNGs hold black (or leftovers) under their transparent pixels.
      for (let i = 0; i < 400 * 300; i++)
        if (mug.data[4 * i + 3] === 0) mug.data.fill(0, 4 * i, 4 * i + 3)
      const glass = { ...mug, data: Buffer.from(mug.data) }
      for (let i = 0; i < 400 * 300; i++)
        glass.data[4 * i + 3] = (mug.data[4 * i + 3] as number) >> 1
      for (const input of [mug, glass]) {
        const { image } = await ai.run({
          key: 'erase.bg',
          image: input,
          params: paramsOf('erase.bg'),
        })
        const given = channel(input, 3)
        const found = channel(image, 3)
        let above = 0
        for (let i = 0; i < given.length; i++)
          above = Math.max(above, (found[i] as number) - (given[i] as number))
        expect(above).toBe(0)
        // The subject is the mug's shape in both (the glass at half the opacity).
        const scale = input === mug ? 1 : 2
        const seen = found.map((v) => Math.min(255, v * scale))
        expect(iou(seen, channel(mug, 3))).toBeGreaterThanOrEqual(0.9)
      }
    },
    SLOW,
  )

  it(
    'takes the old background colour out of the edges (no blue halo round a cat on blue)',
    async () => {
      const cat = await shapedSample(
        'chelsea.png',
        '<ellipse cx="200" cy="150" rx="120" ry="110" fill="#fff"/>',
        400,
        300,
      )
      const blue = [20, 60, 230]
      const photo = over(cat, blue)
      const { image } = await ai.run({
        key: 'erase.bg',
        image: photo,
        params: paramsOf('erase.bg'),
      })
      expect(iou(channel(image, 3), channel(cat, 3))).toBeGreaterThanOrEqual(0.97)
      // On the semi-transparent edge: how far the colours are from the cat's own, against how
      // far the photo's are (which is what a cut-out without de-contamination keeps).
      let kept = 0
      let cleaned = 0
      for (let i = 0; i < 400 * 300; i++) {
        const a = image.data[4 * i + 3] as number
        if (a < 30 || a > 225) continue
        for (let c = 0; c < 3; c++) {
          const own = cat.data[4 * i + c] as number
          kept += Math.abs((photo.data[3 * i + c] as number) - own)
          cleaned += Math.abs((image.data[4 * i + c] as number) - own)
        }
      }
      expect(kept).toBeGreaterThan(0)
      expect(cleaned).toBeLessThan(kept * 0.6)
    },
    SLOW,
  )

  it(
    'cuts a product filling the frame out solid, not as a semi-transparent ghost',
    async () => {
      const product = await shapedSample(
        'coffee.png',
        '<rect x="24" y="12" width="352" height="279" rx="32" fill="#fff"/>',
        400,
        300,
      )
      const { image } = await ai.run({
        key: 'erase.bg',
        image: over(product, [238, 238, 236]),
        params: paramsOf('erase.bg'),
      })
      const found = channel(image, 3)
      let visible = 0
      let semi = 0
      for (const value of found) {
        if (value >= 16) visible++
        if (value >= 16 && value < 240) semi++
      }
      // ISNet's own mask left a quarter of it semi-transparent.
      expect(semi / visible).toBeLessThan(0.1)
      expect(iou(found, channel(product, 3))).toBeGreaterThanOrEqual(0.9)
    },
    SLOW,
  )

  it(
    'shadow.gen on a transparent colour answers the subject and its shadow over transparency',
    async () => {
      const params = paramsOf('shadow.gen', { bgc: '00000000', a: 90, i: 0.8 })
      const { image } = await ai.run({ key: 'shadow.gen', image: HORSE, params })
      expect(image).toMatchObject({ width: 400, height: 328, channels: 4 })
      expect(alphaAt(image, 390, 10)).toBe(0)
      expect(alphaAt(image, 200, 150)).toBe(255)
      // Just below the belly: the shadow, dark and partly transparent.
      const shadow = alphaAt(image, 200, 197)
      expect(shadow).toBeGreaterThan(30)
      expect(shadow).toBeLessThan(255)
      expect(image.data[(197 * 400 + 200) * 4]).toBeLessThan(40)
    },
    SLOW,
  )
})

describe('remembered masks', () => {
  class CountingPools extends ModelPools {
    modelRuns = 0
    override run<T>(task: Task, label: string): Promise<T> {
      if (task.kind === 'isnet') this.modelRuns += 1
      return super.run<T>(task, label)
    }
  }

  it(
    'runs ISNet once for the same pixels, asked twice at once, again later and by a detection',
    async () => {
      const pools = new CountingPools(resolveAiSettings({ timeoutMs: 600_000 }))
      const photo = await rgb(HORSE)
      try {
        const [first, twin] = await Promise.all([
          subjectCutout(pools, photo, 'small', 'erase.bg'),
          subjectCutout(pools, photo, 'small', 'erase.bg'),
        ])
        const later = await subjectCutout(pools, photo, 'small', 'erase.bg')
        // ic.crop(g:foreground) and the detections read the same mask.
        const mask = await subjectMask(pools, photo, 'small', 'ic.crop')
        expect(pools.modelRuns).toBe(1)
        expect(Buffer.compare(first.alpha, later.alpha)).toBe(0)
        expect(Buffer.compare(twin.colour.data, later.colour.data)).toBe(0)
        expect(iou(mask, TRUTH)).toBeGreaterThan(0.9)
        // A caller's changes to its answer are its own.
        first.alpha.fill(0)
        mask.fill(0)
        const again = await subjectCutout(pools, photo, 'small', 'erase.bg')
        expect(Buffer.compare(again.alpha, later.alpha)).toBe(0)
        expect(iou(await subjectMask(pools, photo, 'small', 'ic.crop'), TRUTH)).toBeGreaterThan(0.9)
        // Other pixels are another question.
        const flipped = { ...photo, data: Buffer.from(photo.data).reverse() }
        await subjectCutout(pools, flipped, 'small', 'erase.bg')
        expect(pools.modelRuns).toBe(2)
        // A mask and a matte for each image.
        expect(rememberedSize(pools).entries).toBe(4)
        expect(rememberedSize(pools).bytes).toBeGreaterThan(0)
        expect(rememberedSize(pools).bytes).toBeLessThanOrEqual(REMEMBERED_MAX_BYTES)
      } finally {
        await pools.close()
      }
    },
    SLOW,
  )
})
