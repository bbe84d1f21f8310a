// The models other than ISNet, one AI service for the file (each model loads once).
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import type { AiImage } from './image.ts'
import { createAi } from './index.ts'
import { channel, decode, paramsOf, psnr } from './test-support.ts'

const ai = createAi({ timeoutMs: 600_000 })
afterAll(() => ai.close())

const SLOW = 900_000

async function resized(image: AiImage, width: number, height: number): Promise<AiImage> {
  const { data, info } = await sharp(image.data, { raw: image })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

describe('sr.upscale', () => {
  it(
    'restores a halved photo closer to the original than bicubic does (PSNR), tile by tile',
    async () => {
      // 300×200 so that 128-pixel tiles meet inside the image (a seam would cost PSNR).
      const original = await decode(
        await sharp(new URL('coffee.png', SAMPLES_URL).pathname).resize(300, 200).png().toBuffer(),
      )
      const half = await resized(original, 150, 100)
      const bicubic = await resized(half, 300, 200)
      for (const model of ['Flash', 'Picasso']) {
        const params = paramsOf('sr.upscale', { t: '2x', model })
        const { image } = await ai.run({ key: 'sr.upscale', image: half, params })
        expect(image).toMatchObject({ width: 300, height: 200, channels: 3 })
        expect(psnr(image, original)).toBeGreaterThan(psnr(bicubic, original))
      }
    },
    SLOW,
  )

  it('refuses a result over the output limit', async () => {
    const image = await decode('chelsea.png')
    await expect(
      ai.run({
        key: 'sr.upscale',
        image,
        params: paramsOf('sr.upscale', { t: '8x' }),
        maxOutputDimension: 3000,
      }),
    ).rejects.toMatchObject({ code: 'invalid_param' })
  })
})

describe('detections', () => {
  it(
    'read text rendered in the test word for word (ocr.extract)',
    async () => {
      const words = 'Tessera reads every word 2026'
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="120">
        <rect width="100%" height="100%" fill="#fff"/>
        <text x="24" y="76" font-family="DejaVu Sans, sans-serif" font-size="40" fill="#111">${words}</text>
      </svg>`
      const image = await decode(await sharp(Buffer.from(svg)).png().toBuffer())
      const { data } = await ai.run({ key: 'ocr.extract', image, params: paramsOf('ocr.extract') })
      expect(data?.text).toBe(words)
      const only = await ai.run({
        key: 'ocr.extract',
        image,
        params: paramsOf('ocr.extract', { detect_only: true }),
      })
      expect(only.data?.text).toBe('')
      expect(only.data?.lines).toHaveLength(1)
    },
    SLOW,
  )

  it(
    'call the demo photos neutral (nsfw.detect)',
    async () => {
      for (const name of ['astronaut.png', 'chelsea.png', 'coffee.png']) {
        const image = await decode(name)
        const { data } = await ai.run({
          key: 'nsfw.detect',
          image,
          params: paramsOf('nsfw.detect'),
        })
        expect(data).toMatchObject({ nsfw: false, label: 'Neutral' })
      }
    },
    SLOW,
  )

  it(
    'find the person in the astronaut portrait (od.detect) and crop to it (ic.crop g:object)',
    async () => {
      const image = await decode('astronaut.png')
      const { data } = await ai.run({ key: 'od.detect', image, params: paramsOf('od.detect') })
      const objects = data?.objects as { label: string; box: { left: number; width: number } }[]
      const person = objects.find((object) => object.label === 'person')
      expect(person).toBeDefined()
      // She fills the left two thirds of the picture.
      expect(person?.box.left).toBeLessThan(100)
      expect(person?.box.width).toBeGreaterThan(250)
      const focus = await ai.focus('object', image, 'person')
      expect(focus).toEqual(person?.box)
      expect(await ai.focus('object', image, 'giraffe')).toBeUndefined()
    },
    SLOW,
  )

  it(
    'round-trip a QR code: qr.generate then qr.scan',
    async () => {
      const blank = await decode('chelsea.png')
      const text = 'tessera:qr/round-trip?ü=1'
      const params = paramsOf('qr.generate', {
        i: Buffer.from(text).toString('base64url'),
        w: 300,
        h: 300,
      })
      const code = await ai.run({ key: 'qr.generate', image: blank, params })
      expect(code.image).toMatchObject({ width: 300, height: 300 })
      const scan = await ai.run({ key: 'qr.scan', image: code.image, params: paramsOf('qr.scan') })
      expect(scan.data).toMatchObject({ found: true, text })
      const none = await ai.run({ key: 'qr.scan', image: blank, params: paramsOf('qr.scan') })
      expect(none.data).toEqual({ found: false })
    },
    SLOW,
  )
})

describe('wm.remove and im.mask', () => {
  it(
    'bring the watermarked region at least halfway back to the original (mean error)',
    async () => {
      const marked = await decode('astronaut-wm.png')
      const original = await decode('astronaut.png')
      const region = channel(await decode('astronaut-wm-mask.png'), 0)
      const error = (image: AiImage) => {
        let sum = 0
        let count = 0
        for (let i = 0; i < region.length; i++) {
          if ((region[i] as number) < 128) continue
          for (let c = 0; c < 3; c++) {
            sum += Math.abs(
              (image.data[i * image.channels + c] as number) -
                (original.data[i * original.channels + c] as number),
            )
          }
          count += 3
        }
        return sum / count
      }
      const params = paramsOf('wm.remove', { rem_text: true })
      const { image } = await ai.run({ key: 'wm.remove', image: marked, params })
      expect(image).toMatchObject({ width: 512, height: 512 })
      expect(error(image)).toBeLessThanOrEqual(error(marked) / 2)
    },
    SLOW,
  )

  it(
    'hide the face: blurred or filled black inside the face box only',
    async () => {
      const image = await decode('astronaut.png')
      const face = await ai.focus('face', image)
      if (face === undefined) throw new Error('no face found')
      const params = paramsOf('im.mask', { d: 'face', m: 'fill_black' })
      const { image: masked } = await ai.run({ key: 'im.mask', image, params })
      const at = (x: number, y: number) =>
        masked.data.subarray((y * 512 + x) * 3, (y * 512 + x) * 3 + 3)
      const cx = Math.round(face.left + face.width / 2)
      const cy = Math.round(face.top + face.height / 2)
      expect(Array.from(at(cx, cy))).toEqual([0, 0, 0])
      // Outside the face box the picture is untouched.
      expect(Array.from(at(20, 500))).toEqual(
        Array.from(image.data.subarray((500 * 512 + 20) * 3, (500 * 512 + 20) * 3 + 3)),
      )
    },
    SLOW,
  )
})

const SAMPLES_URL = new URL('../../../apps/server/demo/samples/', import.meta.url)
