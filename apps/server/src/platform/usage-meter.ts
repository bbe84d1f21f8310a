// Usage per organisation per day (issue 24, item 4), counted cheaply: the delivery path only adds
// to counters in memory (a Map lookup and a few additions per request); every `flushMs` the
// counts go to the database in one statement that adds them to the day's row
// (`INSERT … ON CONFLICT DO UPDATE SET requests = requests + excluded.requests, …`), so several
// processes add up and no row is written per request. Counts that could not be written are kept
// for the next flush, within a bound; a clean shutdown flushes what is left.
import type { Repository } from '../db/index.ts'
import type { UsageIncrement } from '../db/usage-queries.ts'
import type { Logger } from './logger.ts'

/** What one organisation used, to add to a day. */
export interface UsageCounts {
  /** Delivery answers (images, originals, 304s; not the server's own failures). */
  requests?: number
  /** Bytes of those answers' bodies. */
  bytes?: number
  /** Derived images rendered on request (cache misses that ran the engine). */
  renders?: number
  /** AI renders queued and charged. */
  aiRuns?: number
}

export interface UsageMeter {
  count(organisationId: string, counts: UsageCounts): void
  /** Writes what was counted so far (tests, shutdown); resolves when it is in the database. */
  flush(): Promise<void>
  /** Stops the timer and flushes. */
  stop(): Promise<void>
  /** Organisation-days waiting to be written. */
  readonly pending: number
}

/** Organisation-days held in memory at most; beyond it the oldest counts are dropped (logged). */
export const MAX_PENDING_ROWS = 10_000

/** The UTC day of `time`, `YYYY-MM-DD`. */
export const utcDay = (time: number = Date.now()) => new Date(time).toISOString().slice(0, 10)

function isForeignKeyViolation(error: unknown): boolean {
  for (let at: unknown = error; at instanceof Error; at = at.cause) {
    if ((at as { code?: unknown }).code === '23503') return true
  }
  return false
}

type Row = UsageIncrement

export function createUsageMeter(
  repo: Pick<Repository, 'addUsage'>,
  logger: Logger,
  options: { flushMs: number; now?: () => number } = { flushMs: 5_000 },
): UsageMeter {
  const now = options.now ?? Date.now
  let rows = new Map<string, Row>()
  // The day's string is made once a day, not once a request (the delivery path calls `count`).
  let day = ''
  let dayEnds = 0
  const today = (time: number) => {
    if (time >= dayEnds || time < dayEnds - 86_400_000) {
      day = utcDay(time)
      dayEnds = Date.parse(`${day}T00:00:00Z`) + 86_400_000
    }
    return day
  }
  let flushing: Promise<void> = Promise.resolve()

  function add(into: Map<string, Row>, row: Row) {
    const key = `${row.organisationId}\n${row.day}`
    const known = into.get(key)
    if (known === undefined) {
      if (into.size >= MAX_PENDING_ROWS) {
        const oldest = into.keys().next()
        if (oldest.done !== true) into.delete(oldest.value)
        logger.warn('usage counts dropped: too many organisation-days waiting to be written')
      }
      into.set(key, { ...row })
      return
    }
    known.requests += row.requests
    known.bytes += row.bytes
    known.renders += row.renders
    known.aiRuns += row.aiRuns
  }

  async function write(): Promise<void> {
    if (rows.size === 0) return
    const batch = [...rows.values()]
    rows = new Map()
    try {
      await repo.addUsage(batch)
    } catch (error) {
      if (!isForeignKeyViolation(error)) {
        // Kept for the next flush, added to what came since.
        for (const row of batch) add(rows, row)
        logger.warn({ err: error, rows: batch.length }, 'usage not written; kept for the next try')
        return
      }
      // An organisation deleted since it was counted: its rows go, the others are written.
      for (const row of batch) {
        await repo.addUsage([row]).catch((failure: unknown) => {
          if (!isForeignKeyViolation(failure)) add(rows, row)
        })
      }
    }
  }

  function flush(): Promise<void> {
    flushing = flushing.then(write)
    return flushing
  }

  const timer = setInterval(() => void flush(), options.flushMs)
  timer.unref()

  return {
    count(organisationId, counts) {
      add(rows, {
        organisationId,
        day: today(now()),
        requests: counts.requests ?? 0,
        bytes: counts.bytes ?? 0,
        renders: counts.renders ?? 0,
        aiRuns: counts.aiRuns ?? 0,
      })
    },
    flush,
    async stop() {
      clearInterval(timer)
      await flush()
    },
    get pending() {
      return rows.size
    },
  }
}
