// The background job runner: claims jobs from the database (shared by every server process on
// PostgreSQL), runs them, and records the outcome. Jobs survive restarts because they are rows.
import { randomUUID } from 'node:crypto'
import { isModelTimeout } from '@tessera/engine'
import type { AppContext } from '../context.ts'
import { DEFAULT_JOB_HEARTBEAT_MS, type Job } from '../db/index.ts'

/** A kind of job: how to run one, and which of its errors no retry can mend. */
export interface JobHandler {
  /** Runs the job; what it answers is stored as the job's result. */
  run(payload: unknown, job: Job): Promise<unknown>
  /**
   * Whether `error` would come back on every attempt (a bad image, a deleted file): the job
   * then fails at once instead of being tried again. The job's owner decides, as only it knows
   * what its errors mean.
   */
  isPermanent(error: unknown): boolean
  /**
   * The answer a client should get for `error` when it is the client's own (a refused
   * parameter): kept with the failed job, so whoever asks after it gets that answer, not a
   * generic failure. Undefined for errors that are not the client's.
   */
  clientError?(error: unknown): JobFailure | undefined
}

/** A client error a job failed with: the HTTP status and code its caller answers. */
export interface JobFailure {
  status: number
  code: string
}

export interface JobRunner {
  /** Starts polling; resolves nothing, runs until `stop`. */
  start(): void
  /** Claims and runs jobs until none is due (used by tests and at wake-up). */
  drain(): Promise<number>
  /** Polls now instead of at the next tick. */
  wake(): void
  /**
   * Stops claiming new jobs and waits for the running one; one still running after `graceMs`
   * (default: wait for it) is handed back to the queue for another process, and not waited for.
   */
  stop(options?: { graceMs?: number }): Promise<void>
}

/** The longest wait between rounds after failed ones. */
const MAX_BACKOFF_MS = 5000

/** An idle queue is polled at most this many times less often than `pollMs` (see `tick`). */
export const IDLE_POLL_FACTOR = 4

/** The wait before the next round after `idleRounds` empty rounds in a row. */
export function idlePollMs(pollMs: number, idleRounds: number): number {
  return pollMs * Math.min(2 ** Math.max(0, idleRounds - 1), IDLE_POLL_FACTOR)
}

/** Failed jobs checked for a missing refund per round (see `refundFailed`). */
const REFUND_SWEEP = 20

/**
 * How often the poll also looks for failed jobs left unrefunded (a `drain` called directly always
 * does). The look joins jobs to the credit ledger, and on the embedded database every query runs
 * on the main thread: four times a second it took a share of every cache miss's time (issue 25).
 * Such jobs are rare (a worker that died on a job's last attempt), and their refund may wait.
 */
export const REFUND_SWEEP_INTERVAL_MS = 30_000

