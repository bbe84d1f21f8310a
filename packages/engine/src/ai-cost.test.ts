// Issue 19 finding 4 and issue 20: each AI step is judged on its own input — the pixels after
// the steps before it — against AI_MAX_INPUT_PIXELS and against what it can do within
// AI_TIMEOUT_MS by its cost estimate, before anything runs; a model's own timeout is told apart
// from the engine's, so a job that met one is not tried again.
import { createAi } from '@tessera/ai'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { stepInputs } from './chain-geometry.ts'
import { createEngine, isModelTimeout } from './index.ts'

const chain = (pattern: string) => {
  const { value, issues } = parsePattern(pattern)
  expect(issues).toEqual([])
  return value
}

// The defaults: 25 MP into a model, a minute per model call.
const ai = createAi({ timeoutMs: 60_000, maxInputPixels: 25_000_000 })
const engine = createEngine({ ai })
afterAll(() => ai.close())

describe('the input of each step', () => {
  it('follows resize, extend, rotate, crop and upscale through the chain', () => {
    const inputs = stepInputs(
      chain(
        't.resize(w:1200)~t.extend(t:10,b:10,l:0,r:0)~t.rotate(a:90)~sr.upscale(t:4x)~erase.bg()',
      ),
      6000,
      5000,
    )
    expect(inputs.map((input) => [input.operation.spec?.key, input.width, input.height])).toEqual([
      ['t.resize', 6000, 5000],
      ['t.extend', 1200, 1000],
      ['t.rotate', 1200, 1020],
      ['sr.upscale', 1020, 1200],
      ['erase.bg', 4080, 4800],
    ])
  })

  it('scales a resize by the request’s dpr', () => {
    const [, upscale] = stepInputs(chain('t.resize(w:100,h:100)~sr.upscale()'), 400, 400, 2)
    expect([upscale?.width, upscale?.height]).toEqual([200, 200])
  })
})

describe('checking AI steps before they are queued', () => {
  it('takes a 30 MP photo resized to 1 MP before background removal', () => {
    expect(() =>
      engine.checkAiInput(chain('t.resize(w:1200)~erase.bg()'), 6000, 5000),
    ).not.toThrow()
    expect(() => engine.checkAiInput(chain('erase.bg()'), 6000, 5000)).toThrow(
      expect.objectContaining({ code: 'too_many_pixels' }),
    )
    // The image after an upscale is what the next model sees.
    expect(() =>
      engine.checkAiInput(
        chain('t.resize(w:3000)~sr.upscale(t:2x,model:Flash)~erase.bg()'),
        6000,
        5000,
      ),
    ).toThrow(expect.objectContaining({ code: 'too_many_pixels' }))
  })

  it('refuses at once an upscale that cannot finish within AI_TIMEOUT_MS, and says how large fits', () => {
    const work = () =>
      engine.checkAiInput(chain('t.resize(w:5000,h:5000)~sr.upscale(t:2x)'), 640, 480)
    expect(work).toThrow(expect.objectContaining({ code: 'too_many_pixels' }))
    expect(work).toThrow(/sr\.upscale of a 5000×5000 image would take about \d+ s .*AI_TIMEOUT_MS/)
    expect(() =>
      engine.checkAiInput(chain('t.resize(w:256)~sr.upscale(t:2x,model:Flash)'), 640, 480),
    ).not.toThrow()
  })

  it('runs a chain whose source is over AI_MAX_INPUT_PIXELS when the model’s input is not', async () => {
    const small = createAi({ maxInputPixels: 1_000_000, timeoutMs: 600_000 })
    try {
      const input = await sharp({
        create: { width: 1600, height: 1200, channels: 3, background: { r: 30, g: 90, b: 200 } },
      })
        .png()
        .toBuffer()
      const result = await createEngine({ ai: small }).transform({
        input,
        operations: chain('t.resize(w:800)~qr.scan()'),
      })
      expect(result.steps.map((step) => [step.name, step.width])).toEqual([
        ['t.resize', 800],
        ['qr.scan', 800],
      ])
      await expect(
        createEngine({ ai: small }).transform({ input, operations: chain('qr.scan()') }),
      ).rejects.toMatchObject({ code: 'too_many_pixels' })
    } finally {
      await small.close()
    }
  }, 120_000)

  it('tells a model’s own timeout from the engine’s', async () => {
    const hasty = createAi({ timeoutMs: 100 })
    try {
      const input = await sharp({
        create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 0, b: 0 } },
      })
        .png()
        .toBuffer()
      const failure = await createEngine({ ai: hasty })
        .transform({ input, operations: chain('qr.scan()') })
        .then(
          () => undefined,
          (error: unknown) => error,
        )
      expect(failure).toMatchObject({ code: 'timeout' })
      expect(isModelTimeout(failure)).toBe(true)
    } finally {
      await hasty.close()
    }
    const engineTimeout = await createEngine({ timeoutMs: 1 })
      .transform({ input: Buffer.alloc(10_000), operations: chain('t.flip()') })
      .catch((error: unknown) => error)
    expect(isModelTimeout(engineTimeout)).toBe(false)
  }, 60_000)
})
