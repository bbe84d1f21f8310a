// An AI step on an animation sees its first frame, and says so (issue 20: it did silently).
import { createAi } from '@tessera/ai'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from './index.ts'

const ai = createAi({ timeoutMs: 600_000 })
const engine = createEngine({ ai })
afterAll(() => ai.close())

function chain(pattern: string) {
  const { value, issues } = parsePattern(pattern)
  expect(issues).toEqual([])
  return value
}

// A two-frame GIF: a QR code holding `first`, then a blank frame.
async function animation(): Promise<Buffer> {
  const text = Buffer.from('first').toString('base64url')
  const blank = await sharp({
    create: { width: 200, height: 200, channels: 3, background: '#ffffff' },
  })
    .png()
    .toBuffer()
  const code = await engine.transform({
    input: blank,
    operations: chain(`qr.generate(i:${text},w:200,h:200)`),
  })
  const frames = await sharp(code.data)
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer()
  const white = Buffer.alloc(frames.length, 255)
  return await sharp(Buffer.concat([frames, white]), {
    raw: { width: 200, height: 400, channels: 3, pageHeight: 200 },
  })
    .gif()
    .toBuffer()
}

describe('an AI step on an animated GIF', () => {
  it('reads the first frame and reports firstFrameOnly with the frame count', async () => {
    const input = await animation()
    expect((await sharp(input, { pages: -1 }).metadata()).pages).toBe(2)
    const result = await engine.transform({ input, operations: chain('qr.scan()') })
    expect(result.steps[0]?.data).toMatchObject({
      found: true,
      text: 'first',
      firstFrameOnly: true,
      frames: 2,
    })
  }, 600_000)

  it('reports nothing of the kind for a still image', async () => {
    const input = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#ffffff' },
    })
      .gif()
      .toBuffer()
    const result = await engine.transform({ input, operations: chain('qr.scan()') })
    expect(result.steps[0]?.data).toEqual({ found: false })
  }, 600_000)
})
