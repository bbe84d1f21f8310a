// The subject masks and cut-out mattes of the last few images, remembered by their pixels. ISNet
// is the most expensive step of the AI operations (2–3 s of both cores for any image) and several
// operations and URLs ask it about the same pixels: `erase.bg()~t.resize(w:200)` and
// `erase.bg()~t.resize(w:400)` are two derived images of one cut-out, `shadow.gen`,
// `ic.crop(g:foreground)` and `cos.detect` all read the subject mask, and a playground session
// tries one image many ways. The model gives the same answer for the same pixels, so the answer
// is kept: at most REMEMBERED_MAX_BYTES and REMEMBERED_MAX_ENTRIES, for REMEMBERED_TTL_MS, least
// recently used first.
// Two identical calls at once share one run. Callers copy what they change (erase.ts does).
// The mask and the matte made from it are remembered apart, so a cut-out and a detection of the
// same pixels (erase.bg, then ic.crop(g:foreground)) share the model's run.
import { createHash } from 'node:crypto'
import type { Matte } from './matte.ts'
import type { ModelPools } from './pool.ts'
import type { Task } from './worker.ts'

/** The bound of what is remembered, in bytes of results (masks and mattes). */
export const REMEMBERED_MAX_BYTES = 64 * 2 ** 20
/** How long a result is remembered after it was last used. */
export const REMEMBERED_TTL_MS = 10 * 60_000
/** The bound of how many results (and runs under way) are remembered, whatever their size. */
export const REMEMBERED_MAX_ENTRIES = 256

type RememberedTask = Extract<Task, { kind: 'isnet' }>

interface Entry {
  readonly result: Promise<unknown>
  bytes: number
  until: number
}

class Remembered {
  private readonly entries = new Map<string, Entry>()
  private total = 0

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (entry.until <= Date.now()) {
      this.forget(key)
      return undefined
    }
    // Least recently used first: a used entry moves to the end.
    this.entries.delete(key)
    this.entries.set(key, entry)
    entry.until = Date.now() + REMEMBERED_TTL_MS
    return entry
  }

  add(key: string, result: Promise<unknown>): void {
    const entry: Entry = { result, bytes: 0, until: Date.now() + REMEMBERED_TTL_MS }
    this.entries.set(key, entry)
    this.trim()
    result.then(
      (value) => {
        if (this.entries.get(key) !== entry) return
        entry.bytes = bytesOf(value)
        this.total += entry.bytes
        this.trim()
      },
      () => {
        // A failed run (a timeout, a closed pool) is not an answer: the next call runs again.
        if (this.entries.get(key) === entry) this.forget(key)
      },
    )
  }

  private forget(key: string): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.total -= entry.bytes
  }

  private trim(): void {
    for (const key of this.entries.keys()) {
      if (this.total <= REMEMBERED_MAX_BYTES && this.entries.size <= REMEMBERED_MAX_ENTRIES) return
      // A run under way that is forgotten still answers its callers; it is just not kept.
      this.forget(key)
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.total }
  }
}

function bytesOf(value: unknown): number {
  if (ArrayBuffer.isView(value)) return value.byteLength
  if (typeof value === 'object' && value !== null) {
    let bytes = 0
    for (const part of Object.values(value)) if (ArrayBuffer.isView(part)) bytes += part.byteLength
    return bytes
  }
  return 0
}

const byPools = new WeakMap<ModelPools, Remembered>()

function keyOf(what: string, task: RememberedTask): string {
  const { image } = task
  return createHash('sha256')
    .update(`${what}\n${task.size}\n${image.width}×${image.height}×${image.channels}\n`)
    .update(image.data)
    .digest('base64url')
}

function rememberedOf(pools: ModelPools): Remembered {
  let remembered = byPools.get(pools)
  if (remembered === undefined) {
    remembered = new Remembered()
    byPools.set(pools, remembered)
  }
  return remembered
}

function remember<T>(pools: ModelPools, key: string, make: () => Promise<T>): Promise<T> {
  const remembered = rememberedOf(pools)
  const found = remembered.get(key)
  if (found !== undefined) return found.result as Promise<T>
  const result = make()
  remembered.add(key, result)
  return result
}

/**
 * ISNet's mask of `task.image` (one byte per pixel, at its size), or what the same pixels gave
 * before (shared while it runs). The answer is shared: do not change it.
 */
export function rememberedMask(
  pools: ModelPools,
  task: RememberedTask,
  label: string,
): Promise<Uint8Array> {
  return remember(pools, keyOf('mask', task), () => pools.run<Uint8Array>(task, label))
}

/**
 * The cut-out matte of `task.image` made from its remembered mask, or what the same pixels gave
 * before. The answer is shared: do not change it.
 */
export function rememberedMatte(
  pools: ModelPools,
  task: RememberedTask,
  label: string,
): Promise<Matte> {
  return remember(pools, keyOf('matte', task), async () => {
    const mask = await rememberedMask(pools, task, label)
    return await pools.run<Matte>({ kind: 'matte', image: task.image, mask }, label)
  })
}

/** How much `pools`' remembered results hold (read by the tests). */
export function rememberedSize(pools: ModelPools): { entries: number; bytes: number } {
  return byPools.get(pools)?.size ?? { entries: 0, bytes: 0 }
}
