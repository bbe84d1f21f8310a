// The delivery fast lane (decision 010) across two processes on one PostgreSQL (only the change
// feed tells the second process of an overwrite), and its bounds: entries, bytes, variants, and
// nothing kept that began before a change. What it answers: fast-lane-answers.test.ts.
import { mkdtemp, rm } from 'node:fs/promises'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createByteCache } from '../platform/cache.ts'
import { type ServerPair, startServerPair, type TestServer } from '../test-server.ts'
import { createFastLane, type FastAnswer, MAX_VARIANTS_PER_URL } from './fast-lane.ts'
import { send, upload, widthOf } from './fast-lane-suite.ts'

describe('the fast lane across two processes on one PostgreSQL', () => {
  let pair: ServerPair
  let first: TestServer
  let second: TestServer
  let storageDir: string

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'tessera-fast-lane-'))
    // Rows trusted for an hour: only the change feed can tell the second process.
    pair = await startServerPair({ STORAGE_DIR: storageDir, LOOKUP_TTL_MS: '3600000' })
    ;({ first, second } = pair)
  }, 60_000)
  afterAll(async () => {
    await pair?.stop()
    if (storageDir !== undefined) await rm(storageDir, { recursive: true, force: true })
  })

  it('never answers old bytes after the other process overwrote the file', async () => {
    const token = await first.createToken()
    const lane = second.services.delivery.fastLane
    await upload(first, token, 'shared', 30)
    const path = '/v2/demo/t.flip()/shared.png'
    expect(await widthOf(await send(second.url, path))).toBe(30)
    await second.services.delivery.settle()
    const old = await send(second.url, path)
    let before = lane.answered
    expect((await send(second.url, path)).body.equals(old.body)).toBe(true)
    expect(lane.answered).toBe(before + 1)
    await upload(first, token, 'shared', 31)
    before = lane.answered
    const after = await send(second.url, path)
    expect(lane.answered).toBe(before)
    expect(after.headers.etag).not.toBe(old.headers.etag)
    expect(await widthOf(after)).toBe(31)
  })
})

describe('the fast lane’s bounds', () => {
  const answer = (key: string, data: Buffer, variant = ''): FastAnswer => ({
    key,
    vary: variant === '' ? [] : ['accept'],
    variant,
    organisationId: 'org',
    storageKey: key,
    data,
    headers: { etag: `"${key}"` },
    contentType: 'image/png',
    etag: `"${key}"`,
    row: { id: key, cacheKey: key },
  })

  /** A lane over a hot cache of its own (`bytes`); `keep` puts an answer in both. */
  function laneOver(limits: { maxBytes?: number; maxEntries?: number } = {}) {
    const bytes = createByteCache({ maxBytes: 1_000_000 })
    const lane = createFastLane({
      ttlMs: 60_000,
      maxBytes: limits.maxBytes ?? 1_000_000,
      ...(limits.maxEntries === undefined ? {} : { maxEntries: limits.maxEntries }),
      bytes,
      touch: () => undefined,
      countCache: () => undefined,
    })
    const keep = (item: FastAnswer) => {
      bytes.set(item.storageKey, item.data)
      lane.keep(item, lane.generation)
    }
    return { lane, bytes, keep }
  }

  it('keeps at most its entries and bytes, the least recently kept going first', () => {
    const { lane, keep } = laneOver({ maxBytes: 1000, maxEntries: 3 })
    for (let i = 0; i < 5; i++) keep(answer(`url-${i}`, Buffer.alloc(100)))
    expect([lane.entries, lane.bytes]).toEqual([3, 300])
    for (let i = 5; i < 9; i++) keep(answer(`url-${i}`, Buffer.alloc(400)))
    expect(lane.bytes).toBeLessThanOrEqual(1000)
    keep(answer('huge', Buffer.alloc(1001)))
    expect(lane.bytes).toBeLessThanOrEqual(1000)
  })

  it(`keeps at most ${MAX_VARIANTS_PER_URL} variants of one URL`, () => {
    const { lane, keep } = laneOver({ maxEntries: 10 })
    for (let i = 0; i < MAX_VARIANTS_PER_URL + 5; i++) {
      keep({ ...answer('one', Buffer.alloc(10), `accept-${i}\n`), storageKey: `one-${i}` })
    }
    expect([lane.entries, lane.bytes]).toEqual([MAX_VARIANTS_PER_URL, MAX_VARIANTS_PER_URL * 10])
  })

  it('does not keep an answer begun before a change, nor bytes the hot cache does not hold', () => {
    const { lane, bytes } = laneOver()
    const item = answer('late', Buffer.alloc(10))
    bytes.set(item.storageKey, item.data)
    const seen = lane.generation
    lane.forget({ kind: 'file', organisationId: 'org', path: 'late.png' })
    lane.keep(item, seen)
    expect(lane.entries).toBe(0)
    lane.keep({ ...item, data: Buffer.alloc(10) }, lane.generation)
    expect(lane.entries).toBe(0)
    lane.keep(item, lane.generation)
    expect(lane.entries).toBe(1)
  })

  it('remembers when a request it left to the normal path arrived, for that path to keep by', () => {
    const { lane, bytes } = laneOver()
    const incoming = new IncomingMessage(new Socket())
    incoming.method = 'GET'
    incoming.url = '/v2/demo/t.flip()/a.png'
    incoming.headers = { host: 'img.shop.test' }
    const hooks = { requestId: () => 'test', answered: () => undefined }
    const outgoing = new ServerResponse(incoming)
    expect(lane.answerRaw(incoming, outgoing, hooks)).toBe(false)
    const arrived = lane.arrivedAt(incoming)
    expect(arrived).toBe(lane.generation)
    // The custom domain changed hands while the request was being resolved.
    lane.forget({ kind: 'organisation', id: 'org', cloudName: 'demo' })
    const item = answer('img.shop.test\n/v2/demo/t.flip()/a.png', Buffer.alloc(10))
    bytes.set(item.storageKey, item.data)
    lane.keep(item, arrived as number)
    expect(lane.entries).toBe(0)
  })
})
