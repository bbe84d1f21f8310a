// The delivery fast lane (decision 010) through the real server: what it answers is what the
// normal path answers, and nothing it remembers outlives a change.
import { mkdtemp, rm } from 'node:fs/promises'
import { IncomingMessage, request, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signUrl } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createByteCache } from '../platform/cache.ts'
import {
  createSignedUrlOrganisation,
  type ServerPair,
  startServerPair,
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'
import { createFastLane, type FastAnswer, MAX_VARIANTS_PER_URL } from './fast-lane.ts'

const ASSETS = '/service/panel/assets/v1.0'

interface Answer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** A request with the target sent exactly as written, its headers as node:http read them. */
function send(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const headers: Record<string, string> = {}
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') headers[name] = value
          }
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) })
        })
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** Headers that differ between any two answers (the date, the request id, the connection). */
function comparable(answer: Answer) {
  const {
    date,
    'x-request-id': requestId,
    connection,
    'keep-alive': keepAlive,
    ...rest
  } = answer.headers
  expect(requestId).toMatch(/^[\w.-]{1,64}$/)
  return { status: answer.status, headers: rest, body: answer.body.toString('base64') }
}

async function widthOf(answer: Answer): Promise<number | undefined> {
  expect(answer.status).toBe(200)
  return (await sharp(answer.body).metadata()).width
}

async function png(width: number): Promise<Buffer> {
  return sharp({ create: { width, height: 6, channels: 3, background: '#e63' } })
    .png()
    .toBuffer()
}

