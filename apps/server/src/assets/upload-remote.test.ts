// Upload by URL and the download proxy through the real server: an image fetched from a remote
// host is stored, redirects to private addresses and other bad sources are refused with their
// code, and the proxy reads the type from the bytes. Direct upload: upload-direct.test.ts.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../test-suite.ts'
import { ASSETS, useUploadSuite } from './upload-suite.ts'

describeEachDatabase('server', 'asset APIs on %s', useUploadSuite, (suite) => {
  describe('upload by URL and download proxy', () => {
    const byUrl = (body: unknown) =>
      fetch(`${suite.server.url}${ASSETS}/upload/url`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.token}` },
        body: JSON.stringify(body),
      })

    it('stores an image fetched from a URL', async () => {
      const response = await byUrl({ url: `${suite.source.base}/image.png`, path: 'remote' })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({
        fullPath: 'remote/image.png',
        width: 40,
        height: 30,
      })
    })

    it.each<[string, unknown, number, string]>([
      [
        'a redirect to a private address',
        { url: 'REMOTE/to-private' },
        400,
        'remote_blocked_address',
      ],
      ['a redirect to localhost', { url: 'REMOTE/to-loopback' }, 400, 'remote_blocked_address'],
      [
        'a link-local metadata address',
        { url: 'http://169.254.169.254/latest/meta-data' },
        400,
        'remote_blocked_address',
      ],
      ['a file: URL', { url: 'file:///etc/passwd' }, 400, 'remote_invalid_url'],
      ['a missing url', { path: 'x' }, 400, 'invalid_field'],
      ['a source that is not an image', { url: 'REMOTE/page.html' }, 415, 'unsupported_type'],
      ['a source that answers 404', { url: 'REMOTE/missing' }, 502, 'remote_bad_status'],
    ])('refuses %s', async (_name, body, status, code) => {
      const request = JSON.parse(JSON.stringify(body).replace('REMOTE', suite.source.base))
      const response = await byUrl(request)
      expect(response.status).toBe(status)
      expect(await response.json()).toMatchObject({ code })
    })

    it('refuses a body that is not JSON', async () => {
      const response = await fetch(`${suite.server.url}${ASSETS}/upload/url`, {
        method: 'POST',
        headers: { authorization: `Bearer ${suite.token}` },
        body: 'url=x',
      })
      expect(await response.json()).toMatchObject({ code: 'invalid_json' })
    })

    it('proxies a download with the type read from the bytes', async () => {
      const response = await fetch(
        `${suite.server.url}${ASSETS}/proxy/download?url=${encodeURIComponent(`${suite.source.base}/image.png`)}`,
        { headers: { authorization: `Bearer ${suite.token}` } },
      )
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(40)
    })

    it('refuses to proxy a private address', async () => {
      const response = await fetch(
        `${suite.server.url}${ASSETS}/proxy/download?url=${encodeURIComponent(`${suite.source.base}/to-private`)}`,
        { headers: { authorization: `Bearer ${suite.token}` } },
      )
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'remote_blocked_address' })
    })
  })
})
