// The edge every answer shares (edge.ts): a page's in-process calls carry the visitor's address
// and write no log line of their own; a client's request gets its request id and one line.
import { Writable } from 'node:stream'
import { Hono } from 'hono'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from '../context.ts'
import { createMetrics } from '../platform/metrics.ts'
import { createEdge, requestIdOf } from './edge.ts'
import { clientAddress } from './request.ts'
import { createLocalFetch } from './web.ts'

function appBehindTheEdge() {
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>)
      done()
    },
  })
  const metrics = createMetrics()
  const edge = createEdge({
    config: { publicUrl: 'http://localhost:4201', trustedProxies: [] },
    logger: pino(sink),
    metrics,
  })
  const hono = new Hono<AppEnv>()
  hono.use(edge.middleware)
  hono.get('/who', (c) => c.text(clientAddress(c)))
  return { hono, lines, metrics, requests: () => lines.filter((line) => line.msg === 'request') }
}

describe('the edge', () => {
  it("hands a page's in-process call the address of the visitor whose page made it", async () => {
    const { hono } = appBehindTheEdge()
    const local = createLocalFetch(hono)
    const answer = await local.asVisitor(
      'visit-1',
      () => local.localFetch(new Request('http://localhost/who')),
      '203.0.113.7',
    )
    expect(await answer.text()).toBe('203.0.113.7')
    expect(answer.headers.get('x-request-id')).toBe('visit-1')
  })

  it('writes no log line for an in-process call, and counts it under internal:', async () => {
    const { hono, requests, metrics } = appBehindTheEdge()
    const local = createLocalFetch(hono)
    await local.asVisitor('visit-2', () => local.localFetch(new Request('http://localhost/who')))
    expect(requests()).toEqual([])
    expect(await metrics.registry.metrics()).toContain('route="internal:other"')
  })

  it("writes one line under the request id of a client's request", async () => {
    const { hono, requests } = appBehindTheEdge()
    const answer = await hono.request('/who', { headers: { 'x-request-id': 'client-3' } })
    expect(answer.headers.get('x-request-id')).toBe('client-3')
    expect(requests()).toEqual([
      expect.objectContaining({ requestId: 'client-3', method: 'GET', path: '/who', status: 200 }),
    ])
  })

  it('keeps a well-formed request id and replaces any other', () => {
    expect(requestIdOf('abc-1.2_3')).toBe('abc-1.2_3')
    expect(requestIdOf('no spaces')).not.toBe('no spaces')
    expect(requestIdOf(['a', 'b'])).toMatch(/^[0-9a-f-]{36}$/)
    expect(requestIdOf(undefined)).toMatch(/^[0-9a-f-]{36}$/)
  })
})
