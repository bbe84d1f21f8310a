import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from './server.ts'

describe('the HTTP server', () => {
  let server: RunningServer

  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await server.close()
  })

  it('answers GET /healthz with 200 over real HTTP', async () => {
    const response = await fetch(`${server.url}/healthz`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
  })

  it('answers an unknown path with a JSON 404 and keeps serving', async () => {
    const response = await fetch(`${server.url}/no/such/page`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      code: 'not_found',
      message: 'No route for GET /no/such/page',
    })
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })

  it('refuses to start on a port that is taken, with the error', async () => {
    await expect(startServer({ port: server.port, host: '127.0.0.1' })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    })
  })
})
