// A model timeout must not take the process with it: terminating a worker thread while
// onnxruntime-node runs an inference could abort the process (SIGABRT), so an ISNet run past
// its time limit is answered `timeout` and left to finish. If this file's process aborted, the
// test run would report the file's worker as crashed instead of these results.
import { afterAll, describe, expect, it } from 'vitest'
import type { AiImage } from './image.ts'
import { ModelPools } from './pool.ts'
import { type AiSettings, DEFAULT_AI_SETTINGS } from './settings.ts'

const SLOW = 600_000
// Read at each call, so one pool (one thread, the model loaded once) can be given a time limit
// shorter than an inference after its warm-up.
const settings: AiSettings = { ...DEFAULT_AI_SETTINGS, concurrency: 1, timeoutMs: SLOW }
const pools = new ModelPools(settings)
afterAll(() => pools.close(), SLOW)

/** A grey 64² square with a dark disc in the middle (ISNet always works at 1024²). */
function disc(): AiImage {
  const side = 64
  const data = Buffer.alloc(side * side * 3, 200)
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (Math.hypot(x - 32, y - 32) < 16) data.fill(40, 3 * (y * side + x), 3 * (y * side + x) + 3)
    }
  }
  return { data, width: side, height: side, channels: 3 }
}

async function ended(): Promise<void> {
  while (pools.nativeRunning > 0) await new Promise((resolve) => setTimeout(resolve, 50))
}

describe('a model timeout', () => {
  it(
    'answers timeout mid-inference, lets the run finish, and the process and model go on',
    async () => {
      const image = disc()
      // Warm-up: the model is loaded in the thread, so the next run is all inference.
      const warm = await pools.run<Uint8Array>({ kind: 'isnet', image, size: 'small' }, 'erase.bg')
      expect(warm[32 * 64 + 32]).toBeGreaterThan(128)
      settings.timeoutMs = 20
      await expect(
        pools.run({ kind: 'isnet', image, size: 'small' }, 'erase.bg'),
      ).rejects.toMatchObject({ code: 'timeout' })
      // The inference was not cut short: it is still running, and holds the model's slot.
      expect(pools.nativeRunning).toBe(1)
      await ended()
      settings.timeoutMs = SLOW
      // The same thread (no reload) answers the next call: nothing was torn down.
      const next = await pools.run<Uint8Array>({ kind: 'isnet', image, size: 'small' }, 'erase.bg')
      expect(next[32 * 64 + 32]).toBeGreaterThan(128)
      expect(next[0]).toBeLessThan(128)
      expect(process.exitCode ?? 0).toBe(0)
    },
    SLOW,
  )
})
