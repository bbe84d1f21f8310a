// The visitor allowances of the demo organisation, counted per client address (an IPv6 client
// by its /64) per day in the database (rate_limit_events), so they hold across processes, and
// taken atomically (platform/rate-limit.ts): `ANON_AI_RUNS_PER_DAY` credits of new AI renders
// (delivery takes them when it queues a new AI job, evicted result or not; cached images cost
// nothing), `ANON_UPLOADS_PER_DAY` uploads, and `ANON_UPLOADS_MAX_BYTES` for every visitor's
// uploads of the last 24 h together.
import type { AppContext } from '../context.ts'
import { DEMO_CLOUD_NAME } from '../demo/seed.ts'
import { HttpError } from '../http/errors.ts'
import { createRateLimiter, limitAddress, type RateUse } from '../platform/rate-limit.ts'

export const DAY_MS = 24 * 60 * 60_000
export const DAILY_LIMIT_CODE = 'daily_limit_exceeded'
export const VISITOR_STORAGE_FULL_CODE = 'visitor_storage_full'
/** The server-wide key of visitor upload bytes (their window is the uploads' 24 h). */
export const VISITOR_UPLOAD_BYTES_KEY = 'playground:upload-bytes'

export type AllowanceKind = 'ai' | 'uploads'

const WHAT: Record<AllowanceKind, string> = {
  ai: 'AI credits',
  uploads: 'uploads',
}

export type VisitorAllowance = ReturnType<typeof createVisitorAllowance>

export function createVisitorAllowance(app: Pick<AppContext, 'repo' | 'config' | 'lookups'>) {
  const { repo, config, lookups } = app
  const limiter = createRateLimiter(repo)
  const limits: Record<AllowanceKind, number> = {
    ai: config.anonAiRunsPerDay,
    uploads: config.anonUploadsPerDay,
  }
  const keyOf = (kind: AllowanceKind, address: string) =>
    `playground:${kind}:address:${limitAddress(address)}`
  const ruleOf = (kind: AllowanceKind, address: string, weight = 1) => ({
    key: keyOf(kind, address),
    limit: limits[kind],
    windowMs: DAY_MS,
    weight,
  })

  /** What `address` has left of `kind` today. */
  async function remaining(kind: AllowanceKind, address: string): Promise<number> {
    const { count } = await repo.countRateEvents(keyOf(kind, address), DAY_MS)
    return Math.max(0, limits[kind] - count)
  }

  const dailyLimit = (kind: AllowanceKind, wait: number) =>
    new HttpError(
      429,
      DAILY_LIMIT_CODE,
      `This address has used its ${limits[kind]} ${WHAT[kind]} for today; try again in ${Math.ceil(wait / 3600)} h.`,
      { headers: { 'retry-after': String(wait) } },
    )

  /**
   * Takes one of `address`'s uploads of today and `bytes` of the server-wide visitor storage,
   * before the body is read. Release it when the upload is refused; reweigh it to the bytes
   * stored once they are known.
   *
   * @throws {HttpError} 429 `daily_limit_exceeded` past the address's uploads;
   *   507 `visitor_storage_full` when the visitors' uploads of the last 24 h fill
   *   `ANON_UPLOADS_MAX_BYTES` (both with `Retry-After`).
   */
  async function takeUpload(address: string, bytes: number): Promise<RateUse> {
    const daily = ruleOf('uploads', address)
    const decision = await limiter.take([
      daily,
      // Counted per upload event of the window: bytes stored expire with their files (24 h).
      {
        key: VISITOR_UPLOAD_BYTES_KEY,
        limit: config.anonUploadsMaxBytes,
        windowMs: DAY_MS,
        weight: bytes,
      },
    ])
    if (decision.ok) return decision.use
    if (decision.key === daily.key) throw dailyLimit('uploads', decision.retryAfter)
    throw new HttpError(
      507,
      VISITOR_STORAGE_FULL_CODE,
      'Visitor uploads have filled the space this server keeps for them; try again later or sign up.',
      { headers: { 'retry-after': String(decision.retryAfter) } },
    )
  }

  /**
   * Hears delivery's new AI render of `organisationId` before it is queued (a cache miss, or a
   * result evicted since; `onNewAiRender`, wired in services.ts): on the demo organisation it takes the render's `credits` from the
   * client's daily AI allowance, and answers the use to release if the render is not queued
   * after all. Other organisations pay with their own credits, uncounted.
   *
   * @throws {HttpError} 429 `daily_limit_exceeded` past the allowance.
   */
  async function takeAiCredits(
    organisationId: string,
    address: string | undefined,
    credits: number,
  ): Promise<RateUse | undefined> {
    if (address === undefined || credits <= 0) return undefined
    const demo = await lookups.organisationByCloudName(DEMO_CLOUD_NAME)
    if (demo === undefined || demo.id !== organisationId) return undefined
    const decision = await limiter.take([ruleOf('ai', address, credits)])
    if (!decision.ok) throw dailyLimit('ai', decision.retryAfter)
    return decision.use
  }

  return { remaining, takeUpload, takeAiCredits, limits }
}
