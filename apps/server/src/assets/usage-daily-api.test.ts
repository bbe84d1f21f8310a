// Usage over time through the real server (issue 24, item 4): delivery answers (the routed path
// and the fast lane's), their bytes and renders are counted per organisation and day and read
// back over the API with every day of the range; bad ranges are a 400; another organisation's
// usage is a 404.
import { describe, expect, it } from 'vitest'
import { utcDay } from '../platform/usage-meter.ts'
import { expectError } from '../test-client.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { DEMO_HORSE, useTestServer } from '../test-suite.ts'

const ASSETS = '/service/panel/assets/v1.0/org'

interface Series {
  from: string
  to: string
  days: { day: string; requests: number; bytes: number; renders: number; aiRuns: number }[]
  totals: { requests: number; bytes: number; renders: number; aiRuns: number; credits: number }
}

describe.each<TestDatabaseKind>(testDatabases('server'))('usage per day on %s', (kind) => {
  const suite = useTestServer(kind, {}, { owner: { files: { 'horse.png': DEMO_HORSE } } })

  const daily = (query = '', account = suite.owner) =>
    suite.call('GET', `${ASSETS}/${suite.owner.organisation._id}/usage/daily${query}`, {
      cookie: account.cookie,
    })

  it('counts delivery answers, their bytes and renders, the fast lane included', async () => {
    const { base } = suite
    let bytes = 0
    let requests = 0
    const get = async (path: string) => {
      const answer = await fetch(`${base}${path}`)
      expect(answer.status).toBe(200)
      bytes += (await answer.arrayBuffer()).byteLength
      requests += 1
    }
    await get('/original/horse.png')
    await get('/t.resize(w:30)/horse.png')
    // Stored: the next answer is a cache hit the fast lane remembers, the one after is its own.
    await suite.server.services.delivery.settle()
    await get('/t.resize(w:30)/horse.png')
    await get('/t.resize(w:30)/horse.png')
    await get('/t.resize(w:31)/horse.png')
    expect(suite.server.services.delivery.fastLane.answered).toBeGreaterThan(0)
    const head = await fetch(`${base}/t.resize(w:30)/horse.png`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    requests += 1
    // Another organisation's deliveries count for it only.
    await fetch(`${suite.server.url}/v2/demo/original/samples/horse.png`)

    const answer = await daily()
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const series = answer.body as Series
    const today = utcDay()
    expect(series.to).toBe(today)
    expect(series.days).toHaveLength(30)
    expect(series.days.at(-1)).toMatchObject({ day: today, requests, bytes, renders: 2 })
    expect(series.totals).toMatchObject({ requests, bytes, renders: 2, aiRuns: 0 })
  })

  it('answers a chosen range, every day present', async () => {
    const answer = await daily('?from=2026-01-30&to=2026-02-02')
    expect(answer.status).toBe(200)
    expect((answer.body as Series).days.map((day) => day.day)).toEqual([
      '2026-01-30',
      '2026-01-31',
      '2026-02-01',
      '2026-02-02',
    ])
  })

  it('refuses ranges that are not dates, reversed or too long', async () => {
    for (const query of [
      '?from=yesterday',
      '?from=2026-02-30&to=2026-03-01',
      '?from=2026-03-02&to=2026-03-01',
      '?from=2020-01-01&to=2026-01-01',
      '?to=2026-1-1',
    ]) {
      expectError(await daily(query), 400, 'invalid_query')
    }
  })

  it('is invisible to another organisation', async () => {
    const other = await suite.client.signup()
    expect((await daily('', other)).status).toBe(404)
  })
})
