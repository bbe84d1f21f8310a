// The job queue (see createRepository): jobs are rows, claimed with FOR UPDATE SKIP LOCKED so
// several processes share one queue, retried with backoff; they survive restarts.
import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { checkWholeNumber, excluded, isUuid, milliseconds, now, returned } from './query-helpers.ts'
import { type Job, jobs } from './schema.ts'

/** How often a runner refreshes the lock of the job it runs (`JOB_HEARTBEAT_MS`). */
export const DEFAULT_JOB_HEARTBEAT_MS = 5_000
/**
 * A running job whose lock was not refreshed for this long is presumed abandoned (its process
 * died) and claimed again (`JOB_STALE_AFTER_MS`): six heartbeats.
 */
export const DEFAULT_STALE_JOB_AFTER_MS = 6 * DEFAULT_JOB_HEARTBEAT_MS
export const DEFAULT_RETRY_BASE_MS = 30_000
export const DEFAULT_RETRY_MAX_MS = 60 * 60_000
export const DEFAULT_MAX_ATTEMPTS = 3

/** Tuning of the job queue; the defaults suit image work measured in seconds. */
export interface RepositoryOptions {
  /**
   * A running job whose lock was not refreshed (`heartbeatJob`) for this long is presumed
   * abandoned and claimed again (30 s).
   */
  staleJobAfterMs?: number
  /** Delay before the first retry of a failed job; doubled on every further attempt (30 s). */
  retryBaseMs?: number
  /** Upper bound of the retry delay (1 h). */
  retryMaxMs?: number
}

export interface NewJob {
  kind: string
  organisationId?: string | null
  /** At most one job that has not failed exists per key; enqueueing it again returns that job. */
  dedupeKey?: string | null
  /**
   * With a `dedupeKey`: a job of that key that is done is queued again too (its output is gone,
   * e.g. a derived image the cache evicted), as a failed one always is.
   */
  rerunDone?: boolean
  payload: Record<string, unknown>
  runAfter?: Date
  maxAttempts?: number
}

export interface FailJobOptions {
  /** `false` fails the job for good, e.g. when its input can never succeed (default `true`). */
  retry?: boolean
  /**
   * The client error the job failed with (`{ status, code }`), kept as the failed job's
   * `result` so that its caller answers it again (delivery's 400 for a refused parameter).
   */
  failure?: { status: number; code: string }
}

