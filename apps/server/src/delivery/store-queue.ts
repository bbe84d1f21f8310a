// The writes of derived images, after their answers: a few at a time, at most so many bytes
// waiting. Each write holds libuv threads (open, write, fsync, rename, the folder's fsync) that
// the next renders need, and a burst of misses on a slow disk would otherwise keep every rendered
// image in memory until its turn. Full: the image is answered and not stored (it is rendered
// again when asked again), which costs a render, never a wrong or half answer. The guarantee is
// the caller's and unchanged: its index row is written only once its file is durable.

/** Writes running at once: enough to keep a disk busy, few enough to leave the pool to renders. */
export const STORE_CONCURRENCY = 2
/** Bytes of images waiting to be written, at most (those being written included). */
export const STORE_MAX_PENDING_BYTES = 64 * 1024 ** 2

export interface StoreQueue {
  /**
   * Queues `write` for `bytes` bytes. Returns its outcome (settling once it has run), or
   * `undefined` when the queue is full and `write` will not run; with `always`, it is queued
   * whatever the queue holds.
   */
  offer(bytes: number, write: () => Promise<unknown>, always?: boolean): Promise<void> | undefined
  /** Bytes waiting or being written. */
  pendingBytes(): number
}

export function createStoreQueue(
  options: { concurrency?: number; maxPendingBytes?: number } = {},
): StoreQueue {
  const concurrency = options.concurrency ?? STORE_CONCURRENCY
  const maxPendingBytes = options.maxPendingBytes ?? STORE_MAX_PENDING_BYTES
  const waiting: Array<() => void> = []
  let running = 0
  let pending = 0

  function next(): void {
    while (running < concurrency) {
      const start = waiting.shift()
      if (start === undefined) return
      running++
      start()
    }
  }

  return {
    offer(bytes, write, always = false) {
      // One image larger than the whole bound still goes when nothing else waits.
      if (!always && pending > 0 && pending + bytes > maxPendingBytes) return undefined
      pending += bytes
      const outcome = new Promise<void>((resolve, reject) => {
        waiting.push(() => {
          // The room is given back before the outcome settles, so whoever awaited it may offer
          // again at once.
          const finish = () => {
            running--
            pending -= bytes
            next()
          }
          let written: Promise<unknown>
          try {
            written = write()
          } catch (error) {
            written = Promise.reject(error)
          }
          written.then(
            () => {
              finish()
              resolve()
            },
            (error: unknown) => {
              finish()
              reject(error)
            },
          )
        })
      })
      next()
      return outcome
    },
    pendingBytes: () => pending,
  }
}
