// The visitor allowances of the demo organisation, counted per client address per day in the
// database (rate_limit_events), so they hold across processes: `ANON_AI_RUNS_PER_DAY` new AI
// renders (cache misses; delivery counts them when it queues a new job, so cached examples cost
// nothing) and `ANON_UPLOADS_PER_DAY` uploads.
import type { AppContext } from '../context.ts'
import { DEMO_CLOUD_NAME } from '../demo/seed.ts'
import { HttpError } from '../http/errors.ts'
import { createRateLimiter } from '../platform/rate-limit.ts'

export const DAY_MS = 24 * 60 * 60_000
export const DAILY_LIMIT_CODE = 'daily_limit_exceeded'

export type AllowanceKind = 'ai' | 'uploads'

const WHAT: Record<AllowanceKind, string> = {
  ai: 'new AI transformations',
  uploads: 'uploads',
}

export type VisitorAllowance = ReturnType<typeof createVisitorAllowance>

export function createVisitorAllowance(app: Pick<AppContext, 'repo' | 'config' | 'lookups'>) {
  const { repo, config, lookups } = app
  const limits: Record<AllowanceKind, number> = {
    ai: config.anonAiRunsPerDay,
    uploads: config.anonUploadsPerDay,
  }
  const limiters = {
    ai: createRateLimiter(repo, { limit: limits.ai, windowMs: DAY_MS }),
    uploads: createRateLimiter(repo, { limit: limits.uploads, windowMs: DAY_MS }),
  }
  const keyOf = (kind: AllowanceKind, address: string) => `playground:${kind}:address:${address}`

  /** What `address` has left of `kind` today. */
  async function remaining(kind: AllowanceKind, address: string): Promise<number> {
    const { count } = await repo.countRateEvents(keyOf(kind, address), DAY_MS)
    return Math.max(0, limits[kind] - count)
  }

  /**
   * @throws {HttpError} 429 `daily_limit_exceeded` with `Retry-After` when `address` has used
   *   its allowance of `kind` for today.
   */
  async function assertLeft(kind: AllowanceKind, address: string): Promise<void> {
    const wait = await limiters[kind].retryAfter(keyOf(kind, address))
    if (wait <= 0) return
    throw new HttpError(
      429,
      DAILY_LIMIT_CODE,
      `This address has used its ${limits[kind]} ${WHAT[kind]} for today; try again in ${Math.ceil(wait / 3600)} h.`,
      { headers: { 'retry-after': String(wait) } },
    )
  }

  /** Counts one use of `kind` by `address`. */
  async function count(kind: AllowanceKind, address: string): Promise<void> {
    await limiters[kind].hit(keyOf(kind, address))
  }

  /**
   * Delivery calls this before it queues a new AI job (a cache miss) of `organisationId`: on the
   * demo organisation it checks and counts the client's daily AI allowance. Other organisations
   * pay with their own credits, uncounted.
   *
   * @throws {HttpError} 429 `daily_limit_exceeded` past the allowance.
   */
  async function countAiRender(organisationId: string, address: string | undefined): Promise<void> {
    if (address === undefined) return
    const demo = await lookups.organisationByCloudName(DEMO_CLOUD_NAME)
    if (demo === undefined || demo.id !== organisationId) return
    await assertLeft('ai', address)
    await count('ai', address)
  }

  return { remaining, assertLeft, count, countAiRender, limits }
}