/** The job queries, tuned by `options`. */
export function createJobQueries(db: Db, options: RepositoryOptions = {}) {
  const staleJobAfterMs = options.staleJobAfterMs ?? DEFAULT_STALE_JOB_AFTER_MS
  const retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS
  const retryMaxMs = options.retryMaxMs ?? DEFAULT_RETRY_MAX_MS
  checkWholeNumber('staleJobAfterMs', staleJobAfterMs)
  checkWholeNumber('retryBaseMs', retryBaseMs)
  checkWholeNumber('retryMaxMs', retryMaxMs)

  /**
   * Queues a job. With a `dedupeKey`, a job with that key that has not failed is returned as is
   * (whatever its status); a failed one is reset and queued again with the new payload.
   */
  async function enqueueJob(input: NewJob): Promise<Job> {
    const insert = db.insert(jobs).values({
      kind: input.kind,
      organisationId: input.organisationId ?? null,
      dedupeKey: input.dedupeKey ?? null,
      payload: input.payload,
      runAfter: input.runAfter ?? now(),
      maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    })
    const key = input.dedupeKey
    if (key === undefined || key === null) return returned((await insert.returning())[0])
    const [row] = await insert
      .onConflictDoUpdate({
        target: jobs.dedupeKey,
        set: {
          kind: excluded(jobs.kind),
          organisationId: excluded(jobs.organisationId),
          payload: excluded(jobs.payload),
          runAfter: excluded(jobs.runAfter),
          maxAttempts: excluded(jobs.maxAttempts),
          status: 'queued',
          result: null,
          error: null,
          attempts: 0,
          lockedBy: null,
          lockedAt: null,
          updatedAt: now(),
        },
        setWhere:
          input.rerunDone === true
            ? inArray(jobs.status, ['failed', 'done'])
            : eq(jobs.status, 'failed'),
      })
      .returning()
    return row ?? returned(await findJobByDedupeKey(key))
  }

  /**
   * Takes the oldest job that is due (queued with `runAfter` ≤ now, or running with a lock older
   * than `staleJobAfterMs`) and marks it running for `workerId`. Concurrent claimers in any
   * number of processes never get the same job: candidates are locked with
   * `FOR UPDATE SKIP LOCKED`. A stale job with no attempts left is failed instead of run again.
   */
  async function claimJob(workerId: string, kinds?: readonly string[]): Promise<Job | undefined> {
    return db.transaction(async (tx) => {
      for (;;) {
        const [candidate] = await tx
          .select({
            id: jobs.id,
            status: jobs.status,
            attempts: jobs.attempts,
            maxAttempts: jobs.maxAttempts,
          })
          .from(jobs)
          .where(
            and(
              or(
                and(eq(jobs.status, 'queued'), lte(jobs.runAfter, now())),
                and(
                  eq(jobs.status, 'running'),
                  lt(jobs.lockedAt, sql`now() - ${milliseconds(staleJobAfterMs)}`),
                ),
              ),
              kinds === undefined ? undefined : inArray(jobs.kind, [...kinds]),
            ),
          )
          .orderBy(asc(jobs.createdAt), asc(jobs.seq))
          .limit(1)
          .for('update', { skipLocked: true })
        if (!candidate) return undefined

        if (candidate.status === 'running' && candidate.attempts >= candidate.maxAttempts) {
          // Its worker died on the last attempt; running it again could kill the next one too.
          await tx
            .update(jobs)
            .set({
              status: 'failed',
              error: sql`concat('worker ', ${jobs.lockedBy}, ' stopped responding')`,
              lockedBy: null,
              lockedAt: null,
              updatedAt: now(),
            })
            .where(eq(jobs.id, candidate.id))
          continue
        }

        const [job] = await tx
          .update(jobs)
          .set({
            status: 'running',
            lockedBy: workerId,
            lockedAt: now(),
            attempts: sql`${jobs.attempts} + 1`,
            updatedAt: now(),
          })
          .where(eq(jobs.id, candidate.id))
          .returning()
        return job
      }
    })
  }

  /** Marks a running job done with its result; `undefined` when the job is not running. */
  async function completeJob(id: string, result: unknown = null): Promise<Job | undefined> {
    const [row] = await db
      .update(jobs)
      .set({ status: 'done', result, error: null, lockedAt: null, updatedAt: now() })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'running')))
      .returning()
    return row
  }

  /**
   * Records a failed attempt of a running job: queued again after an exponential backoff while
   * attempts remain, else failed for good. `undefined` when the job is not running.
   */
  async function failJob(
    id: string,
    error: string,
    { retry = true, failure }: FailJobOptions = {},
  ): Promise<Job | undefined> {
    const retries = retry ? sql`${jobs.attempts} < ${jobs.maxAttempts}` : sql`false`
    const delay = sql`least(${retryBaseMs}::double precision * power(2, greatest(${jobs.attempts} - 1, 0)), ${retryMaxMs}::double precision)`
    const [row] = await db
      .update(jobs)
      .set({
        status: sql`case when ${retries} then 'queued' else 'failed' end`,
        runAfter: sql`case when ${retries} then now() + ${delay} * interval '1 millisecond' else ${jobs.runAfter} end`,
        error,
        result: failure === undefined ? null : { failure },
        lockedBy: null,
        lockedAt: null,
        updatedAt: now(),
      })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'running')))
      .returning()
    return row
  }

  /**
   * Hands a running job back to the queue, due now, its attempt not counted: a process shutting
   * down that cannot finish it in time. Only the worker that holds it can; `undefined` otherwise.
   */
  async function releaseJob(id: string, workerId: string): Promise<Job | undefined> {
    const [row] = await db
      .update(jobs)
      .set({
        status: 'queued',
        runAfter: now(),
        attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
        lockedBy: null,
        lockedAt: null,
        updatedAt: now(),
      })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.lockedBy, workerId)))
      .returning()
    return row
  }

  /**
   * Refreshes the lock of a job `workerId` is running, so no other process takes it over while
   * it runs; `undefined` when the worker no longer holds it.
   */
  async function heartbeatJob(id: string, workerId: string): Promise<Job | undefined> {
    const [row] = await db
      .update(jobs)
      .set({ lockedAt: now() })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.lockedBy, workerId)))
      .returning()
    return row
  }

  async function getJob(id: string): Promise<Job | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
    return row
  }

  async function findJobByDedupeKey(key: string): Promise<Job | undefined> {
    const [row] = await db.select().from(jobs).where(eq(jobs.dedupeKey, key))
    return row
  }

  return {
    enqueueJob,
    claimJob,
    completeJob,
    failJob,
    releaseJob,
    heartbeatJob,
    getJob,
    findJobByDedupeKey,
  }
}
