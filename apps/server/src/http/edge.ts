// The edge of every answer, in one place: the request id, the client address behind trusted
// proxies, HSTS over HTTPS, the request metrics and the log line. The app's first middleware,
// the page cache's answers before routing (http/page-cache.ts) and delivery's fast lane
// (delivery/fast-lane.ts) all go through it, so an answer looks and counts the same whichever
// way it was made.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { MiddlewareHandler } from 'hono'
import type { ServerConfig } from '../config.ts'
import type { AppEnv } from '../context.ts'
import type { Logger } from '../platform/logger.ts'
import type { Metrics } from '../platform/metrics.ts'
import { forwardedClient, isInProcess, peerAddress } from './request.ts'

/** Browsers that reached a page over HTTPS keep to HTTPS for a year (HSTS). */
export const HSTS = 'max-age=31536000; includeSubDomains'

const REQUEST_ID = /^[\w.-]{1,64}$/

/** The request id an answer carries: the client's `x-request-id` when well-formed, else new. */
export function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}

/**
 * The env of a request the web app's loaders make to this server in-process (`http/web.ts`),
 * with the address of the visitor whose page made it. Only `hono.fetch` called there sets it.
 */
export interface InProcessEnv {
  inProcess: true
  visitorAddress?: string
}

/** One answered request, as the log line and the metrics see it. */
export interface Answered {
  requestId: string
  method: string
  path: string | undefined
  route: string
  status: number
  ms: number
  /** More fields of the log line (`pageCache: 'hit'`, `fastLane: true`). */
  extra?: Record<string, unknown>
}

export type Edge = ReturnType<typeof createEdge>

/** The edge over the app's settings, logger and metrics. */
export function createEdge(app: {
  config: Pick<ServerConfig, 'publicUrl' | 'trustedProxies'>
  logger: Logger
  metrics: Metrics
}) {
  const { config, logger, metrics } = app
  const https = config.publicUrl.startsWith('https:')
  // Counters and histograms bound to their labels once: an answer before routing should not pay
  // for hashing them.
  const counters = new Map<string, ReturnType<typeof metrics.requests.labels>>()
  const latencies = new Map<string, ReturnType<typeof metrics.latency.labels>>()

  /** Counts `answer` and writes its log line (on `log`, a request's child logger, when given). */
  function record(answer: Answered, log?: Logger): void {
    const { requestId, method, path, route, status, ms, extra } = answer
    const key = `${route} ${method} ${status}`
    let counter = counters.get(key)
    if (counter === undefined) {
      counter = metrics.requests.labels({ method, route, status: String(status) })
      counters.set(key, counter)
    }
    counter.inc()
    let latency = latencies.get(route)
    if (latency === undefined) {
      latency = metrics.latency.labels({ route })
      latencies.set(route, latency)
    }
    latency.observe(ms / 1000)
    const writer = log ?? logger
    if (!writer.isLevelEnabled('info')) return
    const line = { method, path, status, ms: Math.round(ms), ...extra }
    writer.info(log === undefined ? { requestId, ...line } : line, 'request')
  }

  /** Whether a request before routing came over HTTPS (this server's URL, or a proxy says so). */
  const viaHttps = (incoming: IncomingMessage) => {
    const forwarded = incoming.headers['x-forwarded-proto']
    return https || (typeof forwarded === 'string' && /^\s*https\s*(,|$)/i.test(forwarded))
  }

  /**
   * The app's first middleware: the request id (given or new) and its child logger, the client
   * address behind trusted proxies (or of the visitor whose page called in-process), then the
   * metrics and log line of the answer. A page's own API calls are counted apart (`internal:`)
   * and not logged: the page's request has its line.
   */
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const requestId = requestIdOf(c.req.header('x-request-id'))
    const log = logger.child({ requestId })
    c.set('requestId', requestId)
    c.set('log', log)
    c.set('route', 'other')
    const inProcess = isInProcess(c)
    const visitor = inProcess ? (c.env as InProcessEnv).visitorAddress : undefined
    if (visitor !== undefined) c.set('clientAddress', visitor)
    else if (!inProcess && config.trustedProxies.length > 0) {
      c.set(
        'clientAddress',
        forwardedClient(peerAddress(c), c.req.header('x-forwarded-for'), config.trustedProxies),
      )
    }
    const started = performance.now()
    await next()
    // Set on the response itself: `c.header` after `next()` would rebuild (and copy) the body.
    c.res.headers.set('x-request-id', requestId)
    const ms = performance.now() - started
    const method = c.req.method
    const status = c.res.status
    if (inProcess) {
      const route = `internal:${c.get('route')}`
      metrics.requests.inc({ method, route, status: String(status) })
      metrics.latency.observe({ route }, ms / 1000)
      return
    }
    record({ requestId, method, path: c.req.path, route: c.get('route'), status, ms }, log)
  }

  return {
    record,
    middleware,
    /** The page cache's answers before routing (`PageCache.answerRaw`): a page, 200. */
    pageCacheHooks: {
      headers: (incoming: IncomingMessage): Record<string, string> => {
        const requestId = requestIdOf(incoming.headers['x-request-id'])
        return viaHttps(incoming)
          ? { 'x-request-id': requestId, 'strict-transport-security': HSTS }
          : { 'x-request-id': requestId }
      },
      answered: (incoming: IncomingMessage, headers: Record<string, string>, ms: number) =>
        record({
          requestId: headers['x-request-id'] ?? '',
          method: 'GET',
          path: incoming.url?.split('?')[0],
          route: 'web',
          status: 200,
          ms,
          extra: { pageCache: 'hit' },
        }),
    },
    /**
     * Delivery's fast lane (decision 010), under the route `route`: the request id and the
     * metrics and log line of a routed delivery request (no HSTS: the app adds it to pages only).
     */
    fastLaneHooks: (route: string) => ({
      requestId: (incoming: IncomingMessage) => requestIdOf(incoming.headers['x-request-id']),
      answered: (incoming: IncomingMessage, status: number, requestId: string, ms: number) =>
        record({
          requestId,
          method: incoming.method ?? 'GET',
          path: incoming.url?.split('?')[0],
          route,
          status,
          ms,
          extra: { fastLane: true },
        }),
    }),
  }
}
