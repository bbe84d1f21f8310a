// Local storage's writes of bytes on threads of their own (decision 022). Through node:fs's
// promises, a durable write is about ten libuv tasks (realpath, open, write, fsync, close,
// rename, then open, fsync and close of the folder), each a promise, a hand-off to a pool thread
// and a wake-up of the main thread: ~0.3 ms of the main thread's CPU per write and ~0.7 ms of the
// process's, measured (issue 25). A thread that makes the same calls synchronously costs the main
// thread one message each way (the bytes are copied to it) and the process about half.
//
// The threads are shared by every local storage of the process (each write names its root), start
// on first use, do not keep the process alive while idle, and end after a while without work.
import { Worker } from 'node:worker_threads'

/** Threads at most: two writes at once, as the delivery's store queue runs (store-queue.ts). */
export const WRITE_THREADS = 2
/** Larger objects are written by local.ts itself: copying them to a thread would cost more. */
export const THREAD_WRITE_MAX_BYTES = 8 * 1024 ** 2
/** A thread without work for this long ends. */
const IDLE_MS = 10_000

/** One write: `data` into `dir`/`name` of the storage at `root`, through temporary file `temp`. */
export interface ThreadWrite {
  root: string
  dir: string
  name: string
  temp: string
  data: Uint8Array
}

/**
 * What became of a write: written and durable; not done because the folder does not exist
 * (`missing`: local.ts creates it), because it resolves outside the root, or because no thread
 * could take it or its thread ended (`unavailable`: local.ts writes it itself, over whatever the
 * thread may have left, as a put replaces an object anyway); or failed (`code` is the system's
 * error code, `step` says whether resolving the folder or writing failed).
 */
export type ThreadWritten =
  | { outcome: 'written' }
  | { outcome: 'missing' }
  | { outcome: 'outside' }
  | { outcome: 'unavailable' }
  | { outcome: 'failed'; step: 'resolve' | 'write'; message: string; code?: string }

interface Thread {
  worker: Worker
  pending: Map<number, (written: ThreadWritten) => void>
  idle?: NodeJS.Timeout
}

const SCRIPT = new URL('./local-write-thread.ts', import.meta.url)
const threads: Thread[] = []
let nextId = 1

function stopped(thread: Thread): void {
  const index = threads.indexOf(thread)
  if (index !== -1) threads.splice(index, 1)
  clearTimeout(thread.idle)
  for (const settle of thread.pending.values()) settle({ outcome: 'unavailable' })
  thread.pending.clear()
}

function start(): Thread {
  const thread: Thread = { worker: new Worker(SCRIPT), pending: new Map() }
  thread.worker.on('message', (message: { id: number; written: ThreadWritten }) => {
    const settle = thread.pending.get(message.id)
    thread.pending.delete(message.id)
    if (thread.pending.size === 0) {
      thread.worker.unref()
      thread.idle = setTimeout(() => {
        stopped(thread)
        void thread.worker.terminate()
      }, IDLE_MS).unref()
    }
    settle?.(message.written)
  })
  thread.worker.on('error', () => stopped(thread))
  thread.worker.on('exit', () => stopped(thread))
  threads.push(thread)
  return thread
}

/** The thread with the least work; a new one while every thread is busy and there is room. */
function pick(): Thread {
  let best: Thread | undefined
  for (const thread of threads) {
    if (best === undefined || thread.pending.size < best.pending.size) best = thread
  }
  if (best === undefined || (best.pending.size > 0 && threads.length < WRITE_THREADS)) {
    return start()
  }
  return best
}

/** Writes on a thread; settles with what became of the write (never rejects). */
export function writeOnThread(write: ThreadWrite): Promise<ThreadWritten> {
  let thread: Thread
  try {
    thread = pick()
  } catch {
    return Promise.resolve({ outcome: 'unavailable' })
  }
  clearTimeout(thread.idle)
  thread.worker.ref()
  const id = nextId++
  return new Promise((settle) => {
    thread.pending.set(id, settle)
    thread.worker.postMessage({ id, ...write })
  })
}
