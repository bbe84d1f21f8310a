import { Piscina } from 'piscina'
import { AI_MESSAGES, AiError } from './errors.ts'
import type { AiSettings } from './settings.ts'
import type { Task } from './worker.ts'

/** Models that share a pool (and so a worker thread's memory). */
type Family = 'isnet' | 'esrgan' | 'faces' | 'objects' | 'nsfw' | 'ocr' | 'cv'

const FAMILIES: Readonly<Record<Task['kind'], Family>> = {
  isnet: 'isnet',
  cutout: 'isnet',
  esrgan: 'esrgan',
  faces: 'faces',
  objects: 'objects',
  nsfw: 'nsfw',
  ocr: 'ocr',
  inpaint: 'cv',
  'qr-scan': 'cv',
  'qr-generate': 'cv',
}

// Calls waiting for one model beyond this are refused (`busy`) rather than queued without end.
const MAX_WAITING = 64

interface Lane {
  pool: Piscina
  running: number
  waiting: (() => void)[]
}

const WORKER = new URL('./worker.ts', import.meta.url).href

/**
 * One piscina pool per model family, each with at most `concurrency` threads, created at the
 * first call and left without threads after `idleMs` (which frees the model's memory). A call
 * waits for a free slot first; its time limit starts when it runs, and a call that overruns it
 * has its worker thread terminated, which really stops the inference.
 */
export class ModelPools {
  private readonly lanes = new Map<Family, Lane>()
  private closed = false

  private readonly settings: Readonly<AiSettings>

  constructor(settings: Readonly<AiSettings>) {
    this.settings = settings
  }

  /**
   * Runs one task in its family's pool.
   *
   * @throws {AiError} `timeout`, `busy` or `model_failed` (the model's error as `cause`).
   */
  async run<T>(task: Task, label: string): Promise<T> {
    if (this.closed) throw new AiError('model_failed', AI_MESSAGES.closed)
    const lane = this.lane(FAMILIES[task.kind])
    await this.acquire(lane, label)
    const signal = AbortSignal.timeout(this.settings.timeoutMs)
    try {
      return (await lane.pool.run(task, { signal })) as T
    } catch (error) {
      if (signal.aborted) {
        throw new AiError('timeout', AI_MESSAGES.timeout(label, this.settings.timeoutMs), {
          cause: error,
        })
      }
      throw new AiError('model_failed', AI_MESSAGES.failed(label), { cause: error })
    } finally {
      this.release(lane)
    }
  }

  /** Ends every worker thread; later calls fail. */
  async close(): Promise<void> {
    this.closed = true
    const lanes = [...this.lanes.values()]
    this.lanes.clear()
    await Promise.all(lanes.map((lane) => lane.pool.destroy()))
  }

  private lane(family: Family): Lane {
    let lane = this.lanes.get(family)
    if (lane === undefined) {
      const pool = new Piscina({
        filename: WORKER,
        minThreads: 0,
        maxThreads: this.settings.concurrency,
        idleTimeout: this.settings.idleMs,
        concurrentTasksPerWorker: 1,
        workerData: { threads: this.settings.threads },
      })
      lane = { pool, running: 0, waiting: [] }
      this.lanes.set(family, lane)
    }
    return lane
  }

  private async acquire(lane: Lane, label: string): Promise<void> {
    if (lane.running < this.settings.concurrency) {
      lane.running++
      return
    }
    if (lane.waiting.length >= MAX_WAITING) throw new AiError('busy', AI_MESSAGES.busy(label))
    // The slot passes straight from the finishing call to the next one.
    await new Promise<void>((resolve) => lane.waiting.push(resolve))
  }

  private release(lane: Lane): void {
    const next = lane.waiting.shift()
    if (next === undefined) lane.running--
    else next()
  }
}
