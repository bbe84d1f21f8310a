// The background job runner: claims jobs from the database (shared by every server process on
// PostgreSQL), runs them, and records the outcome. Jobs survive restarts because they are rows.
import { randomUUID } from 'node:crypto'
import type { AppContext } from './context.ts'
import type { Job } from './db/index.ts'
import { HttpError } from './http-error.ts'

export type JobHandler = (payload: unknown, job: Job) => Promise<unknown>

export interface JobRunner {
  /** Starts polling; resolves nothing, runs until `stop`. */
  start(): void
  /** Claims and runs jobs until none is due (used by tests and at wake-up). */
  drain(): Promise<number>
  /** Polls now instead of at the next tick. */
  wake(): void
  /** Stops claiming new jobs and waits for the running one. */
  stop(): Promise<void>
}

// Errors that will not go away by trying again: the job fails at once.
function isPermanent(error: unknown): boolean {
  return error instanceof HttpError && error.status >= 400 && error.status < 500
}

export function createJobRunner(
  app: Pick<AppContext, 'repo' | 'logger' | 'metrics'>,
  handlers: Record<string, JobHandler>,
  options: { pollMs: number },
): JobRunner {
  const workerId = `worker-${randomUUID()}`
  const kinds = Object.keys(handlers)
  let timer: NodeJS.Timeout | undefined
  let running: Promise<number> | undefined
  let stopped = true

  async function runOne(job: Job): Promise<void> {
    const handler = handlers[job.kind]
    const started = performance.now()
    try {
      if (handler === undefined) throw new Error(`No handler for job kind ${job.kind}`)
      const result = await handler(job.payload, job)
      await app.repo.completeJob(job.id, result ?? null)
      app.metrics.jobs.inc({ kind: job.kind, outcome: 'done' })
      app.logger.info(
        { jobId: job.id, kind: job.kind, ms: Math.round(performance.now() - started) },
        'job done',
      )
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      await app.repo.failJob(job.id, message, isPermanent(error) ? { retry: false } : {})
      app.metrics.jobs.inc({ kind: job.kind, outcome: 'failed' })
      app.logger.warn({ jobId: job.id, kind: job.kind, err: error }, 'job failed')
    }
  }

  async function drain(): Promise<number> {
    let count = 0
    for (;;) {
      const job = await app.repo.claimJob(workerId, kinds)
      if (job === undefined) return count
      await runOne(job)
      count++
    }
  }

  function tick(): void {
    if (stopped || running !== undefined) return
    running = drain()
      .catch((error: unknown) => {
        app.logger.error({ err: error }, 'job runner could not claim jobs')
        return 0
      })
      .finally(() => {
        running = undefined
        if (!stopped) timer = setTimeout(tick, options.pollMs)
      })
  }

  return {
    start() {
      stopped = false
      tick()
    },
    drain,
    wake() {
      if (stopped || running !== undefined) return
      clearTimeout(timer)
      tick()
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
