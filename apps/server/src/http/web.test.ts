// The pages' in-process API calls (createLocalFetch): they keep the visitor's request id, are
// counted apart in metrics, and no client can pass for one.
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../app.ts'
import { buildOpenApiDocument } from '../openapi.ts'
import { defaultTestDatabase } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { createLocalFetch } from './web.ts'

const PLANS = '/service/panel/billing/v1.0/plans'

describe('in-process calls of the pages', () => {
  let local: ReturnType<typeof createLocalFetch>
  let hono: () => Parameters<typeof createLocalFetch>[0]

  const suite = useTestServer(defaultTestDatabase())

  beforeAll(async () => {
    const openApi = buildOpenApiDocument({
      publicUrl: suite.server.url,
      appSlug: 'background-remover',
      predictionId: 'erase_bg',
    })
    const app = createApp(suite.server.services.context, {
      delivery: suite.server.services.delivery,
      features: suite.server.services.features,
      openApi: () => openApi,
    })
    local = createLocalFetch(app)
    hono = () => app
  })

  const internalPlanCalls = async () => {
    const text = await (await fetch(`${suite.server.url}/metrics`)).text()
    const line = text
      .split('\n')
      .find((row) => row.startsWith('tessera_http_requests_total{') && row.includes(PLANS_LABEL))
    return line === undefined ? 0 : Number(line.split(' ').at(-1))
  }
  const PLANS_LABEL = 'route="internal:billing"'

  it('answers under the request id of the visit that made them', async () => {
    const answer = await local.asVisitor('visit-42', () =>
      local.localFetch(new Request(`${suite.server.url}${PLANS}`)),
    )
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-request-id')).toBe('visit-42')
    expect((await answer.json()) as { items: unknown[] }).toHaveProperty('items')
  })

  it('counts them under internal: in metrics, and never a call over the network', async () => {
    const before = await internalPlanCalls()
    await local.asVisitor('visit-43', () =>
      local.localFetch(new Request(`${suite.server.url}${PLANS}`)),
    )
    expect(await internalPlanCalls()).toBe(before + 1)
    // Whatever a client sends, a call over HTTP is a client's call.
    const outside = await fetch(`${suite.server.url}${PLANS}`, {
      headers: { 'x-request-id': 'visit-43' },
    })
    expect(outside.status).toBe(200)
    expect(await internalPlanCalls()).toBe(before + 1)
  })

  it('writes a failure a page gives up on to the log, under the request id of the visit', () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    // pino writes to a plain stream synchronously, so the line is there on return.
    const logged = createLocalFetch(hono(), pino(sink))
    logged.asVisitor('visit-44', () =>
      logged.log('The plans could not be loaded', { err: new TypeError('fetch failed') }),
    )
    expect(lines).toHaveLength(1)
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>
    expect(line).toMatchObject({
      level: 50,
      requestId: 'visit-44',
      msg: 'The plans could not be loaded',
      err: { type: 'TypeError', message: 'fetch failed' },
    })
  })
})
