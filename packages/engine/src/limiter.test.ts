import { describe, expect, it } from 'vitest'
import { createLimiter } from './limiter.ts'

describe('createLimiter', () => {
  it('runs at most its size at once, in arrival order', async () => {
    const limiter = createLimiter(2)
    const started: number[] = []
    let running = 0
    let most = 0
    await Promise.all(
      [0, 1, 2, 3, 4].map(async (index) => {
        const release = await limiter.acquire()
        started.push(index)
        running++
        most = Math.max(most, running)
        await new Promise((resolve) => setTimeout(resolve, 2))
        running--
        release()
      }),
    )
    expect(most).toBe(2)
    expect(started).toEqual([0, 1, 2, 3, 4])
    expect([limiter.active, limiter.waiting]).toEqual([0, 0])
  })

  it('ignores a second release of the same slot', async () => {
    const limiter = createLimiter(1)
    const release = await limiter.acquire()
    release()
    release()
    expect(limiter.active).toBe(0)
  })
})
