// Delivery through the real server (HTTP, database, storage, engine), what it answers: originals
// with their validators, HEAD and ranges, and transformations (the cache, formats by Accept, dpr,
// presets, merged files, slow operations). Hosts, signed URLs and bad input:
// delivery-hosts.test.ts.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SAMPLES_DIR } from '../demo/seed.ts'
import { describeEachDatabase } from '../test-suite.ts'
import { errorOf, imageOf, useDeliverySuite } from './delivery-suite.ts'

describeEachDatabase('server', 'delivery on %s', useDeliverySuite, (suite) => {
  const { get } = suite

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

    it('answers WebP, not AVIF, with f_auto for an output over 1,200 px on its longer side', async () => {
      const accept = { headers: { accept: 'image/avif,image/webp,*/*' } }
      const at = async (path: string) => {
        const response = await get(path, accept)
        const image = await imageOf(response)
        return [response.headers.get('content-type'), image.format, image.width]
      }
      const fill = (width: number) => `t.resize(w:${width},h:24,f:fill)`
      expect(await at(`/v2/demo/${fill(1200)}/samples/horse.png?f_auto=true`)).toEqual([
        'image/avif',
        'heif',
        1200,
      ])
      expect(await at(`/v2/demo/${fill(1201)}/samples/horse.png?f_auto=true`)).toEqual([
        'image/webp',
        'webp',
        1201,
      ])
      // The side counts after dpr, as the engine draws it.
      expect(await at(`/v2/demo/${fill(700)}/samples/horse.png?f_auto=true&dpr=2`)).toEqual([
        'image/webp',
        'webp',
        1400,
      ])
      // Asked by name, AVIF is answered at any size.
      const named = await get(`/v2/demo/${fill(1201)}~t.toFormat(f:avif)/samples/horse.png`)
      expect(named.headers.get('content-type')).toBe('image/avif')
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
      const { repo, storage } = suite.server.services.context
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
      suite.server.services.context.lookups.forgetFile(demo?.id as string, 'badge.png')
      const after = await get('/v2/demo/t.merge(i:badge.png,g:southeast,w:50)/samples/coffee.png')
      expect(after.headers.get('etag')).not.toBe(before)
      const missing = await get('/v2/demo/t.merge(i:nothing.png)/samples/coffee.png')
      expect(await errorOf(missing)).toMatchObject({ status: 400, body: { code: 'missing_file' } })
    })

    it('answers a slow operation with 202 and Retry-After, then 200 from the cache', async () => {
      // The demo organisation has strict transformations: its AI operations run from presets.
      const { repo } = suite.server.services.context
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
})
