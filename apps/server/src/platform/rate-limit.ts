// Attempt limits shared by every server process: events live in the database (rate_limit_events),
// so a limit holds however many processes answer behind a load balancer.
import type { Repository } from '../db/index.ts'

export interface RateLimit {
  /** Events allowed per key within the window. */
  limit: number
  windowMs: number
}

export type RateLimiter = ReturnType<typeof createRateLimiter>

/** A sliding-window limiter over the repository's rate-limit events. */
export function createRateLimiter(
  repo: Pick<Repository, 'countRateEvents' | 'recordRateEvent' | 'clearRateEvents'>,
  rule: RateLimit,
) {
  return {
    /** Seconds until `key` may try again, or 0 when it may now. */
    async retryAfter(key: string): Promise<number> {
      const { count, oldest } = await repo.countRateEvents(key, rule.windowMs)
      if (count < rule.limit || oldest === undefined) return 0
      return Math.max(1, Math.ceil((oldest.getTime() + rule.windowMs - Date.now()) / 1000))
    },
    hit: (key: string) => repo.recordRateEvent(key),
    reset: (key: string) => repo.clearRateEvents(key),
  }
}
