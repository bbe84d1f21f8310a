// Delivery through the real server, where and to whom: a configured delivery host, a custom
// domain, signed URLs, and bad input answered with a clear 4xx while the server keeps serving.
// Originals and transformations: delivery-originals.test.ts.
import { describe, expect, it } from 'vitest'
import { createSignedUrlOrganisation, signWithKey } from '../test-server.ts'
import { describeEachDatabase } from '../test-suite.ts'
import { errorOf, imageOf, rawGet, useDeliverySuite } from './delivery-suite.ts'

describeEachDatabase('server', 'delivery on %s', useDeliverySuite, (suite, kind) => {
  const { get } = suite

  describe('hosts, custom domains and signed URLs', () => {
    it('serves a configured delivery host whole, also without a version', async () => {
      const response = await rawGet(suite.server.url, '/demo/t.resize(w:20)/samples/horse.png', {
        host: 'cdn.test',
      })
      expect(response.status).toBe(200)
      expect((await imageOf(response)).width).toBe(20)
      expect(
        (
          await rawGet(suite.server.url, '/v2/demo/original/samples/horse.png', {
            host: 'cdn.test',
          })
        ).status,
      ).toBe(200)
    })

    it('serves a custom domain for its organisation, without a cloud name', async () => {
      const { repo } = suite.server.services.context
      const demo = await repo.findOrganisationByCloudName('demo')
      await repo.addCustomDomain(demo?.id as string, 'img.shop.test')
      const response = await rawGet(suite.server.url, '/v2/t.resize(w:30)/samples/horse.png', {
        host: 'img.shop.test:443',
      })
      expect(response.status).toBe(200)
      expect((await imageOf(response)).width).toBe(30)
      expect((await rawGet(suite.server.url, '/healthz', { host: 'other.test' })).status).toBe(200)
    })

    it('requires a valid signature when the organisation asks for signed URLs', async () => {
      const { key } = await createSignedUrlOrganisation(suite.server, `secure-${kind}`)
      const url = `${suite.server.url}/v2/secure-${kind}/t.resize(w:16)/horse.png`
      expect((await fetch(url)).status).toBe(401)
      const signed = await signWithKey(url, key)
      const ok = await fetch(signed)
      expect(ok.status).toBe(200)
      expect((await imageOf(ok)).width).toBe(16)
      expect((await fetch(signed.replace('w:16', 'w:17'))).status).toBe(401)
      const expired = await signWithKey(url, key, -10)
      expect(await errorOf(await fetch(expired))).toMatchObject({
        status: 401,
        body: { code: 'invalid_signature' },
      })
      // Issue 9 item 2: digits at the end of the query moved into `pbe` kept the signature
      // valid; and a parameter the server does not know is refused on a signed URL.
      const withDpr = await signWithKey(`${url}?dpr=2`, key)
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
      const response = await rawGet(suite.server.url, path)
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
