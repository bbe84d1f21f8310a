// Test support for the delivery suites (delivery-*.test.ts): a real server with a delivery host
// (cdn.test), requests sent with the path exactly as written, and what an answer holds.
import { request } from 'node:http'
import sharp from 'sharp'
import type { TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

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
  const suite = useTestServer(kind, { DELIVERY_HOSTS: 'cdn.test' })
  return {
    get server() {
      return suite.server
    },
    /** Fetches `path` from the server. */
    get: (path: string, init?: RequestInit) => fetch(`${suite.server.url}${path}`, init),
  }
}
