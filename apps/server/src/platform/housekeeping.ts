// Periodic clean-up of rows that only matter for a while: expired sessions, rate-limit events
// older than the longest window, and request signatures past their time window; and of the
// temporary files of storage writes that never finished (a crash or kill -9 in mid-upload);
// and whatever expiry tasks the server adds (visitor uploads older than a day).
// Safe to run in every process at once (each pass deletes what is old; nobody else needs it).
import type { Repository } from '../db/index.ts'
import type { Storage } from '../storage/index.ts'
import type { Logger } from './logger.ts'

/** Every ten minutes; the first pass runs at start. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000
/** Rate-limit events are kept for the longest window any limit uses (visitor AI runs: a day). */
export const RATE_EVENT_RETENTION_MS = 24 * 60 * 60_000
/** A storage temporary file untouched this long belongs to a write that died (one hour). */
export const TEMP_FILE_MAX_AGE_MS = 60 * 60_000

export interface Housekeeping {
  /** One pass now; answers what it removed. */
  runOnce(): Promise<{
    sessions: number
    events: number
    signatures: number
    temporaries: number
    /** What each added task removed, by its name. */
    tasks: Record<string, number>
  }>
  stop(): Promise<void>
}

/** An expiry task of another part of the server: removes what is old, answers how many. */
export type HousekeepingTask = () => Promise<number>

export function startHousekeeping(
  repo: Pick<Repository, 'deleteExpiredSessions' | 'pruneAccountRecords'>,
  logger: Logger,
  intervalMs = HOUSEKEEPING_INTERVAL_MS,
  storage?: Pick<Storage, 'removeStaleTemporaries'>,
  tasks: Record<string, HousekeepingTask> = {},
): Housekeeping {
  let running: Promise<unknown> = Promise.resolve()
  const runOnce = async () => {
    const sessions = await repo.deleteExpiredSessions()
    const { events, signatures } = await repo.pruneAccountRecords(RATE_EVENT_RETENTION_MS)
    const temporaries =
      (await storage?.removeStaleTemporaries(new Date(Date.now() - TEMP_FILE_MAX_AGE_MS))) ?? 0
    const removed: Record<string, number> = {}
    for (const [name, task] of Object.entries(tasks)) {
      // One task failing does not stop the others (nor the next pass).
      removed[name] = await task().catch((error: unknown) => {
        logger.warn({ err: error, task: name }, 'a housekeeping task failed')
        return 0
      })
    }
    const other = Object.values(removed).reduce((sum, n) => sum + n, 0)
    if (sessions + events + signatures + temporaries + other > 0) {
      logger.info(
        { sessions, events, signatures, temporaries, ...removed },
        'housekeeping removed expired rows and stale temporary files',
      )
    }
    return { sessions, events, signatures, temporaries, tasks: removed }
  }
  const tick = () => {
    running = runOnce().catch((error: unknown) =>
      logger.warn({ err: error }, 'housekeeping failed'),
    )
  }
  tick()
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  return {
    runOnce,
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