async function upload(server: TestServer, token: string, name: string, width: number) {
  const body = new FormData()
  body.set('file', new Blob([await png(width)]), `${name}.png`)
  body.set('name', name)
  body.set('overwrite', 'true')
  const response = await fetch(`${server.url}${ASSETS}/upload/direct`, {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${token}` },
  })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as { fileId: string; orgId: string }
}

describe.each<TestDatabaseKind>(testDatabases('server'))('the delivery fast lane on %s', (kind) => {
  let server: TestServer
  let token: string
  const lane = () => server.services.delivery.fastLane

  /**
   * Asks for `path` until the normal path has answered it from the cache (which remembers it);
   * returns that answer.
   */
  async function warm(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    expect((await send(server.url, path, { headers })).status).toBe(200)
    await server.services.delivery.settle()
    // Whatever the lane holds goes, so this answer is surely the normal path's.
    lane().forget(undefined)
    const before = lane().answered
    const normal = await send(server.url, path, { headers })
    expect(lane().answered).toBe(before)
    return normal
  }

  /** Sends and says whether the fast lane answered. */
  async function viaLane(path: string, options: Parameters<typeof send>[2] = {}) {
    const before = lane().answered
    const answer = await send(server.url, path, options)
    return { answer, fast: lane().answered === before + 1 }
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { DELIVERY_HOSTS: 'cdn.test' })
    token = await server.createToken()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('answers a remembered hit with the same status, headers and bytes as the normal path', async () => {
    const path = '/v2/demo/t.resize(w:40)~t.flip()/samples/horse.png'
    const normal = await warm(path)
    const { answer, fast } = await viaLane(path)
    expect(fast).toBe(true)
    expect(comparable(answer)).toEqual(comparable(normal))
    const given = await viaLane(path, { headers: { 'x-request-id': 'trace-42' } })
    expect(given.fast).toBe(true)
    expect(given.answer.headers['x-request-id']).toBe('trace-42')
  })

  it('answers 304 to a matching If-None-Match as the normal path does, 200 to another', async () => {
    const path = '/v2/demo/t.resize(w:41)/samples/horse.png'
    const etag = (await warm(path)).headers.etag as string
    lane().forget(undefined)
    const normal = await viaLane(path, { headers: { 'if-none-match': etag } })
    expect([normal.fast, normal.answer.status]).toEqual([false, 304])
    await send(server.url, path)
    const matching = await viaLane(path, { headers: { 'if-none-match': `W/${etag}` } })
    expect(matching.fast).toBe(true)
    expect(comparable(matching.answer)).toEqual(comparable(normal.answer))
    const other = await viaLane(path, { headers: { 'if-none-match': '"something-else"' } })
    expect(other.fast).toBe(true)
    expect(other.answer.status).toBe(200)
    expect(other.answer.headers.etag).toBe(etag)
  })

  it('answers HEAD with the headers of the normal path and no body', async () => {
    const path = '/v2/demo/t.resize(w:42)/samples/horse.png'
    await warm(path)
    lane().forget(undefined)
    const normal = await send(server.url, path, { method: 'HEAD' })
    await send(server.url, path)
    const { answer, fast } = await viaLane(path, { method: 'HEAD' })
    expect(fast).toBe(true)
    expect(answer.body.length).toBe(0)
    expect(comparable(answer)).toEqual(comparable(normal))
  })

  it('leaves ranges and other methods to the normal path', async () => {
    const path = '/v2/demo/t.resize(w:43)/samples/horse.png'
    const normal = await warm(path)
    const ranged = await viaLane(path, { headers: { range: 'bytes=0-9' } })
    expect(ranged.fast).toBe(false)
    expect(ranged.answer.body.equals(normal.body)).toBe(true)
    const posted = await viaLane(path, { method: 'POST' })
    expect(posted.fast).toBe(false)
    expect(posted.answer.status).toBe(404)
  })

  it('keeps one answer per Accept for f_auto, and the right one for each', async () => {
    const path = '/v2/demo/t.resize(w:44)/samples/horse.png?f_auto=true'
    const webp = { accept: 'image/webp,*/*' }
    const avif = { accept: 'image/avif,image/webp,*/*' }
    await warm(path, webp)
    expect((await viaLane(path, { headers: avif })).fast).toBe(false)
    await warm(path, avif)
    await send(server.url, path, { headers: webp })
    const asWebp = await viaLane(path, { headers: webp })
    const asAvif = await viaLane(path, { headers: avif })
    expect([asWebp.fast, asAvif.fast]).toEqual([true, true])
    expect(asWebp.answer.headers['content-type']).toBe('image/webp')
    expect(asAvif.answer.headers['content-type']).toBe('image/avif')
    expect(asAvif.answer.headers.vary).toBe('Accept')
    const none = await viaLane(path)
    expect(none.fast).toBe(false)
    expect(none.answer.headers['content-type']).toBe('image/png')
  })

  it('answers per host: a delivery host and the server’s own host are apart', async () => {
    const path = '/demo/t.resize(w:45)/samples/horse.png'
    const cdn = { host: 'cdn.test' }
    const normal = await warm(path, cdn)
    const { answer, fast } = await viaLane(path, { headers: cdn })
    expect(fast).toBe(true)
    expect(comparable(answer)).toEqual(comparable(normal))
    // On the server's own host the same target is no delivery URL (the web app's).
    const own = await viaLane(path)
    expect(own.fast).toBe(false)
    expect(own.answer.headers['content-type']).not.toBe('image/png')
  })

  it('never answers the old bytes of a file overwritten or deleted meanwhile', async () => {
    const { orgId, fileId } = await upload(server, token, `swap-${kind}`, 20)
    const path = `/v2/demo/t.flip()/swap-${kind}.png`
    const first = await warm(path)
    expect((await viaLane(path)).fast).toBe(true)
    for (const width of [21, 22]) {
      await upload(server, token, `swap-${kind}`, width)
      const after = await viaLane(path)
      expect(after.fast).toBe(false)
      expect(after.answer.headers.etag).not.toBe(first.headers.etag)
      expect(await widthOf(after.answer)).toBe(width)
      await server.services.delivery.settle()
      await send(server.url, path)
      const again = await viaLane(path)
      expect(again.fast).toBe(true)
      expect(again.answer.body.equals(after.answer.body)).toBe(true)
    }
    const removed = await fetch(`${server.url}${ASSETS}/org/${orgId}/files/${fileId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(removed.status).toBe(200)
    const gone = await viaLane(path)
    expect(gone.fast).toBe(false)
    expect(gone.answer.status).toBe(404)
  })

  it('refuses a bad or revoked signature; a valid one is answered until its key goes', async () => {
    const { repo, lookups } = server.services.context
    const { organisation: secure, key } = await createSignedUrlOrganisation(
      server,
      `fast-secure-${kind}`,
    )
    const url = `${server.url}/v2/fast-secure-${kind}/t.resize(w:16)/horse.png`
    const signed = new URL(
      await signUrl(url, { accessKey: key.accessKey, token: key.secret, expirySeconds: 60 }),
    )
    const path = `${signed.pathname}${signed.search}`
    await warm(path)
    expect((await viaLane(path)).fast).toBe(true)
    const unsigned = await viaLane(new URL(url).pathname)
    expect([unsigned.fast, unsigned.answer.status]).toEqual([false, 401])
    const signature = signed.searchParams.get('pbs') as string
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`
    const forged = path.replace(signature, flipped)
    const bad = await viaLane(forged)
    expect([bad.fast, bad.answer.status]).toEqual([false, 401])
    await repo.revokeSigningKeyById(secure.id, key.id)
    await lookups.forgetSigningKeys()
    const revoked = await viaLane(path)
    expect([revoked.fast, revoked.answer.status]).toEqual([false, 401])
  })

  it('forgets an organisation’s answers when its settings change', async () => {
    const { repo, lookups } = server.services.context
    const path = '/v2/demo/t.resize(w:46)/samples/horse.png'
    await warm(path)
    expect((await viaLane(path)).fast).toBe(true)
    const demo = await repo.findOrganisationByCloudName('demo')
    await lookups.forgetOrganisation(demo as NonNullable<typeof demo>)
    expect((await viaLane(path)).fast).toBe(false)
  })
})

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
