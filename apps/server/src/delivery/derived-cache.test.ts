// The derived-image cache's bounds through the real server (issue 9 item 3), and who may read
// /metrics (item 13): byte budget with least-recently-used eviction, no storing of oversized
// images, the per-address render limit, on PGlite and PostgreSQL.
import { networkInterfaces } from 'node:os'
import { describe, expect, it } from 'vitest'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

// 60×60 JPEG thumbnails of the astronaut are 1.7–1.9 KB: two fit in 4000 bytes, three do not.
const BUDGET = 4000
const STORE_MAX = 20_000
const RENDER_LIMIT = 7
const small = (variant: string) =>
  `/v2/demo/t.resize(w:60,h:60,f:fill)~${variant}~t.toFormat(f:jpeg)/samples/astronaut.png`

function metric(text: string, name: string): number {
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)
  if (match === null) throw new Error(`no metric ${name}`)
  return Number(match[1])
}

/** An address of this machine other than loopback, to reach the server as a remote client. */
function outsideAddress(): string {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === 'IPv4' && !entry.internal) return entry.address
    }
  }
  throw new Error('This test needs a network interface other than loopback')
}

describe.each<TestDatabaseKind>(testDatabases('server'))('derived-image cache on %s', (kind) => {
  const get = (path: string, init?: RequestInit) =>
    fetch(`http://127.0.0.1:${suite.server.port}${path}`, init)

  const suite = useTestServer(kind, {
    HOST: '0.0.0.0',
    DERIVED_CACHE_MAX_BYTES: String(BUDGET),
    DERIVED_STORE_MAX_BYTES: String(STORE_MAX),
    RENDER_LIMIT_PER_MINUTE: String(RENDER_LIMIT),
  })

  async function stored(path: string) {
    const response = await get(path)
    expect(response.status).toBe(200)
    const body = Buffer.from(await response.arrayBuffer())
    const cacheKey = (response.headers.get('etag') as string).slice(1, -1)
    await suite.server.services.delivery.settle()
    const row = await suite.server.services.context.repo.findDerived(cacheKey)
    return { body, cacheKey, row }
  }

  it('keeps the cache within its byte budget, evicting the least recently used', async () => {
    const { repo, storage } = suite.server.services.context
    const a = await stored(small('t.flip()'))
    const b = await stored(small('t.flop()'))
    expect(a.row?.size).toBe(a.body.length)
    expect(b.row).toBeDefined()
    // Using A makes B the least recently used.
    expect((await get(small('t.flip()'))).status).toBe(200)
    await suite.server.services.delivery.settle()
    const c = await stored(small('t.rotate(a:180)'))
    expect(c.row).toBeDefined()

    expect(await repo.findDerived(b.cacheKey)).toBeUndefined()
    expect(await storage.stat(b.row?.storageKey as string)).toBeUndefined()
    for (const kept of [a, c]) {
      expect(await repo.findDerived(kept.cacheKey)).toBeDefined()
      expect(await storage.stat(kept.row?.storageKey as string)).toMatchObject({
        size: kept.body.length,
      })
    }
    expect(await repo.derivedTotalBytes()).toBe(a.body.length + c.body.length)

    const metrics = await (await get('/metrics')).text()
    expect(metric(metrics, 'tessera_derived_cache_bytes')).toBe(a.body.length + c.body.length)
    expect(metric(metrics, 'tessera_derived_cache_budget_bytes')).toBe(BUDGET)
    expect(metric(metrics, 'tessera_derived_cache_evictions_total')).toBeGreaterThanOrEqual(1)
    // An evicted image is simply rendered again.
    const again = await get(small('t.flop()'))
    expect(Buffer.from(await again.arrayBuffer()).equals(b.body)).toBe(true)
  })

  it('answers a derived image larger than DERIVED_STORE_MAX_BYTES without storing it', async () => {
    const big = await stored(
      '/v2/demo/t.resize(w:400,h:400,f:fill)~t.toFormat(f:jpeg)/samples/astronaut.png',
    )
    expect(big.body.length).toBeGreaterThan(STORE_MAX)
    expect(big.row).toBeUndefined()
    const metrics = await (await get('/metrics')).text()
    expect(metric(metrics, 'tessera_derived_not_stored_total')).toBe(1)
    // Issue 19 finding 13: made again by every request, it counts at its cost, one render per
    // DERIVED_STORE_MAX_BYTES it holds (A, B, C, B again before it).
    const cost = Math.ceil(big.body.length / STORE_MAX)
    expect(cost).toBe(2)
    const { count } = await suite.server.services.context.repo.countRateEvents(
      'render:address:127.0.0.1',
      60_000,
    )
    expect(count).toBe(4 + cost)
  })

  it('limits cache misses per client address with 429 and Retry-After; hits are not limited', async () => {
    // Misses so far this minute: A, B, C, B again and the big one (two renders' worth).
    expect((await get(small('t.resize(w:50)'))).status).toBe(200)
    const limited = await get(small('t.resize(w:40)'))
    expect(limited.status).toBe(429)
    expect(await limited.json()).toMatchObject({ code: 'too_many_renders' })
    const wait = Number(limited.headers.get('retry-after'))
    expect(wait).toBeGreaterThanOrEqual(1)
    expect(wait).toBeLessThanOrEqual(60)
    // The count is in the database, where every process would see it.
    const { count } = await suite.server.services.context.repo.countRateEvents(
      'render:address:127.0.0.1',
      60_000,
    )
    expect(count).toBe(RENDER_LIMIT)
    // C was used more recently than A (evicted when B came back), so it is still a hit.
    expect((await get(small('t.rotate(a:180)'))).status).toBe(200)
    expect((await get('/v2/demo/original/samples/horse.png')).status).toBe(200)
  })

  it('serves /metrics without METRICS_TOKEN to loopback clients only', async () => {
    expect((await get('/metrics')).status).toBe(200)
    const outside = await fetch(`http://${outsideAddress()}:${suite.server.port}/metrics`)
    expect(outside.status).toBe(403)
    expect(await outside.json()).toMatchObject({ code: 'forbidden' })
  })
})

describe('/metrics with METRICS_TOKEN', () => {
  const TOKEN = 'metrics-token-0123456789'

  const suite = useTestServer('pglite', { METRICS_TOKEN: TOKEN, SEED_DEMO: 'false' })

  it('requires Authorization: Bearer <token>, also from loopback', async () => {
    const none = await fetch(`${suite.server.url}/metrics`)
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toContain('Bearer')
    const wrong = await fetch(`${suite.server.url}/metrics`, {
      headers: { authorization: 'Bearer metrics-token-0123456780' },
    })
    expect(wrong.status).toBe(401)
    const right = await fetch(`${suite.server.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(right.status).toBe(200)
    expect(await right.text()).toContain('tessera_derived_cache_budget_bytes')
  })
})
