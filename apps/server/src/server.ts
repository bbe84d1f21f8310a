import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { getRequestListener, RequestError } from '@hono/node-server'
import type { CreateEngineOptions } from '@tessera/engine'
import { SESSION_COOKIE } from './accounts/auth.ts'
import { createActivityLog } from './activity/activity.ts'
import { createApp } from './app.ts'
import type { ServerConfig } from './config.ts'
import { DELIVERY_ROUTE } from './delivery/paths.ts'
import { createEdge } from './http/edge.ts'
import { createLoopbackRedirect } from './http/loopback.ts'
import type { OpenApiDocument } from './http/openapi-kit.ts'
import { createWebPageCache } from './http/web.ts'
import { buildOpenApiDocument } from './openapi.ts'
import { expireSignedUploads } from './pixelbin/signed-upload-housekeeping.ts'
import { type Housekeeping, startHousekeeping } from './platform/housekeeping.ts'
import { createLogger, type Logger } from './platform/logger.ts'
import { utcDay } from './platform/usage-meter.ts'
import { expireVisitorUploads } from './playground/visitor-uploads.ts'
import { createServices, type Services } from './services.ts'

/** How long a shutdown waits for requests in flight before it closes their connections. */
export const SHUTDOWN_GRACE_MS = 25_000
/** How long a shutdown waits for the running job before it hands it back to the queue. */
export const JOB_GRACE_MS = 10_000

/** A running server and how to stop it. */
export interface RunningServer {
  /** The base URL it answers on, e.g. `http://127.0.0.1:4201`. */
  url: string
  port: number
  services: Services
  /** The periodic clean-up of expired sessions, rate-limit events and signatures. */
  housekeeping: Housekeeping
  /**
   * Graceful shutdown: stops accepting connections and claiming jobs, lets the requests in
   * flight finish (up to `SHUTDOWN_GRACE_MS`, then cuts what is left), hands back a job still
   * running after `JOB_GRACE_MS` for another process to run, and closes the database.
   */
  close(): Promise<void>
}

/**
 * Starts the server: services (database, storage, engine, demo data), the job runner and the
 * HTTP listener. Port 0 picks a free port.
 */
export async function startServer(
  config: ServerConfig,
  options: {
    logger?: Logger
    databaseDir?: string
    /** A dumped PGlite data folder to start the embedded database from (tests). */
    databaseSnapshot?: Blob
    runJobs?: boolean
    /** An AI service to use instead of the engine's own (tests share one across servers). */
    ai?: CreateEngineOptions['ai']
    /** Content files to read instead of `apps/server/content` (tests). */
    contentDir?: string
  } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config)
  const services = await createServices(config, logger, options)
  const { content } = services.context
  // Built at its first request, not at start: ~30 ms of CPU that a test worker's many server
  // starts would pay for a document few of them ask for.
  let openApiDocument: OpenApiDocument | undefined
  const openApi = () => {
    openApiDocument ??= buildOpenApiDocument({
      publicUrl: config.publicUrl,
      appSlug: content.apps[0]?.slug ?? 'background-remover',
      predictionId: content.predictions[0]?.id ?? 'erase_bg',
    })
    return openApiDocument
  }
  const pageCache = createWebPageCache(services.context, SESSION_COOKIE)
  const edge = createEdge(services.context)
  const app = createApp(services.context, {
    delivery: services.delivery,
    features: services.features,
    edge,
    openApi,
    pageCache,
  })
  const badRequest = (message: string) =>
    new Response(JSON.stringify({ code: 'bad_request', message }), {
      status: 400,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
  // Requests the adapter cannot turn into a Request (a backslash in the path, a bad Host) never
  // reach the app; they still get the JSON error shape.
  const listener = getRequestListener(app.fetch, {
    errorHandler: (error) =>
      error instanceof RequestError
        ? badRequest(`The request could not be read: ${error.message}`)
        : badRequest('The request could not be read'),
  })
  // A page cache hit and a delivery hit the fast lane remembers (decision 010) are answered
  // before the app, through the same edge as routed requests: request id, HSTS on pages over
  // HTTPS, metrics and log line (issue 14).
  const { fastLane } = services.delivery
  const hooks = edge.pageCacheHooks
  const fastHooks = edge.fastLaneHooks(DELIVERY_ROUTE)
  // Set when shutdown begins (see below); answers from then on go through the app, which says
  // `Connection: close`.
  let closing = false
  // In development, a page opened at another loopback name is sent to PUBLIC_URL (one origin).
  const loopbackRedirect = createLoopbackRedirect(config)
  const server: Server = createServer((incoming, outgoing) => {
    const location = loopbackRedirect?.(incoming)
    if (location !== undefined) {
      outgoing.writeHead(307, { location, 'cache-control': 'no-store', 'content-length': '0' })
      outgoing.end()
    } else if (closing) listener(incoming, outgoing)
    else if (fastLane.answerRaw(incoming, outgoing, fastHooks)) return
    else if (!pageCache.answerRaw(incoming, outgoing, hooks)) listener(incoming, outgoing)
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(config.port, config.host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    await services.close()
    throw error
  }
  // Requests Node's HTTP parser refuses never reach the adapter; answer them in the same shape.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return
    const body = JSON.stringify({ code: 'bad_request', message: 'The request could not be parsed' })
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    )
    logger.debug({ err: error }, 'unparseable request')
  })
  // Graceful shutdown: which connections are answering a request, so a kept-alive one is closed
  // once its answer is fully written (Node's own idle-connection closing may cut an answer whose
  // last bytes are still buffered), and answers started after shutdown began say
  // `Connection: close`.
  const busy = new Map<Socket, number>()
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    busy.set(socket, (busy.get(socket) ?? 0) + 1)
    if (closing && !response.headersSent) response.setHeader('connection', 'close')
    response.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1
      if (left > 0) busy.set(socket, left)
      else {
        busy.delete(socket)
        if (closing) socket.end()
      }
    })
  })
  if (options.runJobs !== false) services.jobs.start()
  const { repo, storage } = services.context
  const { retention } = config
  const housekeeping = startHousekeeping(repo, logger, undefined, storage, {
    visitorUploads: () => expireVisitorUploads(services.context),
    // Used and expired password-reset and address-confirmation tokens (decision 019).
    accountTokens: () => repo.deleteStaleAccountTokens(),
    signedUploads: () => expireSignedUploads(services.context),
    webhookDeliveries: () => services.context.repo.pruneDeliveries(),
    // Usage per day and the activity log, kept for their retention (issue 24).
    usage: () => repo.pruneUsage(utcDay(Date.now() - retention.usageDays * 86_400_000)),
    activity: () => createActivityLog(services.context).prune(),
  })
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  return {
    url: `http://${host}:${port}`,
    port,
    services,
    housekeeping,
    close: async () => {
      const jobsStopped = services.jobs.stop({ graceMs: JOB_GRACE_MS })
      await housekeeping.stop()
      closing = true
      await new Promise<void>((done, fail) => {
        const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS)
        // Closes the connections with no request; the busy ones end after their answer.
        server.close((error) => {
          clearTimeout(cut)
          if (error) fail(error)
          else done()
        })
      })
      await jobsStopped
      await services.close({ jobGraceMs: JOB_GRACE_MS })
    },
  }
}
