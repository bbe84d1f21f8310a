// Issue 24, item 1: one origin in development. A browser opening a page at a loopback name that
// is not PUBLIC_URL's is sent to PUBLIC_URL; scripts, delivery and API calls are answered where
// they are; a public PUBLIC_URL turns the rule off. The start-up line names PUBLIC_URL.
import { request } from 'node:http'
import { createServer } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { startupMessage } from './loopback.ts'

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/** A GET to the server's port with this Host header (what a browser sends for that address). */
function get(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port, path, headers: { host, ...headers } },
      (response) => {
        response.resume()
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location }),
        )
        response.on('error', reject)
      },
    )
    sent.on('error', reject)
    sent.end()
  })
}

const NAVIGATE = { 'sec-fetch-mode': 'navigate', accept: 'text/html' }

describe.each<TestDatabaseKind>(testDatabases('server'))('the address to open on %s', (kind) => {
  let port: number

  beforeAll(async () => {
    port = await freePort()
  })
  useTestServer(
    kind,
    () => ({ PUBLIC_URL: `http://localhost:${port}` }),
    () => ({ port }),
  )

  it('sends a page opened at 127.0.0.1 to PUBLIC_URL, path and query kept', async () => {
    const answer = await get(port, `127.0.0.1:${port}`, '/console?x=1', NAVIGATE)
    expect(answer.status).toBe(307)
    expect(answer.location).toBe(`http://localhost:${port}/console?x=1`)
    const ipv6 = await get(port, `[::1]:${port}`, '/pricing', { accept: 'text/html' })
    expect(ipv6.status).toBe(307)
    expect(ipv6.location).toBe(`http://localhost:${port}/pricing`)
  })

  it('answers the page at PUBLIC_URL itself', async () => {
    // (Pages need the web build, which server suites do not make: /healthz stands for a page.)
    const answer = await get(port, `localhost:${port}`, '/healthz', NAVIGATE)
    expect(answer.status).toBe(200)
  })

  it('answers scripts, images and API clients at 127.0.0.1 where they are', async () => {
    const image = await get(port, `127.0.0.1:${port}`, '/v2/demo/original/samples/horse.png', {
      'sec-fetch-mode': 'no-cors',
    })
    expect(image.status).toBe(200)
    const api = await get(port, `127.0.0.1:${port}`, '/healthz')
    expect(api.status).toBe(200)
    const script = await get(port, `127.0.0.1:${port}`, '/service/public/apps/v1.0/dynamicApps', {
      'sec-fetch-mode': 'cors',
    })
    expect(script.status).toBe(200)
  })

  it('leaves other ports and other hosts alone', async () => {
    const otherPort = await get(port, `127.0.0.1:${port + 1}`, '/healthz', NAVIGATE)
    expect(otherPort.status).toBe(200)
    const otherHost = await get(port, `shop.example:${port}`, '/healthz', NAVIGATE)
    expect(otherHost.status).toBe(200)
  })
})

describe.each<TestDatabaseKind>(testDatabases('server'))('a public PUBLIC_URL on %s', (kind) => {
  let port: number

  beforeAll(async () => {
    port = await freePort()
  })
  useTestServer(kind, { PUBLIC_URL: 'https://img.example.com' }, () => ({ port }))

  it('redirects nothing', async () => {
    const answer = await get(port, `127.0.0.1:${port}`, '/healthz', NAVIGATE)
    expect(answer.status).toBe(200)
  })
})

describe('the start-up line', () => {
  it('names PUBLIC_URL as the address to open, and the listener when it differs', () => {
    expect(startupMessage({ publicUrl: 'http://localhost:4201' }, 'http://127.0.0.1:4201')).toBe(
      'Tessera is ready: open http://localhost:4201 (listening on http://127.0.0.1:4201)',
    )
    expect(startupMessage({ publicUrl: 'http://127.0.0.1:4201' }, 'http://127.0.0.1:4201')).toBe(
      'Tessera is ready: open http://127.0.0.1:4201',
    )
  })
})
