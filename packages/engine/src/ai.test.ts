import { readFileSync } from 'node:fs'
import { createAi } from '@tessera/ai'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from './index.ts'

// One AI service for the file: each model loads once, and its threads end with the file.
const ai = createAi({ timeoutMs: 600_000 })
const engine = createEngine({ ai })
afterAll(() => ai.close())

const SAMPLES = new URL('../../../apps/server/demo/samples/', import.meta.url)
const ASTRONAUT = readFileSync(new URL('astronaut.png', SAMPLES))
const SLOW = 900_000

function chain(pattern: string) {
  const { value, issues } = parsePattern(pattern)
  expect(issues).toEqual([])
  return value
}

async function pixels(data: Buffer) {
  return await sharp(data).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
}

describe('AI operations in a chain', () => {
  it(
    'compose with basic steps in any order: resize, erase the background, extend',
    async () => {
      const operations = chain('t.resize(w:256)~erase.bg(r:false)~t.extend(t:8,b:8,l:8,r:8)')
      const result = await engine.transform({ input: ASTRONAUT, operations })
      expect(result).toMatchObject({ format: 'png', width: 272, height: 272 })
      const { data, info } = await pixels(result.data)
      const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3]
      // The corners (background, and the extension) are transparent, the face is opaque.
      expect(alpha(20, 20)).toBe(0)
      expect(alpha(250, 30)).toBe(0)
      expect(alpha(110, 80)).toBe(255)
      expect(result.steps.map((step) => [step.name, step.width, step.hasAlpha])).toEqual([
        ['t.resize', 256, false],
        ['erase.bg', 256, true],
        ['t.extend', 272, true],
      ])
      expect(result.steps[1]).toMatchObject({ identifier: 'erase', operation: 'bg', data: null })
    },
    SLOW,
  )

  it(
    'report what a detection found and pass the image on unchanged',
    async () => {
      const text = Buffer.from('https://example.com/tessera').toString('base64url')
      const operations = chain(`qr.generate(i:${text},w:240,h:240)~qr.scan()~t.flip()`)
      const result = await engine.transform({ input: ASTRONAUT, operations })
      expect(result).toMatchObject({ width: 240, height: 240 })
      const scan = result.steps[1]
      expect(scan).toMatchObject({ name: 'qr.scan', identifier: 'qr', operation: 'scan' })
      expect(scan?.data).toMatchObject({ found: true, text: 'https://example.com/tessera' })
      expect(scan?.width).toBe(240)
    },
    SLOW,
  )

  it(
    'keep the face in a wide banner where the attention strategy cuts it',
    async () => {
      // The portrait above a block of saturated, busy colour: the most "salient" region for
      // libvips' attention strategy, but no face.
      const noise = Buffer.alloc(512 * 512 * 3)
      for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251 > 125 ? 255 : 0
      const tall = await sharp({
        create: { width: 512, height: 1024, channels: 3, background: '#000' },
      })
        .composite([
          { input: ASTRONAUT, left: 0, top: 0 },
          { input: noise, raw: { width: 512, height: 512, channels: 3 }, left: 0, top: 512 },
        ])
        .png()
        .toBuffer()
      const attention = await sharp(tall)
        .resize(512, 170, { fit: 'cover', position: 'attention' })
        .toBuffer({ resolveWithObject: true })
      const face = await ai.focus('face', {
        ...(await sharp(tall)
          .raw()
          .toBuffer({ resolveWithObject: true })
          .then(({ data, info }) => ({
            data,
            width: info.width,
            height: info.height,
            channels: info.channels,
          }))),
      })
      if (face === undefined) throw new Error('no face found in the astronaut')
      const cut = -(attention.info.cropOffsetTop ?? 0)
      // Attention cuts the face (or misses it entirely).
      expect(cut <= face.top && cut + 170 >= face.top + face.height).toBe(false)

      const result = await engine.transform({
        input: tall,
        operations: chain('ic.crop(w:512,h:170,g:face)~t.toFormat(f:png)'),
      })
      expect(result).toMatchObject({ width: 512, height: 170 })
      // The banner is the rows around the face: find its offset and check the face is inside.
      const banner = await sharp(result.data).removeAlpha().raw().toBuffer()
      const source = await sharp(tall).removeAlpha().raw().toBuffer()
      const rowBytes = 512 * 3
      let offset = -1
      for (let top = 0; top + 170 <= 1024 && offset < 0; top++) {
        const window = source.subarray(top * rowBytes, (top + 170) * rowBytes)
        if (window.equals(banner)) offset = top
      }
      expect(offset).toBeGreaterThanOrEqual(0)
      expect(offset).toBeLessThanOrEqual(face.top)
      expect(offset + 170).toBeGreaterThanOrEqual(face.top + face.height)
    },
    SLOW,
  )

  it('answer model_unavailable, with the reason, for what no model here can run', async () => {
    await expect(
      engine.transform({ input: ASTRONAUT, operations: chain('t.resize(w:100)~generate.bg()') }),
    ).rejects.toMatchObject({
      code: 'model_unavailable',
      message: expect.stringMatching(/generative/),
    })
    await expect(
      engine.transform({ input: ASTRONAUT, operations: chain('im.mask()') }),
    ).rejects.toMatchObject({
      code: 'model_unavailable',
      message: expect.stringMatching(/number-plate/),
    })
  })

  it('refuse an image over AI_MAX_INPUT_PIXELS before anything is queued', async () => {
    const small = createEngine({ ai: createAi({ maxInputPixels: 100_000 }) })
    const erase = chain('erase.bg()')
    expect(() => small.checkAiInput(erase, 512, 512)).toThrow(
      expect.objectContaining({ code: 'too_many_pixels' }),
    )
    expect(() => small.checkAiInput(chain('t.resize(w:10)'), 512, 512)).not.toThrow()
    await expect(small.transform({ input: ASTRONAUT, operations: erase })).rejects.toMatchObject({
      code: 'too_many_pixels',
    })
  })
})
