// How the delivery benchmark measures (delivery.bench.ts): in-process calls at the same concurrency
// as the HTTP variants, HTTP through the autocannon worker, other processes' load alongside, and a
// row of figures per run.
import { readFileSync } from 'node:fs'
import type { Engine } from '@tessera/engine'
import { parsePattern } from '@tessera/url'
import { type ClientJob, ID_MARK, idColour, MAX_ID, runClient } from './delivery-client.ts'
import {
  CONCURRENCY,
  JPEG,
  SECONDS,
  SOURCE_OPTIONS,
  sharp,
  type VariantKey,
  WARMUP_SECONDS,
  type Workload,
} from './delivery-settings.ts'

// ---------------------------------------------------------------------------------------------
// Measurement.

export interface Measured {
  ok: number
  seconds: number
  latencies: Float64Array<ArrayBuffer>
  /** CPU time of the load generator's thread (HTTP runs). */
  cpuSeconds?: number
}

/** A disjoint range of ids for every run, so no URL is requested twice in the whole run. */
let nextId = 0

/** The next request id, as a colour (`idColour` refuses ids past `MAX_ID`). */
export const newColour = () => idColour(nextId++)

/**
 * CPU seconds the whole machine has spent busy (Linux `/proc/stat`, in USER_HZ = 1/100 s), to
 * tell how much CPU other processes took during a run; undefined where there is no /proc.
 */
function machineBusySeconds(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? ''
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number)
    // Steal time counts too: on a virtual machine it is CPU other tenants took from this one.
    return (user + nice + system + irq + softirq + steal) / 100
  } catch {
    return undefined
  }
}

/** Runs `work` and measures the CPU other processes used meanwhile, in cores. */
export async function withOtherLoad<T>(
  work: () => Promise<T>,
): Promise<{ value: T; other?: number }> {
  const machine = machineBusySeconds()
  const own = process.cpuUsage()
  const started = performance.now()
  const value = await work()
  const after = machineBusySeconds()
  if (machine === undefined || after === undefined) return { value }
  const used = process.cpuUsage(own)
  const seconds = (performance.now() - started) / 1000
  const other = (after - machine - (used.user + used.system) / 1e6) / seconds
  return { value, other: Math.max(0, other) }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The direct-sharp call of a workload, with a new colour. */
export const directCall = (workload: Workload, input: Buffer) =>
  workload.direct(sharp(input, SOURCE_OPTIONS), `#${newColour()}`).jpeg(JPEG).toBuffer()

/** Our engine's call for a workload, as delivery makes it (pattern parsed per request). */
export async function engineCall(
  workload: Workload,
  engine: Engine,
  input: Buffer,
): Promise<Buffer> {
  const pattern = workload.pattern.replace(ID_MARK, newColour())
  const { value, issues } = parsePattern(pattern, { format: 'jpeg' })
  if (issues.length > 0) throw new Error(`${pattern}: ${issues[0]?.message}`)
  return (await engine.transform({ input, operations: value, autoFormat: false, dpr: 1 })).data
}

/** `CONCURRENCY` async loops of an in-process call; calls ending after the deadline are dropped. */
export async function measureInProcess(once: () => Promise<unknown>): Promise<Measured> {
  const run = async (seconds: number, latencies: number[] | undefined) => {
    const started = performance.now()
    const deadline = started + seconds * 1000
    const loop = async () => {
      while (performance.now() < deadline) {
        const start = performance.now()
        await once()
        const end = performance.now()
        if (end <= deadline) latencies?.push(end - start)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, loop))
    return (deadline - started) / 1000
  }
  await run(WARMUP_SECONDS, undefined)
  const latencies: number[] = []
  const seconds = await run(SECONDS, latencies)
  return { ok: latencies.length, seconds, latencies: Float64Array.from(latencies) }
}

/** Runs autocannon in a worker thread: a warm-up, then the measured run. */
export async function measureHttp(origin: string, path: string): Promise<Measured> {
  const job: ClientJob = {
    origin,
    path,
    connections: CONCURRENCY,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    firstId: nextId,
  }
  const result = await runClient(job)
  nextId += result.idsUsed
  if (nextId > MAX_ID) throw new RangeError('ran out of request ids')
  if (result.failed > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${origin}${path}: ${result.failed} non-2xx (${JSON.stringify(result.statuses)}), ` +
        `${result.errors} errors, ${result.timeouts} timeouts`,
    )
  }
  return result
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

export interface Row {
  workload: Workload
  variant: VariantKey
  rps: number
  p50: number
  p99: number
  count: number
  /** Share of one core used by the load generator (HTTP runs). */
  clientCpu: number | undefined
  /** Cores used by other processes of the machine during the run (warm-up included). */
  otherLoad: number | undefined
  /**
   * CPU time of this process's main thread (where the HTTP servers run) per answer, in ms,
   * warm-up included (warm and bare rows).
   */
  mainCpuMs?: number
}

export function toRow(
  workload: Workload,
  variant: VariantKey,
  measured: Measured,
  otherLoad: number | undefined,
): Row {
  const sorted = measured.latencies.slice().sort()
  return {
    workload,
    variant,
    rps: measured.ok / measured.seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    count: measured.ok,
    clientCpu:
      measured.cpuSeconds === undefined ? undefined : measured.cpuSeconds / measured.seconds,
    otherLoad,
  }
}
