// The bounds of what remembered.ts keeps. The model's answer is stood in for by a pool whose
// `run` answers at once (the real model is counted in isnet.test.ts): what is under test here is
// the remembering, not ISNet.
import { describe, expect, it } from 'vitest'
import type { AiImage } from './image.ts'
import { ModelPools } from './pool.ts'
import {
  REMEMBERED_MAX_BYTES,
  REMEMBERED_MAX_ENTRIES,
  rememberedMask,
  rememberedSize,
} from './remembered.ts'
import { resolveAiSettings } from './settings.ts'
import type { Task } from './worker.ts'

class AnsweringPools extends ModelPools {
  runs = 0
  private readonly answer: (task: Task) => Promise<Uint8Array>
  constructor(answer: (task: Task) => Promise<Uint8Array>) {
    super(resolveAiSettings({}))
    this.answer = answer
  }
  override run<T>(task: Task): Promise<T> {
    this.runs += 1
    return this.answer(task) as Promise<T>
  }
}

function image(seed: number, side = 4): AiImage {
  const data = new Uint8Array(side * side * 3)
  data.fill(seed % 256)
  data[0] = Math.floor(seed / 256)
  return { data, width: side, height: side, channels: 3 }
}

const isnet = (of: AiImage): Extract<Task, { kind: 'isnet' }> => ({
  kind: 'isnet',
  image: of,
  size: 'small',
})

describe('remembered ISNet answers', () => {
  it('keeps at most REMEMBERED_MAX_ENTRIES answers, however small, least recently used first', async () => {
    const pools = new AnsweringPools(
      async (task) => new Uint8Array((task as { image: AiImage }).image.width),
    )
    const first = image(0)
    await rememberedMask(pools, isnet(first), 'test')
    for (let seed = 1; seed <= REMEMBERED_MAX_ENTRIES + 10; seed++) {
      await rememberedMask(pools, isnet(image(seed)), 'test')
      // The first image stays in use, so it is never the least recently used.
      if (seed % 50 === 0) await rememberedMask(pools, isnet(first), 'test')
    }
    expect(rememberedSize(pools).entries).toBe(REMEMBERED_MAX_ENTRIES)
    const runs = pools.runs
    await rememberedMask(pools, isnet(first), 'test')
    expect(pools.runs).toBe(runs)
    await rememberedMask(pools, isnet(image(1)), 'test')
    expect(pools.runs).toBe(runs + 1)
  })

  it('keeps at most REMEMBERED_MAX_BYTES of answers', async () => {
    const eighth = REMEMBERED_MAX_BYTES / 8
    const pools = new AnsweringPools(async () => new Uint8Array(eighth))
    for (let seed = 0; seed < 20; seed++) await rememberedMask(pools, isnet(image(seed)), 'test')
    expect(rememberedSize(pools)).toEqual({ entries: 8, bytes: REMEMBERED_MAX_BYTES })
  })

  it('forgets a failed run: the next call runs again', async () => {
    let fail = true
    const pools = new AnsweringPools(async () => {
      if (fail) throw new Error('timeout')
      return new Uint8Array(1)
    })
    await expect(rememberedMask(pools, isnet(image(7)), 'test')).rejects.toThrow('timeout')
    fail = false
    await expect(rememberedMask(pools, isnet(image(7)), 'test')).resolves.toHaveLength(1)
    expect(pools.runs).toBe(2)
  })
})
