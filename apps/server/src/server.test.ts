import { describe, expect, it } from 'vitest'
import { defaultTestDatabase } from './test-server.ts'
import { useTestServer } from './test-suite.ts'

describe('the HTTP server', () => {
  const suite = useTestServer(defaultTestDatabase())

  it('answers GET /healthz with 200 over real HTTP', async () => {
    const response = await fetch(`${suite.server.url}/healthz`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
  })

  it('answers /readyz with the state of the database and storage', async () => {
    const response = await fetch(`${suite.server.url}/readyz`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok' })
  })

  it('serves Prometheus metrics with request counts', async () => {
    await fetch(`${suite.server.url}/healthz`)
    const response = await fetch(`${suite.server.url}/metrics`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/plain')
    const text = await response.text()
    expect(text).toMatch(
      /tessera_http_requests_total\{method="GET",route="healthz",status="200"\} \d+/,
    )
    expect(text).toContain('tessera_http_request_duration_seconds_bucket')
  })

  it('gives every answer a request id, keeping a sane one the client sent', async () => {
    const own = await fetch(`${suite.server.url}/healthz`, {
      headers: { 'x-request-id': 'abc-123' },
    })
    expect(own.headers.get('x-request-id')).toBe('abc-123')
    const made = await fetch(`${suite.server.url}/healthz`, {
      headers: { 'x-request-id': 'bad id <>' },
    })
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers an unknown path with a JSON 404 and keeps serving', async () => {
    const response = await fetch(`${suite.server.url}/service/no/such/page`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      code: 'not_found',
      message: 'No route for GET /service/no/such/page',
    })
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
  })

  it('refuses to start on a port that is taken', async () => {
    const { startServer } = await import('./server.ts')
    await expect(
      startServer(
        { ...suite.server.config, port: suite.server.port },
        { databaseDir: 'memory://' },
      ),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' })
  })
})
