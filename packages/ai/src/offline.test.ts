import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { createAi } from './index.ts'
import { decode, paramsOf } from './test-support.ts'

const run = promisify(execFile)
const SCRIPT = fileURLToPath(new URL('../scripts/offline-check.ts', import.meta.url))

describe('the models', () => {
  it('load from their packages and run with no network at all', async () => {
    // `unshare -n` gives the process a network namespace with nothing in it, not even DNS.
    const { stdout } = await run('unshare', ['-n', process.execPath, SCRIPT], {
      cwd: '/',
      timeout: 900_000,
      maxBuffer: 1 << 20,
    })
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}')
    expect(result.qr).toMatchObject({ found: true, text: 'offline' })
    // The astronaut's face is in the upper middle of the 512² portrait.
    expect(result.face.left).toBeGreaterThan(120)
    expect(result.face.left + result.face.width).toBeLessThan(330)
    expect(result.face.top + result.face.height).toBeLessThan(260)
    expect(result.objects.objects[0]).toMatchObject({ label: 'person' })
    expect(result.upscaled).toEqual([1024, 1024])
  }, 900_000)
})

describe('the worker pool', () => {
  const ai = createAi({ timeoutMs: 100 })
  // close() waits for an ISNet run abandoned past its time limit to end (pool.ts).
  afterAll(() => ai.close(), 900_000)

  it('answers timeout for a call that overruns AI_TIMEOUT_MS', async () => {
    const image = await decode('chelsea.png')
    await expect(
      ai.run({ key: 'erase.bg', image, params: paramsOf('erase.bg', { r: false }) }),
    ).rejects.toMatchObject({ code: 'timeout' })
  })

  it('refuses an input over AI_MAX_INPUT_PIXELS before anything is queued', () => {
    const small = createAi({ maxInputPixels: 1000 })
    expect(() => small.checkInput(40, 30)).toThrow(
      expect.objectContaining({ code: 'too_many_pixels' }),
    )
    expect(() => small.checkInput(40, 25)).not.toThrow()
  })

  it('answers model_unavailable with the reason for what no package here can run', async () => {
    const image = await decode('chelsea.png')
    await expect(
      ai.run({ key: 'generate.bg', image, params: paramsOf('generate.bg') }),
    ).rejects.toMatchObject({
      code: 'model_unavailable',
      message: expect.stringMatching(/generative/),
    })
  })
})
