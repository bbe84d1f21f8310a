// Page actions and routes read bounded bodies (issue 19, finding 3), and the contact form is
// rate-limited per address in the database (finding 9), over real HTTP on PGlite and PostgreSQL:
// a body over its cap is 413 before anything parses it (declared or streamed), nothing is
// stored, and the server keeps serving; N messages sent at once keep at most the hour's limit.
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { ACTION_BODY_MAX_BYTES, PAGE_BODY_MAX_BYTES, pageBodyCap } from './web.ts'

const CONTACT_LIMIT = 3

const form = (message: string) =>
  new URLSearchParams({ name: 'Ada', email: 'ada@example.com', topic: 'sales', message })

/** Streams `total` bytes as a chunked body (no Content-Length) and resolves with the status. */
function postChunked(url: string, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      },
    )
    // The server may answer and close before the whole body is sent.
    call.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error)
    })
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let sent = 0
    const more = () => {
      while (sent < total) {
        sent += chunk.length
        if (!call.write(chunk)) {
          call.once('drain', more)
          return
        }
      }
      call.end()
    }
    call.write('message=')
    more()
  })
}

describe('the body caps of pages', () => {
  it('gives the contact action a few KB and every other page the general cap', () => {
    expect(pageBodyCap('/contactus')).toBe(ACTION_BODY_MAX_BYTES['/contactus'])
    expect(pageBodyCap('/contactus.data')).toBe(ACTION_BODY_MAX_BYTES['/contactus'])
    expect(pageBodyCap('/contactus/')).toBe(ACTION_BODY_MAX_BYTES['/contactus'])
    expect(pageBodyCap('/about-us')).toBe(PAGE_BODY_MAX_BYTES)
    expect(ACTION_BODY_MAX_BYTES['/contactus']).toBeLessThanOrEqual(32 * 1024)
  })
})

describe.each<TestDatabaseKind>(['pglite', 'postgres'])('page bodies on %s', (kind) => {
  const stored = () => suite.server.services.context.repo.listContactMessages(10_000)

  const suite = useTestServer(kind, {
    TRUSTED_PROXIES: '127.0.0.1,::1',
    CONTACT_LIMIT_PER_HOUR: String(CONTACT_LIMIT),
  })

  it('answers 413 to a contact message over its cap, declared or streamed, and keeps nothing', async () => {
    const before = (await stored()).length
    const big = await fetch(`${suite.server.url}/contactus`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '192.0.2.1',
      },
      body: form('x'.repeat(1024 * 1024)),
    })
    expect(big.status).toBe(413)
    expect(await big.json()).toMatchObject({ code: 'too_large' })
    // React Router's client-side call of the same action.
    const data = await fetch(`${suite.server.url}/contactus.data`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '192.0.2.1',
      },
      body: form('x'.repeat(100 * 1024)),
    })
    expect(data.status).toBe(413)
    // 20 MB without a length: refused once the cap is passed, not after the whole body.
    expect(await postChunked(`${suite.server.url}/contactus`, 20 * 1024 * 1024)).toBe(413)
    expect((await stored()).length).toBe(before)
    const page = await fetch(`${suite.server.url}/contactus`)
    expect(page.status).toBe(200)
    await page.arrayBuffer()
  })

  it('keeps memory flat under four 100 MB contact posts at once', async () => {
    // The server runs in this process: its resident memory is ours. Sampled while the bodies
    // are sent; the bound is far below what buffering even one of them would take.
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss)
    }, 10)
    try {
      const statuses = await Promise.all(
        Array.from({ length: 4 }, () =>
          postChunked(`${suite.server.url}/contactus`, 100 * 1024 * 1024),
        ),
      )
      expect(statuses).toEqual([413, 413, 413, 413])
    } finally {
      clearInterval(sampler)
    }
    expect(peak - before).toBeLessThan(64 * 1024 * 1024)
  })

  it('caps the body of every other page route as well', async () => {
    const answer = await fetch(`${suite.server.url}/about-us`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filler: 'y'.repeat(PAGE_BODY_MAX_BYTES) }),
    })
    expect(answer.status).toBe(413)
    expect(await answer.json()).toMatchObject({ code: 'too_large' })
  })

  it('keeps at most the hour’s messages for 20 sent at once from one address', async () => {
    const before = (await stored()).length
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${suite.server.url}/contactus`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-forwarded-for': '192.0.2.50',
          },
          body: form(`Message number ${i} from one address.`),
        }).then(async (response) => {
          await response.arrayBuffer()
          return response
        }),
      ),
    )
    const kept = answers.filter((answer) => answer.status === 200)
    const refused = answers.filter((answer) => answer.status === 429)
    expect(kept).toHaveLength(CONTACT_LIMIT)
    expect(refused).toHaveLength(20 - CONTACT_LIMIT)
    expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await stored()).length - before).toBe(CONTACT_LIMIT)
    // Another address still gets through; a whole /64 is one IPv6 sender.
    const other = await fetch(`${suite.server.url}/contactus`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '192.0.2.51',
      },
      body: form('A message from somebody else.'),
    })
    expect(other.status).toBe(200)
    await other.arrayBuffer()
  })

  it('counts IPv6 senders by their /64', async () => {
    const send = (address: string) =>
      fetch(`${suite.server.url}/contactus`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': address,
        },
        body: form('A message from an IPv6 network.'),
      }).then(async (response) => {
        await response.arrayBuffer()
        return response.status
      })
    const statuses: number[] = []
    for (let i = 1; i <= CONTACT_LIMIT + 2; i++) statuses.push(await send(`2001:db8:7:8::${i}`))
    expect(statuses).toEqual([
      ...Array<number>(CONTACT_LIMIT).fill(200),
      ...Array<number>(2).fill(429),
    ])
    expect(await send('2001:db8:7:9::1')).toBe(200)
  })
})
