// Delivery through the real server: HTTP, database (PGlite and PostgreSQL), storage, engine.
import { readFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { signUrl } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES_DIR } from '../demo/seed.ts'
import {
  createSignedUrlOrganisation,
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'

async function imageOf(response: Response) {
  const data = Buffer.from(await response.arrayBuffer())
  const meta = await sharp(data).metadata()
  return { data, format: meta.format, width: meta.width, height: meta.height }
}

/** GET with the path sent exactly as written (fetch would resolve `..` and backslashes first). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = request(
      { host: url.hostname, port: url.port, path, method: 'GET', headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const headers = new Headers()
          for (const [key, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') headers.set(key, value)
          }
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers }))
        })
      },
    )
    req.on('error', reject)
    req.end()
  })
}

async function errorOf(response: Response) {
  return {
    status: response.status,
    body: (await response.json()) as { code: string; message: string },
  }
}

describe.each<TestDatabaseKind>(testDatabases('server'))('delivery on %s', (kind) => {
  let server: TestServer
  let get: (path: string, init?: RequestInit) => Promise<Response>

  beforeAll(async () => {
    server = await startTestServer(kind, { DELIVERY_HOSTS: 'cdn.test' })
    get = (path, init) => fetch(`${server.url}${path}`, init)
  })
  afterAll(async () => {
    await server?.stop()
  })

  describe('originals', () => {
    const path = '/v2/demo/original/samples/astronaut.png'

    it('serves the original bytes with an ETag', async () => {
      const response = await get(path)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/)
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400')
      const body = Buffer.from(await response.arrayBuffer())
      expect(body.equals(await readFile(join(SAMPLES_DIR, 'astronaut.png')))).toBe(true)
    })

    it('answers 304 to a matching If-None-Match', async () => {
      const etag = (await get(path)).headers.get('etag') as string
      const response = await get(path, { headers: { 'if-none-match': etag } })
      expect(response.status).toBe(304)
      expect(response.headers.get('etag')).toBe(etag)
    })

    // Issue 9 item 13: weak validators, lists and `*` answered 200 (RFC 9110 §13.1.2).
    it.each([
      ['a weak validator', (etag: string) => `W/${etag}`],
      ['a list', (etag: string) => `"other", ${etag} , W/"third"`],
      ['*', () => '*'],
    ])('answers 304 to %s in If-None-Match', async (_name, header) => {
      const etag = (await get(path)).headers.get('etag') as string
      const response = await get(path, { headers: { 'if-none-match': header(etag) } })
      expect(response.status).toBe(304)
      const derived = '/v2/demo/t.resize(w:77)/samples/horse.png'
      const derivedTag = (await get(derived)).headers.get('etag') as string
      const again = await get(derived, { headers: { 'if-none-match': header(derivedTag) } })
      expect(again.status).toBe(304)
      const other = await get(path, { headers: { 'if-none-match': '"other", W/"nope"' } })
      expect(other.status).toBe(200)
    })

    it('answers HEAD with headers and no body', async () => {
      const response = await get(path, { method: 'HEAD' })
      expect(response.status).toBe(200)
      expect(Number(response.headers.get('content-length'))).toBeGreaterThan(1000)
      expect((await response.arrayBuffer()).byteLength).toBe(0)
    })

    it('serves byte ranges', async () => {
      const whole = Buffer.from(await (await get(path)).arrayBuffer())
      const response = await get(path, { headers: { range: 'bytes=100-199' } })
      expect(response.status).toBe(206)
      expect(response.headers.get('content-range')).toBe(`bytes 100-199/${whole.length}`)
      expect(Buffer.from(await response.arrayBuffer()).equals(whole.subarray(100, 200))).toBe(true)
      const tail = await get(path, { headers: { range: 'bytes=-10' } })
      expect(Buffer.from(await tail.arrayBuffer()).equals(whole.subarray(whole.length - 10))).toBe(
        true,
      )
    })

    it('answers 416 to a range past the end', async () => {
      const response = await get(path, { headers: { range: 'bytes=99999999-' } })
      expect(response.status).toBe(416)
    })

    it('serves the v1 form without a version segment too', async () => {
      expect((await get('/v1/demo/original/samples/horse.png')).status).toBe(200)
    })
  })

  describe('transformations', () => {
    it('resizes and flips the README example', async () => {
      const response = await get('/v2/demo/t.resize(w:300)~t.flip()/samples/astronaut.png')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      const image = await imageOf(response)
      expect([image.format, image.width, image.height]).toEqual(['png', 300, 300])
    })

    it('answers the second identical request from the cache with the same ETag', async () => {
      const path = '/v2/demo/t.resize(w:123)/samples/coffee.png'
      const first = await get(path)
      const before = await (await get('/metrics')).text()
      const second = await get(path)
      const after = await (await get('/metrics')).text()
      expect(second.status).toBe(200)
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'))
      const hits = (text: string) =>
        Number(/tessera_delivery_cache_total\{result="hit"\} (\d+)/.exec(text)?.[1] ?? 0)
      expect(hits(after)).toBe(hits(before) + 1)
      expect((await imageOf(second)).width).toBe(123)
    })

    it('gives the same cache entry to the same chain written two ways', async () => {
      const a = await get('/v2/demo/t.resize(w:100)/samples/chelsea.png')
      const b = await get('/v2/demo/t.resize(h:0,w:100,f:cover)/samples/chelsea.png')
      expect(b.headers.get('etag')).toBe(a.headers.get('etag'))
    })

    it('answers 304 before doing any work', async () => {
      const path = '/v2/demo/t.blur(s:2)/samples/chelsea.png'
      const etag = (await get(path)).headers.get('etag') as string
      expect((await get(path, { headers: { 'if-none-match': etag } })).status).toBe(304)
    })

    it('converts to an explicit format', async () => {
      const response = await get('/v2/demo/t.toFormat(f:webp)/samples/horse.png')
      expect(response.headers.get('content-type')).toBe('image/webp')
      expect((await imageOf(response)).format).toBe('webp')
    })

    it('picks AVIF, then WebP, from the Accept header with f_auto, and says it varies', async () => {
      const path = '/v2/demo/t.resize(w:64)/samples/horse.png?f_auto=true'
      const avif = await get(path, { headers: { accept: 'image/avif,image/webp,*/*' } })
      expect(avif.headers.get('content-type')).toBe('image/avif')
      expect(avif.headers.get('vary')).toContain('Accept')
      const webp = await get(path, { headers: { accept: 'image/webp,*/*' } })
      expect(webp.headers.get('content-type')).toBe('image/webp')
      const plain = await get(path, { headers: { accept: '*/*' } })
      expect(plain.headers.get('content-type')).toBe('image/png')
      expect(new Set([avif, webp, plain].map((r) => r.headers.get('etag'))).size).toBe(3)
    })

    it('multiplies output size by dpr', async () => {
      const response = await get('/v2/demo/t.resize(w:100)/samples/chelsea.png?dpr=2')
      expect((await imageOf(response)).width).toBe(200)
    })

    it('expands presets, with variables and p.apply', async () => {
      const thumb = await imageOf(await get('/v2/demo/p:thumbnail/samples/coffee.png'))
      expect([thumb.width, thumb.height]).toEqual([200, 200])
      const card = await imageOf(await get('/v2/demo/p:card(w:100,h:50)/samples/coffee.png'))
      expect([card.width, card.height]).toEqual([116, 66])
      const applied = await imageOf(
        await get('/v2/demo/p.apply(n:card,w:60,h:40)/samples/coffee.png'),
      )
      expect([applied.width, applied.height]).toEqual([76, 56])
      const mixed = await imageOf(
        await get('/v2/demo/p:thumbnail~t.resize(w:50)/samples/coffee.png'),
      )
      expect(mixed.width).toBe(50)
    })

    it('merges another file, by id or by top-level path, and re-keys when that file changes', async () => {
      const { repo, storage } = server.services.context
      const demo = await repo.findOrganisationByCloudName('demo')
      const horse = await repo.findFile(demo?.id as string, 'samples/horse.png')
      const { storageKey, hash, size, format, contentType } = horse as NonNullable<typeof horse>
      const badge = await repo.upsertFile(demo?.id as string, {
        path: 'badge.png',
        name: 'badge.png',
        storageKey,
        hash,
        size,
        format,
        contentType,
      })
      const byId = await get(`/v2/demo/t.merge(i:${badge.id},g:southeast,w:50)/samples/coffee.png`)
      expect(byId.status).toBe(200)
      const merged = await imageOf(byId)
      expect([merged.width, merged.height]).toEqual([600, 400])
      const byPath = await get('/v2/demo/t.merge(i:badge.png,g:southeast,w:50)/samples/coffee.png')
      expect(byPath.status).toBe(200)
      const before = byPath.headers.get('etag')
      const other = await repo.findFile(demo?.id as string, 'samples/chelsea.png')
      await storage.put(
        'copy-of-chelsea',
        (await storage.get(other?.storageKey as string)) as Buffer,
      )
      await repo.upsertFile(demo?.id as string, {
        path: 'badge.png',
        name: 'badge.png',
        storageKey: 'copy-of-chelsea',
        hash: other?.hash as string,
        size: other?.size as number,
        format: 'png',
        contentType: 'image/png',
      })
      server.services.context.lookups.forgetFile(demo?.id as string, 'badge.png')
      const after = await get('/v2/demo/t.merge(i:badge.png,g:southeast,w:50)/samples/coffee.png')
      expect(after.headers.get('etag')).not.toBe(before)
      const missing = await get('/v2/demo/t.merge(i:nothing.png)/samples/coffee.png')
      expect(await errorOf(missing)).toMatchObject({ status: 400, body: { code: 'missing_file' } })
    })

    it('answers a slow operation with 202 and Retry-After, then 200 from the cache', async () => {
      // The demo organisation has strict transformations: its AI operations run from presets.
      const { repo } = server.services.context
      const demo = await repo.findOrganisationByCloudName('demo')
      await repo.upsertPreset(demo?.id as string, {
        name: 'square-crop',
        transformation: 'ic.crop(w:100,h:100)',
      })
      const path = '/v2/demo/p:square-crop/samples/astronaut.png'
      const first = await get(path)
      expect(first.status).toBe(202)
      expect(first.headers.get('retry-after')).toBe('1')
      expect(await first.json()).toMatchObject({ status: 'processing' })
      let response = first
      for (let attempt = 0; attempt < 100 && response.status === 202; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        response = await get(path)
      }
      expect(response.status).toBe(200)
      const image = await imageOf(response)
      expect([image.width, image.height]).toEqual([100, 100])
    })
  })

  describe('hosts, custom domains and signed URLs', () => {
    it('serves a configured delivery host whole, also without a version', async () => {
      const response = await rawGet(server.url, '/demo/t.resize(w:20)/samples/horse.png', {
        host: 'cdn.test',
      })
      expect(response.status).toBe(200)
      expect((await imageOf(response)).width).toBe(20)
      expect(
        (await rawGet(server.url, '/v2/demo/original/samples/horse.png', { host: 'cdn.test' }))
          .status,
      ).toBe(200)
    })

    it('serves a custom domain for its organisation, without a cloud name', async () => {
      const { repo } = server.services.context
      const demo = await repo.findOrganisationByCloudName('demo')
      await repo.addCustomDomain(demo?.id as string, 'img.shop.test')
      const response = await rawGet(server.url, '/v2/t.resize(w:30)/samples/horse.png', {
        host: 'img.shop.test:443',
      })
      expect(response.status).toBe(200)
      expect((await imageOf(response)).width).toBe(30)
      expect((await rawGet(server.url, '/healthz', { host: 'other.test' })).status).toBe(200)
    })

    it('requires a valid signature when the organisation asks for signed URLs', async () => {
      const { key } = await createSignedUrlOrganisation(server, `secure-${kind}`)
      const url = `${server.url}/v2/secure-${kind}/t.resize(w:16)/horse.png`
      expect((await fetch(url)).status).toBe(401)
      const signed = await signUrl(url, {
        accessKey: key.accessKey,
        token: key.secret,
        expirySeconds: 60,
      })
      const ok = await fetch(signed)
      expect(ok.status).toBe(200)
      expect((await imageOf(ok)).width).toBe(16)
      expect((await fetch(signed.replace('w:16', 'w:17'))).status).toBe(401)
      const expired = await signUrl(url, {
        accessKey: key.accessKey,
        token: key.secret,
        expirySeconds: -10,
      })
      expect(await errorOf(await fetch(expired))).toMatchObject({
        status: 401,
        body: { code: 'invalid_signature' },
      })
      // Issue 9 item 2: digits at the end of the query moved into `pbe` kept the signature
      // valid; and a parameter the server does not know is refused on a signed URL.
      const withDpr = await signUrl(`${url}?dpr=2`, {
        accessKey: key.accessKey,
        token: key.secret,
        expirySeconds: 60,
      })
      expect((await fetch(withDpr)).status).toBe(200)
      const expiry = new URL(withDpr).searchParams.get('pbe') as string
      const forged = withDpr.replace('?dpr=2&', '?dpr=&').replace(`pbe=${expiry}`, `pbe=2${expiry}`)
      expect(await errorOf(await fetch(forged))).toMatchObject({
        status: 401,
        body: { code: 'invalid_signature' },
      })
      const extra = signed.replace('?pbs=', '?v=7&pbs=')
      expect(await errorOf(await fetch(extra))).toMatchObject({
        status: 401,
        body: { code: 'invalid_signature', message: 'This URL must be signed (unknown_parameter)' },
      })
    })
  })

  describe('bad input gets a clear 4xx and the server keeps serving', () => {
    it.each<[string, number, string]>([
      ['/v2/nobody/original/a.png', 404, 'not_found'],
      ['/v2/demo/original/samples/missing.png', 404, 'not_found'],
      ['/v2/demo/zzzzzz/original/samples/astronaut.png', 404, 'not_found'],
      ['/v2/demo/t.resize(w:1/samples/astronaut.png', 400, 'invalid_transformation'],
      ['/v2/demo/t.compress/samples/astronaut.png', 400, 'invalid_transformation'],
      ['/v2/demo/zz.top()/samples/astronaut.png', 400, 'invalid_transformation'],
      ['/v2/demo/t.zoom()/samples/astronaut.png', 400, 'invalid_transformation'],
      ['/v2/demo/t.resize(w:abc)/samples/astronaut.png', 400, 'invalid_transformation'],
      ['/v2/demo/t.compress(q:101)/samples/astronaut.png', 400, 'invalid_transformation'],
      [
        `/v2/demo/${Array.from({ length: 16 }, () => 't.flip()').join('~')}/samples/horse.png`,
        400,
        'too_many_transformations',
      ],
      ['/v2/demo/t.resize(w:12000,h:12000,f:fill)/samples/horse.png', 400, 'output_too_large'],
      // Issue 9 item 13: repeated parameters and options were read silently.
      ['/v2/demo/t.resize(w:100,w:200)/samples/horse.png', 400, 'invalid_transformation'],
      ['/v2/demo/t.resize(w:100)/samples/horse.png?dpr=1&dpr=2', 400, 'illegal_query_parameter'],
      ['/v2/demo/p:nope/samples/horse.png', 400, 'transformation_error'],
      ['/v2/demo/p:retired/samples/horse.png', 400, 'transformation_error'],
      ['/v2/demo/generate.bg()/samples/horse.png', 501, 'operation_unavailable'],
      ['/v2/demo/original/samples/astronaut.png?dpr=9', 400, 'illegal_query_parameter'],
      ['/v2/demo/original/samples/astronaut.png?f_auto=maybe', 400, 'illegal_query_parameter'],
      ['/v2/demo/original/../../../etc/passwd', 400, 'invalid_path'],
      ['/v2/demo/original/samples/%2e%2e/%2e%2e/x.png', 400, 'invalid_path'],
      ['/v2/demo/original/samples%2f..%2fx.png', 400, 'invalid_path'],
      ['/v2/demo/original/samples\\..\\x.png', 400, 'bad_request'],
      ['/v2/demo/original/samples/a%ZZ.png', 400, 'invalid_path'],
      ['/v2/ab/original/a.png', 404, 'not_found'],
    ])('%s → %d %s', async (path, status, code) => {
      const response = await rawGet(server.url, path)
      expect(await errorOf(response)).toMatchObject({ status, body: { code } })
      expect(response.headers.get('content-type')).toContain('application/json')
    })

    it('names the dropped operation and the reason', async () => {
      const { body } = await errorOf(
        await get('/v2/demo/t.resize(w:300)~t.blur(s:abc)/samples/horse.png'),
      )
      expect(body.message).toBe("t.blur(s:abc): Expected a number for t.blur.s, received 'abc'")
    })

    it('answers with an error image when the client asked for an image', async () => {
      const response = await get('/v2/demo/zz.top()/samples/horse.png', {
        headers: { accept: 'image/avif,image/webp,*/*', 'sec-fetch-dest': 'image' },
      })
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toBe('image/svg+xml')
      expect(await response.text()).toContain('Error 400')
    })

    it('still serves after all that', async () => {
      expect((await get('/healthz')).status).toBe(200)
      expect((await get('/v2/demo/t.resize(w:10)/samples/horse.png')).status).toBe(200)
    })
  })
})
