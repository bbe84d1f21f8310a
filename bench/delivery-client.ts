// The load generator of delivery.bench.ts, run in a worker thread: autocannon gets its own
// thread (and event loop), so it does not queue behind the server it measures, but it still runs
// on the same machine and shares its CPUs with the server.
import { createRequire } from 'node:module'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import autocannon, { type AutocannonRequest } from 'autocannon'

// autocannon appends every chunk of every response body to a string (`body += chunk`), for its
// `verifyBody`/`onResponse` options, which this benchmark does not use. Decoding a binary JPEG as
// UTF-8 costs it ~0.9 ms of CPU per 75 KB response here: on a shared 2-core machine that CPU is
// taken from the server, and in cache-hit runs it made the client, not the server, the limit
// (~900 req/s with the client thread at 80%). Bodies are dropped instead; their bytes are still
// counted. The same client serves every HTTP variant, ours and ipx alike.
const PipelinedRequestsQueue = createRequire(import.meta.url)(
  'autocannon/lib/pipelinedRequestsQueue.js',
) as { prototype: { addBody(data: Buffer): void } }
PipelinedRequestsQueue.prototype.addBody = () => {}

/** Where a path template takes each request's own id (cold runs: every request unique). */
export const ID_MARK = '{id}'

/** Where a path template takes a width made from each request's id (`widthOf`). */
export const WIDTH_MARK = '{w}'

/** Where a path template takes the number of a source file made from each request's id. */
export const SOURCE_MARK = '{src}'

/** Many sources, each asked `asks` times in a row (`sourceOf`), `count` of them in turn. */
export interface Sources {
  count: number
  asks: number
}

/** The source of request `id`: `asks` consecutive ids share one, `count` of them in turn. */
export function sourceOf(id: number, sources: Sources): number {
  return Math.floor(id / sources.asks) % sources.count
}

/** A width from 200 to 999 px for request `id`: new widths of a 1000 px image, in turn. */
export function widthOf(id: number): number {
  return 200 + (id % 800)
}

/** The largest id `idColour` can write. */
export const MAX_ID = 0xfffff

/**
 * Writes a request id as a 6-hex-digit colour starting with `f` (`f0002a`), a parameter value
 * every variant accepts without extra work (a cover resize never paints its background). The
 * leading letter keeps ipx's value parser from reading it as a number.
 */
export function idColour(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0 || id > MAX_ID) throw new RangeError(`id ${id}`)
  return `f${id.toString(16).padStart(5, '0')}`
}

/** What one worker runs: a warm-up, then the measured run, both at the same concurrency. */
export interface ClientJob {
  /** `http://127.0.0.1:PORT` */
  origin: string
  /** The request path; with `ID_MARK` in it, each request writes the next id there. */
  path: string
  connections: number
  warmupSeconds: number
  seconds: number
  /** The first id this run may use (runs get disjoint ranges, so no URL is ever repeated). */
  firstId: number
  /** What `SOURCE_MARK` takes (default: one source, 0). */
  sources?: Sources
}

export interface ClientResult {
  /** 2xx responses in the measured run. */
  ok: number
  /** Other responses in the measured run. */
  failed: number
  errors: number
  timeouts: number
  /** Wall time of the measured run. */
  seconds: number
  /** CPU time of the load generator's thread during the measured run. */
  cpuSeconds: number
  /** Milliseconds from sending to the end of the response, of each 2xx response. */
  latencies: Float64Array<ArrayBuffer>
  /** Ids used, warm-up included. */
  idsUsed: number
  /** The status codes seen in the measured run, with counts. */
  statuses: Record<string, number>
}

function runPhase(
  job: ClientJob,
  seconds: number,
  nextId: () => number,
  record: boolean,
): Promise<Omit<ClientResult, 'idsUsed'>> {
  const vary = [ID_MARK, WIDTH_MARK, SOURCE_MARK].some((mark) => job.path.includes(mark))
  const sources = job.sources ?? { count: 1, asks: 1 }
  const pathOf = (id: number) =>
    job.path
      .replace(ID_MARK, idColour(id))
      .replace(WIDTH_MARK, String(widthOf(id)))
      .replace(SOURCE_MARK, String(sourceOf(id, sources)))
  const request: AutocannonRequest = { method: 'GET', path: pathOf(0) }
  if (vary) {
    request.setupRequest = (next) => {
      next.path = pathOf(nextId())
      return next
    }
  }
  const latencies: number[] = []
  const statuses: Record<string, number> = {}
  let ok = 0
  let failed = 0
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const cpu = process.threadCpuUsage()
    const instance = autocannon(
      {
        url: job.origin,
        connections: job.connections,
        pipelining: 1,
        duration: seconds,
        timeout: 30,
        requests: [request],
      },
      (error, result) => {
        if (error !== null) {
          reject(error)
          return
        }
        const used = process.threadCpuUsage(cpu)
        resolve({
          ok,
          cpuSeconds: (used.user + used.system) / 1e6,
          failed,
          errors: result.errors,
          timeouts: result.timeouts,
          seconds: (performance.now() - started) / 1000,
          latencies: Float64Array.from(latencies),
          statuses,
        })
      },
    )
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (!record) return
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1
      if (statusCode >= 200 && statusCode < 300) {
        ok++
        latencies.push(responseTime)
      } else {
        failed++
      }
    })
  })
}

async function runJob(job: ClientJob): Promise<ClientResult> {
  let id = job.firstId
  const nextId = () => id++
  await runPhase(job, job.warmupSeconds, nextId, false)
  const measured = await runPhase(job, job.seconds, nextId, true)
  return { ...measured, idsUsed: id - job.firstId }
}

if (!isMainThread && parentPort !== null && (workerData as { client?: unknown })?.client) {
  const port = parentPort
  runJob((workerData as { client: ClientJob }).client).then(
    (result) => port.postMessage({ result }, [result.latencies.buffer]),
    (error: unknown) => port.postMessage({ error: String(error) }),
  )
}

/**
 * Runs `job` in a worker thread of this module and answers its result; the worker ends either
 * way. `onStart` is called once the worker is started (the profiler times its warm-up from it).
 */
export async function runClient(job: ClientJob, onStart?: () => void): Promise<ClientResult> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { client: job } })
  onStart?.()
  try {
    return await new Promise<ClientResult>((resolve, reject) => {
      worker.once('message', (message: { result?: ClientResult; error?: string }) => {
        if (message.result !== undefined) resolve(message.result)
        else reject(new Error(`load generator failed: ${message.error}`))
      })
      worker.once('error', reject)
      worker.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)))
    })
  } finally {
    await worker.terminate()
  }
}
