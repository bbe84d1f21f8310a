/** Runs at most `size` tasks at once; the rest wait in order. */
export interface Limiter {
  /** Waits for a free slot; call the returned function once to free it. */
  acquire(): Promise<() => void>
  /** Tasks running now. */
  readonly active: number
  /** Tasks waiting for a slot. */
  readonly waiting: number
}

/** Creates a first-in, first-out limiter of `size` slots. */
export function createLimiter(size: number): Limiter {
  let active = 0
  const queue: Array<() => void> = []
  const release = () => {
    const next = queue.shift()
    // A waiting task takes the slot over, so the count does not change.
    if (next !== undefined) next()
    else active--
  }
  const once = () => {
    let released = false
    return () => {
      if (released) return
      released = true
      release()
    }
  }
  return {
    acquire() {
      if (active < size) {
        active++
        return Promise.resolve(once())
      }
      return new Promise((resolve) => queue.push(() => resolve(once())))
    },
    get active() {
      return active
    },
    get waiting() {
      return queue.length
    },
  }
}
