import { type ServerType, serve } from '@hono/node-server'
import { createApp } from './app.ts'
import type { ServerConfig } from './config.ts'

/** A running server and how to stop it. */
export interface RunningServer {
  /** The base URL it answers on, e.g. `http://127.0.0.1:4201`. */
  url: string
  port: number
  /** Stops accepting connections and resolves once open ones are closed. */
  close(): Promise<void>
}

/** Starts the HTTP server; resolves once it is listening. Port 0 picks a free port. */
export function startServer(config: ServerConfig): Promise<RunningServer> {
  const app = createApp()
  return new Promise((resolve, reject) => {
    let server: ServerType
    const onError = (error: Error) => reject(error)
    server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
      server.off('error', onError)
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()))
            if ('closeIdleConnections' in server) server.closeIdleConnections()
          }),
      })
    })
    server.once('error', onError)
  })
}
