import { Piscina } from 'piscina'
import { AI_MESSAGES, AiError } from './errors.ts'
import type { AiSettings } from './settings.ts'
import type { Task } from './worker.ts'

/** Models that share a pool (and so a worker thread's memory). */
type Family = 'isnet' | 'esrgan' | 'faces' | 'objects' | 'nsfw' | 'ocr' | 'cv'

const FAMILIES: Readonly<Record<Task['kind'], Family>> = {
  isnet: 'isnet',
  // The cut-out's matte: no model, JavaScript only, beside the inpainting in the `cv` threads.
  matte: 'cv',
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

// Families whose models run in onnxruntime-node's native threads. Terminating a worker thread
// while a native inference is in flight can abort the whole process (SIGABRT, seen under load
// after an erase.bg timeout), so their runs are never cut short: past the time limit the caller
// is answered `timeout` and the run goes on, its result dropped. It keeps its slot until it
// ends, so at most `concurrency` abandoned runs exist per family and calls queued behind it wait
// (their own time limit starts when they run). The wasm families (tfjs, OpenCV.js) are stopped
// by terminating their thread, which is safe there and really stops a long upscale.
const NATIVE: ReadonlySet<Family> = new Set(['isnet', 'ocr'])
// A native run still going this long after its time limit is taken as hung: its thread is then
// terminated after all (the one case left where the abort above can happen).
const HUNG_AFTER_MS = 600_000

interface Lane {
  pool: Piscina
  running: number
  waiting: (() => void)[]
  /** Native runs not yet ended (settled or not by their callers). */
  inFlight: Set<Promise<void>>
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
    const family = FAMILIES[task.kind]
    const lane = this.lane(family)
    await this.acquire(lane, label)
    if (NATIVE.has(family)) return await this.runNative<T>(lane, task, label)
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

  /** A native family's run: answered `timeout` at the limit, never cut short (see NATIVE). */
  private async runNative<T>(lane: Lane, task: Task, label: string): Promise<T> {
    const hung = new AbortController()
    const running = lane.pool.run(task, { signal: hung.signal }) as Promise<T>
    const ended = running.then(
      () => undefined,
      () => undefined,
    )
    lane.inFlight.add(ended)
    let timer: NodeJS.Timeout | undefined
    let hungTimer: NodeJS.Timeout | undefined
    // The slot is given back when the run really ends, not when its caller stops waiting.
    void ended.then(() => {
      clearTimeout(hungTimer)
      lane.inFlight.delete(ended)
      this.release(lane)
    })
    const overran = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        hungTimer = setTimeout(() => hung.abort(), HUNG_AFTER_MS)
        reject(new AiError('timeout', AI_MESSAGES.timeout(label, this.settings.timeoutMs)))
      }, this.settings.timeoutMs)
    })
    try {
      return await Promise.race([running, overran])
    } catch (error) {
      if (error instanceof AiError) throw error
      throw new AiError('model_failed', AI_MESSAGES.failed(label), { cause: error })
    } finally {
      clearTimeout(timer)
    }
  }

  /** Native runs still going, answered or abandoned past their time limit (for the tests). */
  get nativeRunning(): number {
    let count = 0
    for (const lane of this.lanes.values()) count += lane.inFlight.size
    return count
  }

  /** Ends every worker thread once native runs in flight have ended; later calls fail. */
  async close(): Promise<void> {
    this.closed = true
    const lanes = [...this.lanes.values()]
    this.lanes.clear()
    // Terminating a thread mid-inference could abort the process (see NATIVE).
    await Promise.all(lanes.flatMap((lane) => [...lane.inFlight]))
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
      lane = { pool, running: 0, waiting: [], inFlight: new Set() }
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
