// The AI operations that change an image, by delivery URL through the real server (202 while
// the job runs, then 200 with the image, outcomes checked on the pixels): upscaling, watermark
// removal (and its refusal without a box), face masking and a QR code drawn and read back. Cut
// outs: ai-operations-background.test.ts; detections and predictions:
// ai-operations-detections.test.ts.
import { readFile } from 'node:fs/promises'
import { expect, it } from 'vitest'
import {
  at,
  describeAiOperations,
  type Pixels,
  pixelsOf,
  SAMPLES,
  SLOW,
} from './ai-operations-suite.ts'

describeAiOperations((suite) => {
  const { files, urlOf, deliver, contextOf } = suite

  it(
    'sr.upscale doubles the size, after t.resize in the same chain',
    async () => {
      const image = await pixelsOf(
        await deliver('t.resize(w:64)~sr.upscale(t:2x,model:Flash)', 'in/small.png'),
      )
      expect(image).toMatchObject({ width: 128, height: 86 })
    },
    SLOW,
  )

  it(
    'wm.remove brings the watermarked region at least halfway back to the original',
    async () => {
      const original = await pixelsOf(files.get('in/astronaut.png') as Buffer)
      const marked = await pixelsOf(files.get('in/astronaut-wm.png') as Buffer)
      const mask = await pixelsOf(await readFile(new URL('astronaut-wm-mask.png', SAMPLES)))
      const error = (image: Pixels) => {
        let sum = 0
        let count = 0
        for (let i = 0; i < mask.width * mask.height; i++) {
          if ((mask.data[i * mask.channels] as number) < 128) continue
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
      const cleaned = await pixelsOf(
        await deliver('wm.remove(rem_text:true)', 'in/astronaut-wm.png'),
      )
      expect(cleaned).toMatchObject({ width: 512, height: 512 })
      expect(error(cleaned)).toBeLessThanOrEqual(error(marked) / 2)
    },
    SLOW,
  )

  it(
    'wm.remove(rem_logo:true) without a box is refused with the reason, not a smeared photo',
    async () => {
      // Without a box, the logo would be looked for across the whole photo: its own light
      // detail would be repainted with it, so the request is refused and says what to give.
      const pattern = 'wm.remove(rem_logo:true)'
      const url = `${suite.server.url}${urlOf(pattern, 'in/astronaut.png')}`
      let response = await fetch(url)
      expect(response.status).toBe(202)
      await response.arrayBuffer()
      for (let attempt = 0; attempt < 3000 && response.status === 202; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        response = await fetch(url)
        if (response.status === 202) await response.arrayBuffer()
      }
      // A derive job that fails for a client error is not tried again, and delivery answers
      // it as a request that ran at once would: 400 with the refusal's code and message.
      expect(response.status).toBe(400)
      const body = (await response.json()) as { code: string; message: string }
      expect(body.code).toBe('invalid_transformation')
      expect(body.message).toMatch(/without a box.*box1=x_y_w_h/)
    },
    SLOW,
  )

  it(
    'im.mask fills the face black and leaves the rest alone',
    async () => {
      const original = await pixelsOf(files.get('in/astronaut.png') as Buffer)
      const masked = await pixelsOf(
        await deliver('im.mask(d:face,m:fill_black)', 'in/astronaut.png'),
      )
      expect(masked).toMatchObject({ width: 512, height: 512 })
      let blackened = 0
      for (let i = 0; i < 512 * 512; i++) {
        const was = original.data.subarray(i * 3, i * 3 + 3)
        const now = masked.data.subarray(i * masked.channels, i * masked.channels + 3)
        if (now.every((value) => value === 0) && !was.every((value) => value === 0)) blackened++
      }
      // A face is thousands of pixels; the picture is 262 144.
      expect(blackened).toBeGreaterThan(2000)
      expect(blackened).toBeLessThan(100_000)
      expect(at(masked, 20, 500).slice(0, 3)).toEqual(at(original, 20, 500))
    },
    SLOW,
  )

  it(
    'qr.generate draws a code that qr.scan reads back, as the context shows',
    async () => {
      const text = Buffer.from('https://tessera.example/qr').toString('base64url')
      const pattern = `qr.generate(i:${text},w:160,h:160)~qr.scan()`
      const image = await pixelsOf(await deliver(pattern, 'in/small.png'))
      expect(image).toMatchObject({ width: 160, height: 160 })
      const steps = await contextOf(pattern, 'in/small.png')
      expect(steps[1]).toMatchObject({
        identifier: 'qr',
        name: 'scan',
        data: { found: true, text: 'https://tessera.example/qr' },
      })
    },
    SLOW,
  )
})