export function createJobRunner(
  app: Pick<AppContext, 'repo' | 'logger' | 'metrics'>,
  handlers: Record<string, JobHandler>,
  options: {
    pollMs: number
    /**
     * How often the lock of the running job is refreshed (default `DEFAULT_JOB_HEARTBEAT_MS`):
     * while it is, no other process takes the job over; once this process dies it stops, and
     * the job is claimed again after the repository's `staleJobAfterMs`.
     */
    heartbeatMs?: number
    /**
     * Kinds whose jobs take turns with the rest: each lane (and the kinds in none, the last
     * lane) is served in turn while several have jobs waiting, so visitors' jobs and
     * organisations' jobs each get their share and neither starves the other (issue 19
     * finding 4). Within a lane, oldest first. Default: one lane, oldest first.
     */
    lanes?: readonly (readonly string[])[]
    /** How often the poll sweeps for unrefunded failed jobs (default `REFUND_SWEEP_INTERVAL_MS`). */
    refundSweepMs?: number
  },
): JobRunner {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_JOB_HEARTBEAT_MS
  const workerId = `worker-${randomUUID()}`
  const kinds = Object.keys(handlers)
  const lanes = lanesOf(kinds, options.lanes ?? [])
  // The lane served last: the next claim starts with the one after it.
  let lastLane = lanes.length - 1

  /** The next job, from the lanes in turn starting after the last one served. */
  async function claimNext(): Promise<Job | undefined> {
    for (let offset = 1; offset <= lanes.length; offset++) {
      const lane = (lastLane + offset) % lanes.length
      const job = await app.repo.claimJob(workerId, lanes[lane] as string[])
      if (job !== undefined) {
        lastLane = lane
        return job
      }
    }
    return undefined
  }
  let timer: NodeJS.Timeout | undefined
  let running: Promise<number> | undefined
  let stopped = true
  // Set by `stop`: the loop in `drain` claims nothing more.
  let halted = false
  let current: Job | undefined
  let stopping: Promise<void> | undefined

  /** Refreshes `job`'s lock every `heartbeatMs` until the returned function is called. */
  function heartbeat(job: Job): () => void {
    let beating: Promise<unknown> | undefined
    let warned = false
    const timer = setInterval(() => {
      // One refresh at a time: a slow database does not pile them up.
      if (beating !== undefined) return
      beating = app.repo
        .heartbeatJob(job.id, workerId)
        .then(
          (held) => {
            if (held === undefined && !warned) {
              warned = true
              app.logger.warn({ jobId: job.id, kind: job.kind }, 'job lock lost while running')
            }
          },
          (error: unknown) => {
            if (!warned) {
              warned = true
              app.logger.warn({ err: error, jobId: job.id }, 'could not refresh a job lock')
            }
          },
        )
        .finally(() => {
          beating = undefined
        })
    }, heartbeatMs)
    timer.unref()
    return () => clearInterval(timer)
  }

  async function runOne(job: Job): Promise<void> {
    const handler = handlers[job.kind]
    const started = performance.now()
    const stopBeating = heartbeat(job)
    try {
      if (handler === undefined) throw new Error(`No handler for job kind ${job.kind}`)
      const result = await handler.run(job.payload, job)
      await app.repo.completeJob(job.id, result ?? null)
      app.metrics.jobs.inc({ kind: job.kind, outcome: 'done' })
      app.logger.info(
        {
          jobId: job.id,
          kind: job.kind,
          ms: Math.round(performance.now() - started),
        },
        'job done',
      )
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      // A model that ran out of AI_TIMEOUT_MS takes as long again on the same input, whatever
      // the job kind says (issue 19 finding 4): no retry.
      const permanent = (handler?.isPermanent(error) ?? false) || timedOutModel(error)
      // A job failing for good is refunded before it shows as failed, so whoever sees it failed
      // also sees the refund. (`failJob` decides the same way: no retry, or no attempts left.)
      if (permanent || job.attempts >= job.maxAttempts) await refund({ ...job, status: 'failed' })
      const failure = handler?.clientError?.(error)
      await app.repo.failJob(job.id, message, {
        ...(permanent ? { retry: false } : {}),
        ...(failure === undefined ? {} : { failure }),
      })
      app.metrics.jobs.inc({ kind: job.kind, outcome: 'failed' })
      app.logger.warn({ jobId: job.id, kind: job.kind, err: error }, 'job failed')
    } finally {
      stopBeating()
    }
  }

  /** Gives back what a job that failed for good was charged (once: refunds are referenced). */
  async function refund(job: Job): Promise<void> {
    try {
      for (const given of await app.repo.refundJob(job)) {
        if (given.change.status === 'applied') {
          app.logger.info(
            { jobId: job.id, reason: given.reason, credits: given.credits },
            'credits refunded',
          )
        }
      }
    } catch (error) {
      // The sweep in `drain` tries again.
      app.logger.error({ err: error, jobId: job.id }, 'could not refund a failed job')
    }
  }

  // Jobs failed without their handler running (a worker that died on the last attempt, a
  // refund that could not be written) are refunded here, when the queue is empty.
  async function refundFailed(): Promise<void> {
    for (const job of await app.repo.listUnrefundedFailedJobs(REFUND_SWEEP)) await refund(job)
  }

  // When the poll last swept (a round that found the queue empty at least this long after).
  let sweptAt = Number.NEGATIVE_INFINITY

  async function drain(): Promise<number> {
    return drainJobs(true)
  }

  async function drainJobs(sweep: boolean): Promise<number> {
    let count = 0
    for (;;) {
      if (halted) return count
      const job = await claimNext()
      if (job === undefined) {
        if (sweep) {
          sweptAt = Date.now()
          await refundFailed()
        }
        return count
      }
      current = job
      try {
        await runOne(job)
      } finally {
        current = undefined
      }
      count++
    }
  }

  // After a failed round (the database out of reach) the next waits longer, up to a limit, so an
  // outage is not met with four queries and four log lines a second.
  let failures = 0
  // Empty rounds in a row: an idle queue is looked at less often, down to every
  // `IDLE_POLL_FACTOR` × pollMs. Each look is a claim transaction per lane, which on the
  // embedded database runs on the main thread beside every cache miss (issue 25). Jobs queued
  // in this process wake the runner at once (`wake`), so what waits longer is only a retry that
  // came due, a job queued by another process, or a lock gone stale.
  let idleRounds = 0
  // A wake that came while a round was running: another round follows it at once.
  let wokenWhileRunning = false
  function tick(): void {
    if (stopped || running !== undefined) return
    const sweepMs = options.refundSweepMs ?? REFUND_SWEEP_INTERVAL_MS
    running = drainJobs(Date.now() - sweptAt >= sweepMs)
      .then(
        (count) => {
          if (failures > 0) app.logger.info('job runner claims jobs again')
          failures = 0
          idleRounds = count === 0 ? idleRounds + 1 : 0
          return count
        },
        (error: unknown) => {
          failures++
          if (failures === 1) app.logger.error({ err: error }, 'job runner could not claim jobs')
          return 0
        },
      )
      .finally(() => {
        running = undefined
        const idleMs = idlePollMs(options.pollMs, idleRounds)
        const delay = wokenWhileRunning
          ? 0
          : failures === 0
            ? idleMs
            : Math.min(options.pollMs * 2 ** failures, MAX_BACKOFF_MS)
        wokenWhileRunning = false
        if (!stopped) timer = setTimeout(tick, delay)
      })
  }

  return {
    start() {
      stopped = false
      tick()
    },
    drain,
    wake() {
      if (stopped) return
      idleRounds = 0
      if (running !== undefined) {
        wokenWhileRunning = true
        return
      }
      clearTimeout(timer)
      tick()
    },
    stop(stopOptions = {}) {
      stopping ??= halt(stopOptions.graceMs)
      return stopping
    },
  }

  async function halt(graceMs: number | undefined): Promise<void> {
    stopped = true
    halted = true
    clearTimeout(timer)
    const waiting = running
    if (waiting === undefined) return
    if (graceMs === undefined) {
      await waiting
      return
    }
    let timeout: NodeJS.Timeout | undefined
    const finished = await Promise.race([
      waiting.then(() => true),
      new Promise<false>((resolve) => {
        timeout = setTimeout(() => resolve(false), graceMs)
      }),
    ])
    clearTimeout(timeout)
    const job = current
    if (finished || job === undefined) return
    try {
      if ((await app.repo.releaseJob(job.id, workerId)) !== undefined) {
        app.logger.info({ jobId: job.id, kind: job.kind }, 'job handed back to the queue')
      }
    } catch (error) {
      // Its lock goes stale (no more heartbeats) and another process claims it then.
      app.logger.warn({ err: error, jobId: job.id }, 'could not hand a job back')
    }
  }
}

/** Whether `error`, or an error it wraps, is an AI model's own timeout. */
function timedOutModel(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (isModelTimeout(current)) return true
    current = current.cause
  }
  return false
}

/** The lanes of `kinds`: each given lane's kinds that have a handler, then every other kind. */
function lanesOf(kinds: readonly string[], given: readonly (readonly string[])[]): string[][] {
  const laned = new Set(given.flat())
  const lanes = given.map((lane) => lane.filter((kind) => kinds.includes(kind)))
  lanes.push(kinds.filter((kind) => !laned.has(kind)))
  return lanes.filter((lane) => lane.length > 0)
}
