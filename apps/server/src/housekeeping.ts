// Periodic clean-up of rows that only matter for a while: expired sessions, rate-limit events
// older than the longest window, and request signatures past their time window. Safe to run in
// every process at once (each statement deletes what is old; nobody else needs it).
import type { Repository } from './db/index.ts'
import type { Logger } from './logger.ts'

/** Every ten minutes; the first pass runs at start. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000
/** Rate-limit events are kept for the longest window any limit uses (sign-ups: one hour). */
export const RATE_EVENT_RETENTION_MS = 60 * 60_000

export interface Housekeeping {
  /** One pass now; answers what it removed. */
  runOnce(): Promise<{ sessions: number; events: number; signatures: number }>
  stop(): Promise<void>
}

export function startHousekeeping(
  repo: Pick<Repository, 'deleteExpiredSessions' | 'pruneAccountRecords'>,
  logger: Logger,
  intervalMs = HOUSEKEEPING_INTERVAL_MS,
): Housekeeping {
  let running: Promise<unknown> = Promise.resolve()
  const runOnce = async () => {
    const sessions = await repo.deleteExpiredSessions()
    const { events, signatures } = await repo.pruneAccountRecords(RATE_EVENT_RETENTION_MS)
    if (sessions + events + signatures > 0) {
      logger.info({ sessions, events, signatures }, 'housekeeping removed expired rows')
    }
    return { sessions, events, signatures }
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
