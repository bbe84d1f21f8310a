// The render limit (RENDER_LIMIT_PER_MINUTE): cache misses per client address, counted in the
// database so the limit holds across processes. Hits cost nothing.
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { createRateLimiter } from '../platform/rate-limit.ts'
import type { DeliveryRequest } from './resolve.ts'

export function createRenderLimit(app: Pick<AppContext, 'repo' | 'metrics' | 'config'>) {
  const { metrics, config } = app
  const renders = createRateLimiter(app.repo, {
    limit: config.renderLimitPerMinute,
    windowMs: 60_000,
  })

  /**
   * Counts a cache miss against the client's render limit (`RENDER_LIMIT_PER_MINUTE`).
   *
   * @throws {HttpError} 429 `too_many_renders` with `Retry-After` when the limit is reached.
   */
  async function countRender(request: DeliveryRequest): Promise<void> {
    if (config.renderLimitPerMinute === 0 || request.clientAddress === undefined) return
    const key = `render:address:${request.clientAddress}`
    const wait = await renders.retryAfter(key)
    if (wait > 0) {
      metrics.renderLimited.inc()
      throw new HttpError(
        429,
        'too_many_renders',
        `Too many new transformations from this address; try again in ${wait} s`,
        { headers: { 'retry-after': String(wait) } },
      )
    }
    await renders.hit(key)
  }

  return { countRender }
}
