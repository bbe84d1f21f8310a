// Signed uploads through the real server, driven by the real `@pixelbin/admin` SDK
// (createSignedUrl, createSignedUrlV2, uploader.upload in several parts) and by plain HTTP for
// every way a browser can get it wrong: each a clear 4xx, nothing half-stored, parts cleaned.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, expectError, multipart } from '../test-client.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

const SAMPLE = new URL('../../demo/samples/astronaut.png', import.meta.url)
const JPEG = new URL('../../demo/samples/rocket.jpg', import.meta.url)
const MAX_BYTES = 2_000_000

interface Presigned {
  url: string
  fields: Record<string, string>
}
interface SdkClient {
  assets: {
    createSignedUrl(options: Record<string, unknown>): Promise<{ s3PresignedUrl: Presigned }>
    createSignedUrlV2(options: Record<string, unknown>): Promise<{ presignedUrl: Presigned }>
  }
  uploader: { upload(options: Record<string, unknown>): Promise<Record<string, unknown>> }
}
const sdk = createRequire(import.meta.url)('@pixelbin/admin') as {
  PixelbinConfig: new (options: { domain: string; apiSecret: string }) => unknown
  PixelbinClient: new (config: unknown) => SdkClient
}

/** A multipart body (fields and one `file` part) as fetch sends it. */
function form(fields: Record<string, string>, file: Buffer, fileName = 'file') {
  const boundary = `----tessera${Math.random().toString(16).slice(2)}`
  const parts = [
    ...Object.entries(fields).map(([name, data]) => ({ name, data })),
    { name: 'file', fileName, data: file },
  ]
  return {
    body: multipart(boundary, parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

describe.each<TestDatabaseKind>(testDatabases('server'))('signed uploads on %s', (kind) => {
  let client: SdkClient
  let token: string
  let image: Buffer
  let organisationId: string

  // The SDK follows the absolute URLs the server gives: they must name this server (port 0).
  const suite = useTestServer(kind, { UPLOAD_MAX_BYTES: String(MAX_BYTES) }, { ownPublicUrl: true })

  beforeAll(async () => {
    token = await suite.server.createToken()
    client = new sdk.PixelbinClient(
      new sdk.PixelbinConfig({ domain: suite.server.url, apiSecret: token }),
    )
    image = await readFile(SAMPLE)
    const demo = await suite.server.services.context.repo.findOrganisationByCloudName('demo')
    organisationId = demo?.id as string
  })

  const repo = () => suite.server.services.context.repo
  const storage = () => suite.server.services.context.storage
  const uploadIdOf = (url: string) => new URL(url).pathname.split('/').pop() as string
  async function storedParts(url: string) {
    const keys: string[] = []
    for await (const key of storage().list(`orgs/${organisationId}/uploads/${uploadIdOf(url)}/`)) {
      keys.push(key)
    }
    return keys
  }
  async function newUrl(body: Record<string, unknown> = {}) {
    const { presignedUrl } = await client.assets.createSignedUrlV2({ path: 'signed', ...body })
    return presignedUrl
  }
  const putPart = (target: Presigned, partNumber: number, bytes: Buffer) => {
    const { body, headers } = form(target.fields, bytes)
    return fetch(`${target.url}&partNumber=${partNumber}`, { method: 'PUT', body, headers })
  }
  const completeParts = (target: Presigned, parts: unknown) =>
    fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ parts, ...target.fields }),
    })
  async function expectAnswer(response: Response, status: number, code: string) {
    const body = (await response.json()) as { code: string; message: string }
    expect(response.status, JSON.stringify(body)).toBe(status)
    expect(body.code).toBe(code)
    expect(body.message.length).toBeGreaterThan(0)
  }

  it('uploads a file larger than one chunk with the SDK uploader, and it delivers', async () => {
    const answer = await client.uploader.upload({
      file: image,
      name: 'astronaut',
      path: 'signed/sdk',
      format: 'png',
      uploadOptions: { chunkSize: 100_000, concurrency: 3 },
    })
    expect(answer).toMatchObject({ name: 'astronaut.png', path: 'signed/sdk', format: 'png' })
    expect(answer.size).toBe(image.length)
    const delivered = await fetch(answer.url as string)
    expect(delivered.status).toBe(200)
    expect(Buffer.from(await delivered.arrayBuffer()).equals(image)).toBe(true)
    // The eight parts went once the file was whole.
    const stored = await repo().findFile(organisationId, 'signed/sdk/astronaut.png')
    expect(stored?.size).toBe(image.length)
    const uploads: string[] = []
    for await (const key of storage().list(`orgs/${organisationId}/uploads/`)) uploads.push(key)
    expect(uploads).toEqual([])
  })

  it('uploads a stream with the SDK uploader too', async () => {
    const { Readable } = await import('node:stream')
    const answer = await client.uploader.upload({
      file: Readable.from([image.subarray(0, 300_000), image.subarray(300_000)]),
      name: 'streamed',
      path: 'signed/sdk',
      uploadOptions: { chunkSize: 250_000 },
    })
    expect(answer).toMatchObject({ name: 'streamed.png', size: image.length })
  })

  it('gives Pixelbin-shaped URLs (v1 and v2), and a v1 URL takes the whole file in one POST', async () => {
    const v2 = await client.assets.createSignedUrlV2({ name: 'x', path: 'signed', expiry: 60 })
    expect(v2.presignedUrl.url.startsWith(`${suite.server.url}/`)).toBe(true)
    expect(typeof v2.presignedUrl.fields).toBe('object')
    const v1 = await client.assets.createSignedUrl({ name: 'whole', path: 'signed/v1' })
    const { url, fields } = v1.s3PresignedUrl
    const { body, headers } = form(fields, image, 'astronaut.png')
    const response = await fetch(url, { method: 'POST', body, headers })
    const record = (await response.json()) as { url: string; name: string }
    expect(response.status, JSON.stringify(record)).toBe(200)
    expect(record.name).toBe('whole.png')
    expect((await fetch(record.url)).status).toBe(200)
    // The same URL again: used.
    const again = form(fields, image)
    await expectAnswer(await fetch(url, { method: 'POST', ...again }), 409, 'upload_used')
    // A v1 URL takes no parts.
    const other = (await client.assets.createSignedUrl({ name: 'p', path: 'signed' }))
      .s3PresignedUrl
    await expectAnswer(await putPart(other, 1, image), 400, 'wrong_upload_kind')
  })

  it('gives the file the access, tags and metadata its URL was made with', async () => {
    const answer = await client.uploader.upload({
      file: image,
      name: 'tagged',
      path: 'signed/fields',
      access: 'private',
      tags: ['red', 'sale'],
      metadata: { sku: 'A1' },
      uploadOptions: { chunkSize: 300_000 },
    })
    expect(answer).toMatchObject({ name: 'tagged.png', access: 'private', tags: ['red', 'sale'] })
    expect(answer.metadata).toEqual({ sku: 'A1' })
    const stored = await repo().findFile(organisationId, 'signed/fields/tagged.png')
    expect(stored).toMatchObject({ access: 'private', tags: ['red', 'sale'] })
    // A private file is delivered only through a signed URL.
    expect((await fetch(answer.url as string)).status).toBe(401)
  })

  it('answers CORS so a page on another origin can upload', async () => {
    const target = await newUrl({ name: 'cors' })
    const preflight = await fetch(target.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'PUT' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT')
  })

  it('refuses a completion without parts, out of order, with a duplicate or a missing part', async () => {
    const target = await newUrl({ name: 'bad-lists' })
    expect((await putPart(target, 1, image.subarray(0, 400_000))).status).toBe(200)
    expect((await putPart(target, 2, image.subarray(400_000))).status).toBe(200)
    await expectAnswer(await completeParts(target, []), 400, 'no_parts')
    await expectAnswer(await completeParts(target, undefined), 400, 'no_parts')
    await expectAnswer(await completeParts(target, [2, 1]), 400, 'invalid_parts')
    await expectAnswer(await completeParts(target, [1, 1, 2]), 400, 'invalid_parts')
    await expectAnswer(await completeParts(target, [1, 2, 3]), 400, 'missing_part')
    await expectAnswer(await completeParts(target, [1]), 400, 'unlisted_part')
    // Nothing was stored by the refusals: the right list still completes.
    const done = await completeParts(target, [1, 2])
    expect(done.status).toBe(200)
    expect(((await done.json()) as { size: number }).size).toBe(image.length)
    expect(await storedParts(target.url)).toEqual([])
  })

  it('resumes: a part missing at completion can still be sent, and the upload completes', async () => {
    const target = await newUrl({ name: 'resumed' })
    expect((await putPart(target, 2, image.subarray(300_000))).status).toBe(200)
    await expectAnswer(await completeParts(target, [1, 2]), 400, 'missing_part')
    expect((await putPart(target, 1, image.subarray(0, 300_000))).status).toBe(200)
    const done = await completeParts(target, [1, 2])
    expect(done.status).toBe(200)
    const file = (await done.json()) as { url: string }
    const delivered = await fetch(file.url)
    expect(Buffer.from(await delivered.arrayBuffer()).equals(image)).toBe(true)
  })

  it('refuses a part sent again with other bytes, and takes the same bytes again (a retry)', async () => {
    const target = await newUrl({ name: 'dup' })
    expect((await putPart(target, 1, image.subarray(0, 1000))).status).toBe(200)
    const retry = await putPart(target, 1, image.subarray(0, 1000))
    expect(retry.status).toBe(200)
    expect(await retry.json()).toMatchObject({ duplicate: true })
    await expectAnswer(await putPart(target, 1, image.subarray(1000, 2000)), 409, 'duplicate_part')
    expect(await storedParts(target.url)).toHaveLength(1)
  })

  it('refuses a part over the limit, parts over the total, bad part numbers and bodies', async () => {
    const target = await newUrl({ name: 'big' })
    await expectAnswer(
      await putPart(target, 1, Buffer.alloc(MAX_BYTES + 1, 1)),
      413,
      'part_too_large',
    )
    expect((await putPart(target, 1, Buffer.alloc(1_500_000, 1))).status).toBe(200)
    await expectAnswer(await putPart(target, 2, Buffer.alloc(600_000, 1)), 413, 'too_large')
    await expectAnswer(await putPart(target, 0, image.subarray(0, 10)), 400, 'invalid_field')
    await expectAnswer(await putPart(target, 10_001, image.subarray(0, 10)), 400, 'invalid_field')
    await expectAnswer(
      await fetch(target.url, {
        method: 'PUT',
        body: 'x',
        headers: { 'content-type': 'text/plain' },
      }),
      400,
      'invalid_field',
    )
    await expectAnswer(
      await fetch(`${target.url}&partNumber=3`, { method: 'PUT', body: 'x' }),
      415,
      'unsupported_media_type',
    )
    await expectAnswer(await putPart(target, 4, Buffer.alloc(0)), 400, 'empty_part')
    expect(await storedParts(target.url)).toHaveLength(1)
  })

  it('refuses a wrong signature as nothing, an expired URL, and a URL used already', async () => {
    const target = await newUrl({ name: 'used' })
    const forged = { ...target, url: target.url.replace(/signature=[^&]+/, 'signature=forged') }
    await expectAnswer(
      await putPart(forged, 1, Buffer.alloc(1_900_000, 7)),
      404,
      'upload_not_found',
    )
    expect((await putPart(target, 1, image)).status).toBe(200)
    expect((await completeParts(target, [1])).status).toBe(200)
    await expectAnswer(await completeParts(target, [1]), 409, 'upload_used')
    await expectAnswer(await putPart(target, 2, image), 409, 'upload_used')

    const late = await newUrl({ name: 'late', expiry: 1 })
    await new Promise((resolve) => setTimeout(resolve, 1100))
    // A large refused part still gets its answer (the body is read and dropped, not cut off).
    await expectAnswer(await putPart(late, 1, Buffer.alloc(1_900_000, 7)), 410, 'upload_expired')
    await expectAnswer(await completeParts(late, [1]), 410, 'upload_expired')
  })

  it('gives a taken name a few more characters with filenameOverride, the format read from the bytes', async () => {
    for (const expected of [/^twice\.png$/, /^twice_[0-9a-f]{8}\.png$/]) {
      const target = await newUrl({ name: 'twice', filenameOverride: true })
      expect((await putPart(target, 1, image)).status).toBe(200)
      const done = await completeParts(target, [1])
      expect(done.status).toBe(200)
      expect(((await done.json()) as { name: string }).name).toMatch(expected)
    }
    const taken = await newUrl({ name: 'twice' })
    expect((await putPart(taken, 1, image)).status).toBe(200)
    await expectAnswer(await completeParts(taken, [1]), 409, 'already_exists')
    expect(await storedParts(taken.url)).toEqual([])
  })

  it('refuses bytes that are not the format the URL was made for, keeping nothing', async () => {
    const target = await newUrl({ name: 'typed', format: 'jpeg' })
    expect((await putPart(target, 1, image)).status).toBe(200)
    await expectAnswer(await completeParts(target, [1]), 415, 'unexpected_type')
    expect(await repo().findFile(organisationId, 'signed/typed.png')).toBeUndefined()
    expect(await storedParts(target.url)).toEqual([])
    // A failed upload's URL is spent.
    await expectAnswer(await putPart(target, 2, image), 409, 'upload_closed')
    const jpeg = await readFile(JPEG)
    const right = await newUrl({ name: 'typed', format: 'jpeg' })
    expect((await putPart(right, 1, jpeg)).status).toBe(200)
    expect((await completeParts(right, [1])).status).toBe(200)
  })

  it('refuses bad URL requests naming the field, and calls without a token', async () => {
    const api = createTestClient(suite.server)
    const path = '/service/platform/assets/v2.0/upload/signed-url'
    for (const [body, field] of [
      [{ expiry: 0 }, 'expiry'],
      [{ expiry: 'soon' }, 'expiry'],
      [{ format: 'exe' }, 'format'],
      [{ overwrite: 'maybe' }, 'overwrite'],
      [{ access: 'world' }, 'access'],
      [{ name: 'a/b' }, 'name'],
      [{ metadata: [] }, 'metadata'],
    ] as const) {
      const answer = await api.call('POST', path, { token, body })
      expectError(answer, 400, 'invalid_field')
      expect((answer.body as { message: string }).message).toContain(field)
    }
    for (const [body, field] of [
      [{ tags: 'red' }, 'tags'],
      [{ tags: [''] }, 'tags'],
      [{ metadata: 'not json' }, 'metadata'],
    ] as const) {
      const answer = await api.call('POST', path, { token, body })
      expectError(answer, 400, 'invalid_field')
      expect((answer.body as { message: string }).message).toContain(field)
    }
    expectError(await api.call('POST', path, { body: {} }), 401, 'unauthenticated')
    // A session is not enough on the platform paths (they carry no request signature).
    const member = await api.signup()
    expectError(
      await api.call('POST', path, { cookie: member.cookie, body: {} }),
      401,
      'unauthenticated',
    )
  })

  it('makes URLs for the console under the organisation, for members only', async () => {
    const api = createTestClient(suite.server)
    const account = await api.signup()
    const other = await api.signup()
    const path = (id: string) => `/service/panel/assets/v1.0/org/${id}/upload/signed-url`
    const made = await api.call('POST', path(account.organisation._id), {
      cookie: account.cookie,
      body: { path: 'console', name: 'big' },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const target = (made.body as { presignedUrl: Presigned }).presignedUrl
    expect((await putPart(target, 1, image)).status).toBe(200)
    const done = await completeParts(target, [1])
    expect(await done.json()).toMatchObject({ orgId: account.organisation._id, name: 'big.png' })
    expectError(
      await api.call('POST', path(account.organisation._id), { cookie: other.cookie, body: {} }),
      404,
      'organisation_not_found',
    )
  })

  it('cleans the parts of abandoned uploads in housekeeping', async () => {
    const target = await newUrl({ name: 'abandoned' })
    expect((await putPart(target, 1, image.subarray(0, 5000))).status).toBe(200)
    expect((await putPart(target, 2, image.subarray(5000, 9000))).status).toBe(200)
    expect(await storedParts(target.url)).toHaveLength(2)
    const { database } = suite.server.services.context
    await database.db.execute(
      sql`update signed_uploads set expires_at = now() - interval '1 minute' where id = ${uploadIdOf(target.url)}`,
    )
    const { tasks } = await suite.server.housekeeping.runOnce()
    expect(tasks.signedUploads).toBeGreaterThanOrEqual(1)
    expect(await storedParts(target.url)).toEqual([])
    expect(await repo().findSignedUpload(uploadIdOf(target.url))).toBeUndefined()
  })
})
