// Test support: a test's own HTTP server on loopback (a remote image host, a webhook receiver, a
// captcha or key-set stand-in), started on a free port of 127.0.0.1 and closed after. It imports
// nothing of the server, so unit tests use it as cheaply as the server suites.
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, with no slash at the end. */
  readonly base: string
  readonly port: number
  readonly server: Server
  /** Stops listening; resolves once the open connections have ended. */
  close: () => Promise<void>
}

/**
 * Starts `handler` on a free port of 127.0.0.1. A server under test fetches from it only when
 * its `REMOTE_ALLOW_HOSTS` lists 127.0.0.1 (loopback is otherwise refused).
 */
export async function startLoopbackServer(handler: RequestListener): Promise<LoopbackServer> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * `startLoopbackServer(handler)` before the suite's tests, closed after them; its fields are
 * read in the tests (and in `handler`, which answers only once it listens).
 */
export function useLoopbackHost(handler: RequestListener): LoopbackServer {
  let host: LoopbackServer | undefined
  const started = () => {
    if (host === undefined) throw new Error('the loopback host listens once the suite starts')
    return host
  }
  beforeAll(async () => {
    host = await startLoopbackServer(handler)
  })
  afterAll(async () => {
    await host?.close()
  })
  return {
    get base() {
      return started().base
    },
    get port() {
      return started().port
    },
    get server() {
      return started().server
    },
    close: () => started().close(),
  }
}
