// One worker thread that runs a codec's jobs one at a time (the HEIC decoder, the PDF renderer):
// started on first use, not keeping the process alive while idle, and ended when a job runs past
// its time (the job may never finish; the next one starts a new thread).
import { Worker } from 'node:worker_threads'

/** A job's request: its bytes are copied to the thread, the caller's buffer stays theirs. */
interface Request {
  bytes: Uint8Array
}

interface Pending<Response> {
  resolve: (response: Response) => void
  reject: (error: Error) => void
}

export interface WorkerChannel<In extends Request, Out> {
  /** Runs `request` after the jobs before it. */
  run(request: In): Promise<Out>
  /** Ends the thread. */
  close(): Promise<void>
}

export function createWorkerChannel<In extends Request, Out>(
  script: URL,
  options: {
    timeoutMs: number
    /** The error of the jobs of a thread that failed (`cause`) or stopped. */
    failed: (cause?: unknown) => Error
    /** The error of a job past `timeoutMs`. */
    timedOut: () => Error
  },
): WorkerChannel<In, Out> {
  let worker: Worker | undefined
  let nextId = 1
  const pending = new Map<number, Pending<Out>>()
  let queue: Promise<unknown> = Promise.resolve()

  function failAll(error: Error) {
    for (const job of pending.values()) job.reject(error)
    pending.clear()
  }

  function start(): Worker {
    if (worker !== undefined) return worker
    const created = new Worker(script)
    created.on('message', (message: { id: number; response: Out }) => {
      const job = pending.get(message.id)
      pending.delete(message.id)
      if (pending.size === 0) created.unref()
      job?.resolve(message.response)
    })
    created.on('error', (error) => {
      if (worker === created) worker = undefined
      failAll(options.failed(error))
    })
    created.on('exit', () => {
      if (worker === created) worker = undefined
      failAll(options.failed())
    })
    worker = created
    return created
  }

  async function call(request: In): Promise<Out> {
    const thread = start()
    thread.ref()
    const id = nextId++
    let timer: NodeJS.Timeout | undefined
    try {
      return await new Promise<Out>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        timer = setTimeout(() => {
          pending.delete(id)
          reject(options.timedOut())
          if (worker === thread) worker = undefined
          void thread.terminate()
        }, options.timeoutMs)
        thread.postMessage({ id, request: { ...request, bytes: Uint8Array.from(request.bytes) } })
      })
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    run(request) {
      // One job at a time: the thread is single-threaded anyway, and a timeout ends only its job.
      const result = queue.then(() => call(request))
      queue = result.catch(() => undefined)
      return result
    },
    async close() {
      const thread = worker
      worker = undefined
      if (thread !== undefined) await thread.terminate()
    },
  }
}
