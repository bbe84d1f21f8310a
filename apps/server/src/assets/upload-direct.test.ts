// The direct upload API through the real server: who may upload and into which organisation,
// what is stored and delivered, replacing a file, and every kind of bad upload refused with its
// code. Upload by URL and the download proxy: upload-remote.test.ts.
import { signRequest } from '@tessera/url'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createTestClient } from '../test-client.ts'
import { describeEachDatabase } from '../test-suite.ts'
import { ASSETS, form, MAX_BYTES, png, useUploadSuite } from './upload-suite.ts'

describeEachDatabase('server', 'asset APIs on %s', useUploadSuite, (suite) => {
  const { upload } = suite

  describe('who may upload, and where to', () => {
    it('refuses an upload without a session or token with 401, storing nothing', async () => {
      const before = await suite.server.services.context.repo.listFiles(
        (await suite.server.services.context.repo.findOrganisationByCloudName('demo'))?.id ?? '',
        { limit: 1000 },
      )
      for (const path of ['upload/direct', 'upload/url']) {
        const response = await fetch(`${suite.server.url}${ASSETS}/${path}`, {
          method: 'POST',
          body: form(new Blob([await png(8, 8)]), { name: 'anonymous' }),
        })
        expect(response.status).toBe(401)
        expect(await response.json()).toMatchObject({ code: 'unauthenticated' })
      }
      const after = await suite.server.services.context.repo.listFiles(
        (await suite.server.services.context.repo.findOrganisationByCloudName('demo'))?.id ?? '',
        { limit: 1000 },
      )
      expect(after.length).toBe(before.length)
    })

    it("stores a signed-in member's upload in their organisation, or the one named by orgId", async () => {
      const client = createTestClient(suite.server)
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
        const url = `${suite.server.url}${ASSETS}/upload/direct${query}`
        // Multipart bodies are not covered by the signature, but a cookie call must be signed.
        const signature = await signRequest(
          { method: 'POST', url },
          suite.server.config.signing.key,
        )
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
        `${suite.server.url}/v2/${second.organisation.cloudName}/original/mine-${`?orgId=${second.organisation._id}`.length}.png`,
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
      const client = createTestClient(suite.server)
      const user = await client.signup()
      const other = await suite.server.createToken(user.organisation.cloudName)
      const response = await upload(form(new Blob([await png(10, 10)]), { name: 'by-token' }), {
        authorization: `Bearer ${other}`,
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ orgId: user.organisation._id })
      expect((await fetch(`${suite.server.url}/v2/demo/original/by-token.png`)).status).toBe(404)
      expect(
        (await fetch(`${suite.server.url}/v2/${user.organisation.cloudName}/original/by-token.png`))
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
        url: `${suite.server.config.publicUrl}/v2/demo/original/uploads/a/blue.png`,
      })
      const delivered = await fetch(`${suite.server.url}/v2/demo/t.resize(w:32)/uploads/a/blue.png`)
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
      const delivered = await fetch(`${suite.server.url}/v2/demo/original/same.png`)
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
      const response = await upload(form(new Blob([suite.bomb]), { name: 'bomb' }))
      expect(response.status).toBe(422)
      expect(await response.json()).toMatchObject({ code: 'image_too_large' })
    })

    it('keeps serving after bad uploads', async () => {
      expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
    })
  })
})
