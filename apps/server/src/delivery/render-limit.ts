// The render limit (RENDER_LIMIT_PER_MINUTE): cache misses per client address (an IPv6 client by
// its /64), counted in the database so the limit holds across processes, and taken atomically
// (platform/rate-limit.ts): N misses at once never render more than the limit. Hits cost nothing.
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { createRateLimiter, limitAddress } from '../platform/rate-limit.ts'
import type { DeliveryRequest } from './resolve.ts'

export function createRenderLimit(app: Pick<AppContext, 'repo' | 'metrics' | 'config'>) {
  const { metrics, config } = app
  const limiter = createRateLimiter(app.repo)

  /**
   * Counts a cache miss against the client's render limit (`RENDER_LIMIT_PER_MINUTE`).
   *
   * @throws {HttpError} 429 `too_many_renders` with `Retry-After` when the limit is reached.
   */
  async function countRender(request: DeliveryRequest): Promise<void> {
    if (config.renderLimitPerMinute === 0 || request.clientAddress === undefined) return
    const decision = await limiter.take([
      {
        key: `render:address:${limitAddress(request.clientAddress)}`,
        limit: config.renderLimitPerMinute,
        windowMs: 60_000,
      },
    ])
    if (decision.ok) return
    metrics.renderLimited.inc()
    throw new HttpError(
      429,
      'too_many_renders',
      `Too many new transformations from this address; try again in ${decision.retryAfter} s`,
      { headers: { 'retry-after': String(decision.retryAfter) } },
    )
  }

  return { countRender }
}
