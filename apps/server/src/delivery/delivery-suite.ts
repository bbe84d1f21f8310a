// Test support for the delivery suites (delivery-*.test.ts): a real server with a delivery host
// (cdn.test), requests sent with the path exactly as written, and what an answer holds.
import { request } from 'node:http'
import sharp from 'sharp'
import { afterAll, beforeAll } from 'vitest'
import { startTestServer, type TestDatabaseKind, type TestServer } from '../test-server.ts'

export async function imageOf(response: Response) {
  const data = Buffer.from(await response.arrayBuffer())
  const meta = await sharp(data).metadata()
  return { data, format: meta.format, width: meta.width, height: meta.height }
}

/** GET with the path sent exactly as written (fetch would resolve `..` and backslashes first). */
export function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = request(
      { host: url.hostname, port: url.port, path, method: 'GET', headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const headers = new Headers()
          for (const [key, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') headers.set(key, value)
          }
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers }))
        })
      },
    )
    req.on('error', reject)
    req.end()
  })
}

export async function errorOf(response: Response) {
  return {
    status: response.status,
    body: (await response.json()) as { code: string; message: string },
  }
}

/** Starts a server with the delivery host cdn.test before the suite's tests; stops it after. */
export function useDeliverySuite(kind: TestDatabaseKind) {
  let server: TestServer | undefined
  beforeAll(async () => {
    server = await startTestServer(kind, { DELIVERY_HOSTS: 'cdn.test' })
  })
  afterAll(async () => {
    await server?.stop()
  })
  const started = () => {
    if (server === undefined) throw new Error('the suite server has not started')
    return server
  }
  return {
    get server() {
      return started()
    },
    /** Fetches `path` from the server. */
    get: (path: string, init?: RequestInit) => fetch(`${started().url}${path}`, init),
  }
}
