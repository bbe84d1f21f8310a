// The asset APIs through the real server: direct upload, upload by URL, download proxy.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32, deflateSync } from 'node:zlib'
import { signRequest } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient } from '../test-client.ts'
import {
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'

const ASSETS = '/service/panel/assets/v1.0'
const MAX_BYTES = 512 * 1024

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer()
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A valid PNG of width × height grey pixels whose rows compress to almost nothing. */
function decompressionBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.writeUInt8(8, 8) // bit depth
  header.writeUInt8(0, 9) // greyscale
  // One filter byte plus `width` zero bytes per row, deflated as a stream of zeros.
  const rows = deflateSync(Buffer.alloc((width + 1) * Math.min(height, 2000)))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function form(file: Blob | undefined, fields: Record<string, string> = {}, fileName = 'photo.png') {
  const body = new FormData()
  for (const [key, value] of Object.entries(fields)) body.set(key, value)
  if (file !== undefined) body.set('file', file, fileName)
  return body
}

describe.each<TestDatabaseKind>(testDatabases('server'))('asset APIs on %s', (kind) => {
  let server: TestServer
  let source: Server
  let sourceBase: string
  let bomb: Buffer

  let token: string
  const upload = (body: FormData | string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${ASSETS}/upload/direct`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}`, ...headers },
    })

  beforeAll(async () => {
    bomb = decompressionBomb(20000, 20000)
    const image = await png(40, 30)
    source = createServer((req, res) => {
      if (req.url === '/image.png') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(image)
      } else if (req.url === '/to-private') {
        res.writeHead(302, { location: 'http://10.0.0.7/secret.png' })
        res.end()
      } else if (req.url === '/to-loopback') {
        res.writeHead(302, {
          location: `http://localhost:${(source.address() as AddressInfo).port}/image.png`,
        })
        res.end()
      } else if (req.url === '/page.html') {
        res.writeHead(200, { 'content-type': 'image/png' })
        res.end('<html><body>not an image</body></html>')
      } else {
        res.writeHead(404)
        res.end()
      }
    })
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve))
    sourceBase = `http://127.0.0.1:${(source.address() as AddressInfo).port}`
    // The test source is on loopback, so it is allow-listed by address; localhost stays blocked.
    server = await startTestServer(kind, {
      UPLOAD_MAX_BYTES: String(MAX_BYTES),
      REMOTE_ALLOW_HOSTS: '127.0.0.1',
    })
    token = await server.createToken()
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await new Promise((resolve) => source.close(resolve))
  })

  describe('who may upload, and where to', () => {
    it('refuses an upload without a session or token with 401, storing nothing', async () => {
      const before = await server.services.context.repo.listFiles(
        (await server.services.context.repo.findOrganisationByCloudName('demo'))?.id ?? '',
        { limit: 1000 },
      )
      for (const path of ['upload/direct', 'upload/url']) {
        const response = await fetch(`${server.url}${ASSETS}/${path}`, {
          method: 'POST',
          body: form(new Blob([await png(8, 8)]), { name: 'anonymous' }),
        })
        expect(response.status).toBe(401)
        expect(await response.json()).toMatchObject({ code: 'unauthenticated' })
      }
      const after = await server.services.context.repo.listFiles(
        (await server.services.context.repo.findOrganisationByCloudName('demo'))?.id ?? '',
        { limit: 1000 },
      )
      expect(after.length).toBe(before.length)
    })

    it("stores a signed-in member's upload in their organisation, or the one named by orgId", async () => {
      const client = createTestClient(server)
      const owner = await client.signup()
      const second = await client.signup()
      // `second` invites `owner`, so owner belongs to two organisations.
      const invited = await client.call(
        'POST',
        `/service/panel/organization/v1.0/${second.organisation._id}/invitations`,
        { cookie: second.cookie, body: { email: owner.email } },
      )
      await client.call('POST', '/service/panel/organization/v1.0/invitations/accept', {
        cookie: owner.cookie,
        body: { token: (invited.body as { token: string }).token },
      })
      const sendAs = async (query: string) => {
        const url = `${server.url}${ASSETS}/upload/direct${query}`
        // Multipart bodies are not covered by the signature, but a cookie call must be signed.
        const signature = await signRequest({ method: 'POST', url }, server.config.signing.key)
        return fetch(url, {
          method: 'POST',
          body: form(new Blob([await png(12, 10)]), { name: `mine-${query.length}` }),
          headers: { cookie: `bg.session=${owner.cookie}`, ...signature },
        })
      }
      const toOwn = await sendAs('')
      expect(toOwn.status).toBe(200)
      expect(await toOwn.json()).toMatchObject({ orgId: owner.organisation._id })
      const toSecond = await sendAs(`?orgId=${second.organisation._id}`)
      expect(toSecond.status).toBe(200)
      expect(await toSecond.json()).toMatchObject({ orgId: second.organisation._id })
      const delivered = await fetch(
        `${server.url}/v2/${second.organisation.cloudName}/original/mine-${`?orgId=${second.organisation._id}`.length}.png`,
      )
      expect(delivered.status).toBe(200)
      // An organisation they do not belong to is as good as missing.
      const stranger = await client.signup()
      for (const orgId of [stranger.organisation._id, 'not-a-uuid', "1' OR '1'='1"]) {
        const refused = await sendAs(`?orgId=${encodeURIComponent(orgId)}`)
        expect(refused.status).toBe(404)
        expect(await refused.json()).toMatchObject({ code: 'organisation_not_found' })
      }
    })

    it("stores a token's upload in the token's organisation only", async () => {
      const client = createTestClient(server)
      const user = await client.signup()
      const other = await server.createToken(user.organisation.cloudName)
      const response = await upload(form(new Blob([await png(10, 10)]), { name: 'by-token' }), {
        authorization: `Bearer ${other}`,
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ orgId: user.organisation._id })
      expect((await fetch(`${server.url}/v2/demo/original/by-token.png`)).status).toBe(404)
      expect(
        (await fetch(`${server.url}/v2/${user.organisation.cloudName}/original/by-token.png`))
          .status,
      ).toBe(200)
    })
  })

  describe('direct upload', () => {
    it('stores an image and answers its record with a working delivery URL', async () => {
      const response = await upload(
        form(new Blob([await png(64, 48)]), { path: 'uploads/a', name: 'blue' }),
      )
      expect(response.status).toBe(200)
      const record = (await response.json()) as Record<string, unknown>
      expect(record).toMatchObject({
        name: 'blue.png',
        path: 'uploads/a',
        fullPath: 'uploads/a/blue.png',
        format: 'png',
        contentType: 'image/png',
        width: 64,
        height: 48,
        version: 1,
        assetType: 'image',
        url: `${server.config.publicUrl}/v2/demo/original/uploads/a/blue.png`,
      })
      const delivered = await fetch(`${server.url}/v2/demo/t.resize(w:32)/uploads/a/blue.png`)
      expect(delivered.status).toBe(200)
      expect((await sharp(Buffer.from(await delivered.arrayBuffer())).metadata()).width).toBe(32)
    })

    it('takes the content type from the bytes, not from the client', async () => {
      const response = await upload(
        form(
          new Blob([await png(8, 8)], { type: 'application/pdf' }),
          { name: 'sniffed' },
          'sniffed.png',
        ),
      )
      expect(await response.json()).toMatchObject({
        format: 'png',
        contentType: 'image/png',
        name: 'sniffed.png',
      })
    })

    it('refuses to replace a file unless asked, and bumps the version when asked', async () => {
      const first = await upload(form(new Blob([await png(10, 10)]), { name: 'same' }))
      expect(first.status).toBe(200)
      const again = await upload(form(new Blob([await png(12, 12)]), { name: 'same' }))
      expect(again.status).toBe(409)
      expect(await again.json()).toMatchObject({ code: 'already_exists' })
      const replaced = await upload(
        form(new Blob([await png(12, 12)]), { name: 'same', overwrite: 'true' }),
      )
      expect(await replaced.json()).toMatchObject({ version: 2, width: 12 })
      const delivered = await fetch(`${server.url}/v2/demo/original/same.png`)
      expect((await sharp(Buffer.from(await delivered.arrayBuffer())).metadata()).width).toBe(12)
    })

    it.each<[string, () => Promise<FormData | string>, Record<string, string>, number, string]>([
      [
        'bytes that are not an image',
        async () => form(new Blob(['hello, not an image'])),
        {},
        415,
        'unsupported_type',
      ],
      [
        'a truncated JPEG',
        async () =>
          form(
            new Blob([
              (
                await sharp({
                  create: { width: 300, height: 300, channels: 3, background: '#f00' },
                })
                  .jpeg()
                  .toBuffer()
              ).subarray(0, 400),
            ]),
            {},
            'cut.jpg',
          ),
        {},
        422,
        'invalid_image',
      ],
      [
        'an SVG with a script',
        async () =>
          form(
            new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>']),
            {},
            'x.svg',
          ),
        {},
        400,
        'unsafe_svg',
      ],
      [
        'a file over the size limit',
        async () => form(new Blob([Buffer.alloc(MAX_BYTES + 10, 7)])),
        {},
        413,
        'too_large',
      ],
      [
        'a path that climbs out',
        async () => form(new Blob([await png(4, 4)]), { path: '../../etc' }),
        {},
        400,
        'invalid_path',
      ],
      [
        'a name with a backslash',
        async () => form(new Blob([await png(4, 4)]), { name: '..\\evil' }),
        {},
        400,
        'invalid_path',
      ],
      ['no file part', async () => form(undefined, { name: 'x' }), {}, 400, 'missing_file'],
      [
        'a malformed multipart body',
        async () => '--nope\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
        { 'content-type': 'multipart/form-data' },
        400,
        'invalid_multipart',
      ],
      [
        'a body that is not multipart',
        async () => '{"file":"x"}',
        { 'content-type': 'application/json' },
        415,
        'unsupported_media_type',
      ],
    ])('refuses %s', async (_name, body, headers, status, code) => {
      const response = await upload(await body(), headers)
      expect(response.status).toBe(status)
      expect(await response.json()).toMatchObject({ code })
    })

    it('refuses a decompression bomb', async () => {
      const response = await upload(form(new Blob([bomb]), { name: 'bomb' }))
      expect(response.status).toBe(422)
      expect(await response.json()).toMatchObject({ code: 'image_too_large' })
    })

    it('keeps serving after bad uploads', async () => {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    })
  })

  describe('upload by URL and download proxy', () => {
    const byUrl = (body: unknown) =>
      fetch(`${server.url}${ASSETS}/upload/url`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      })

    it('stores an image fetched from a URL', async () => {
      const response = await byUrl({ url: `${sourceBase}/image.png`, path: 'remote' })
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
      const request = JSON.parse(JSON.stringify(body).replace('REMOTE', sourceBase))
      const response = await byUrl(request)
      expect(response.status).toBe(status)
      expect(await response.json()).toMatchObject({ code })
    })

    it('refuses a body that is not JSON', async () => {
      const response = await fetch(`${server.url}${ASSETS}/upload/url`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: 'url=x',
      })
      expect(await response.json()).toMatchObject({ code: 'invalid_json' })
    })

    it('proxies a download with the type read from the bytes', async () => {
      const response = await fetch(
        `${server.url}${ASSETS}/proxy/download?url=${encodeURIComponent(`${sourceBase}/image.png`)}`,
        { headers: { authorization: `Bearer ${token}` } },
      )
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(40)
    })

    it('refuses to proxy a private address', async () => {
      const response = await fetch(
        `${server.url}${ASSETS}/proxy/download?url=${encodeURIComponent(`${sourceBase}/to-private`)}`,
        { headers: { authorization: `Bearer ${token}` } },
      )
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'remote_blocked_address' })
    })
  })
})
