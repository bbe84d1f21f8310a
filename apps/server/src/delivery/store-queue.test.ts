// The writes of derived images wait their turn (store-queue.ts): a few run at once, the bytes
// waiting are bounded, a full queue refuses (the image is then answered, not stored) unless the
// write must happen, and one failing write neither stops the queue nor loses its bytes' room.
import { describe, expect, it } from 'vitest'
import { createStoreQueue } from './store-queue.ts'

/** A write that finishes when told to, and says whether it has started. */
function gate() {
  let open: () => void = () => undefined
  let fail: (error: Error) => void = () => undefined
  let started = false
  const done = new Promise<void>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  return {
    write: () => {
      started = true
      return done
    },
    started: () => started,
    open: () => open(),
    fail: (error: Error) => fail(error),
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('the store queue of derived images', () => {
  it('runs at most its concurrency of writes at once, the others in order of arrival', async () => {
    const queue = createStoreQueue({ concurrency: 2, maxPendingBytes: 1000 })
    const writes = [gate(), gate(), gate()]
    const outcomes = writes.map((write) => queue.offer(10, write.write))
    expect(writes.map((write) => write.started())).toEqual([true, true, false])
    writes[1]?.open()
    await outcomes[1]
    await tick()
    expect(writes[2]?.started()).toBe(true)
    writes[0]?.open()
    writes[2]?.open()
    await Promise.all(outcomes)
    expect(queue.pendingBytes()).toBe(0)
  })

  it('refuses a write past its bound of waiting bytes, and takes writes again once room is made', async () => {
    const queue = createStoreQueue({ concurrency: 1, maxPendingBytes: 100 })
    const first = gate()
    const accepted = queue.offer(60, first.write)
    expect(accepted).toBeDefined()
    expect(queue.offer(50, gate().write)).toBeUndefined()
    first.open()
    await accepted
    expect(queue.pendingBytes()).toBe(0)
    const again = gate()
    const later = queue.offer(50, again.write)
    expect(later).toBeDefined()
    again.open()
    await later
  })

  it('takes a write that must happen (a job result) whatever it holds', async () => {
    const queue = createStoreQueue({ concurrency: 1, maxPendingBytes: 100 })
    const first = gate()
    const held = queue.offer(100, first.write)
    const forced = gate()
    const outcome = queue.offer(500, forced.write, true)
    expect(outcome).toBeDefined()
    first.open()
    await held
    await tick()
    expect(forced.started()).toBe(true)
    forced.open()
    await outcome
  })

  it('takes one image larger than its whole bound when nothing else waits', async () => {
    const queue = createStoreQueue({ concurrency: 1, maxPendingBytes: 100 })
    const big = gate()
    const outcome = queue.offer(1000, big.write)
    expect(outcome).toBeDefined()
    big.open()
    await outcome
  })

  it('settles a failing write with its own error and goes on with the next', async () => {
    const queue = createStoreQueue({ concurrency: 1, maxPendingBytes: 100 })
    const failing = gate()
    const next = gate()
    const failed = queue.offer(40, failing.write)
    const following = queue.offer(40, next.write)
    failing.fail(new Error('disk full'))
    await expect(failed).rejects.toThrow('disk full')
    await tick()
    expect(next.started()).toBe(true)
    next.open()
    await following
    expect(queue.pendingBytes()).toBe(0)
  })
})
