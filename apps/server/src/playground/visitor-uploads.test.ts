// Visitor uploads over real HTTP on PGlite and PostgreSQL: an image goes into the demo's
// short-lived folder and delivery serves it (and runs an AI operation on it, counted as a render
// of the visitor's allowance); sizes, types and unsafe SVG are refused like any upload;
// malformed and cut multipart bodies leave nothing behind; the daily limit answers 429; housekeeping
// deletes uploads older than 24 h with their derived images.
import { request } from 'node:http'
import { createTestPdf } from '@tessera/media'
import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, expectError, multipart } from '../test-client.ts'
import {
  demoOrganisation,
  filesUnder,
  type TestDatabaseKind,
  testDatabases,
} from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { PUBLIC_PLAYGROUND } from './paths.ts'
import { VISITOR_UPLOADS_FOLDER } from './visitor-uploads.ts'

const UPLOADS = `${PUBLIC_PLAYGROUND}/uploads`
const BOUNDARY = 'visitorBoundary42'
const UPLOAD_LIMIT = 4
const AI_LIMIT = 2
const MAX_BYTES = 64 * 1024

interface Uploaded {
  file: { path: string; url: string; width: number; height: number; format: string; size: number }
  expiresAt: string
  remaining: { uploads: number; aiRuns: number }
}

/** Sends `body` as it is and resolves with the answer (status, parsed JSON). */
function send(
  url: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { code?: string; message?: string } & Partial<Uploaded> }> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-length': String(body.length),
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          let parsed: unknown = {}
          try {
            parsed = JSON.parse(text)
          } catch {
            parsed = { raw: text }
          }
          resolve({ status: response.statusCode ?? 0, body: parsed as never })
        })
        response.on('error', reject)
      },
    )
    call.on('error', reject)
    call.setTimeout(30_000, () => call.destroy(new Error('no answer within 30 s')))
    call.end(body)
  })
}

describe.each<TestDatabaseKind>(testDatabases('server'))('visitor uploads on %s', (kind) => {
  let png: Buffer
  const url = () => `${suite.server.url}${UPLOADS}`
  const originalOf = (path: string) => `${suite.server.url}/v2/demo/original/${encodeURI(path)}`
  const upload = (data: Buffer, fileName = 'photo.png', headers: Record<string, string> = {}) =>
    send(url(), multipart(BOUNDARY, [{ name: 'file', fileName, data }]), headers)

  const clearAllowances = async () => {
    await suite.server.services.context.database.db.execute(
      sql`delete from rate_limit_events where key like 'playground:%'`,
    )
  }
  const demo = () => demoOrganisation(suite.server)
  /** The demo's visitor-upload rows and the stored originals of the demo on disk. */
  async function stored() {
    const organisation = await demo()
    const files = await suite.server.services.context.repo.listFiles(organisation.id, {
      limit: 100_000,
    })
    const root =
      suite.server.config.storage.driver === 'local' ? suite.server.config.storage.root : ''
    const onDisk = (await filesUnder(root)).filter((p) => p.startsWith(`orgs/${organisation.id}/`))
    return {
      visitorFiles: files.filter((file) => file.path.startsWith(`${VISITOR_UPLOADS_FOLDER}/`)),
      keys: files.map((file) => file.storageKey),
      onDisk,
      temporaries: (await filesUnder(root)).filter((p) => p.endsWith('.tmp')),
    }
  }

  const suite = useTestServer(kind, {
    ANON_UPLOADS_PER_DAY: String(UPLOAD_LIMIT),
    ANON_AI_RUNS_PER_DAY: String(AI_LIMIT),
    UPLOAD_MAX_BYTES: String(MAX_BYTES),
    MAX_INPUT_PIXELS: String(1000 * 1000),
  })

  beforeAll(async () => {
    png = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c63' } })
      .png()
      .toBuffer()
  }, 120_000)

  it('keeps an image for 24 h in a folder of its own, served by delivery', async () => {
    await clearAllowances()
    const answer = await upload(png, 'My photo!.png')
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    const { file, expiresAt, remaining } = answer.body as Uploaded
    expect(file.path).toMatch(
      new RegExp(`^${VISITOR_UPLOADS_FOLDER}/[0-9a-f-]{36}/My photo-\\.png$`),
    )
    expect(file).toMatchObject({ width: 60, height: 40, format: 'png', size: png.length })
    expect(remaining).toEqual({ uploads: UPLOAD_LIMIT - 1, aiRuns: AI_LIMIT })
    const expiry = Date.parse(expiresAt) - Date.now()
    expect(expiry).toBeGreaterThan(23.9 * 3600_000)
    expect(expiry).toBeLessThanOrEqual(24 * 3600_000 + 1000)
    const original = await fetch(originalOf(file.path))
    expect(original.status).toBe(200)
    expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true)
    // Two uploads of one name land in two folders.
    const again = await upload(png, 'My photo!.png')
    expect(again.status).toBe(201)
    expect((again.body as Uploaded).file.path).not.toBe(file.path)
    expect((again.body as Uploaded).remaining.uploads).toBe(UPLOAD_LIMIT - 2)
  })

  it('keeps a PDF, whose page 1 delivery draws; plain text is not taken from visitors', async () => {
    await clearAllowances()
    const pdf = await createTestPdf([{ width: 200, height: 100, colour: [0, 128, 255] }])
    const answer = await upload(pdf, 'leaflet.pdf')
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    const { file } = answer.body as Uploaded
    expect(file).toMatchObject({ format: 'pdf', width: 417, height: 209 })
    const page = await fetch(originalOf(file.path).replace('/original/', '/t.resize(w:100)/'))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('image/png')
    const text = await upload(Buffer.from('plain words\n'), 'notes.txt')
    expect(text.status).toBe(415)
  })

  it('refuses what a direct upload refuses: too large 413, not an image 415, unsafe SVG, too many pixels', async () => {
    await clearAllowances()
    const before = await stored()
    const big = Buffer.alloc(MAX_BYTES + 1, 1)
    const tooLarge = await upload(big, 'big.png')
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body.code).toBe('too_large')
    const text = await upload(Buffer.from('just some words, not an image\n'), 'notes.txt')
    expect(text.status).toBe(415)
    expect(text.body.code).toBe('unsupported_type')
    // Visitors may upload PDFs (issue 23), read by MuPDF first: this one has no page.
    const pdf = await upload(
      Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
      'a.pdf',
    )
    expect(pdf.status).toBe(422)
    const svg = await upload(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'x.svg',
    )
    expect(svg.status).toBeGreaterThanOrEqual(400)
    expect(svg.status).toBeLessThan(500)
    const huge = await sharp({
      create: { width: 1100, height: 1100, channels: 3, background: '#000' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer()
    const pixels = await upload(huge, 'huge.png')
    expect([413, 422]).toContain(pixels.status)
    expect(pixels.body.code).toBe('image_too_large')
    const lying = await upload(png, 'photo.jpg')
    expect(lying.status).toBe(415)
    // Not multipart at all.
    const json = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(json.status).toBe(415)
    const after = await stored()
    expect(after.visitorFiles.map((f) => f.path)).toEqual(before.visitorFiles.map((f) => f.path))
    expect(after.onDisk.sort()).toEqual(before.onDisk.sort())
    // Refusals do not count against the allowance.
    const ok = await upload(png)
    expect((ok.body as Uploaded).remaining.uploads).toBe(UPLOAD_LIMIT - 1)
  })

  it('answers malformed and cut multipart bodies with 400, keeps serving and leaves nothing behind', async () => {
    await clearAllowances()
    const before = await stored()
    const whole = multipart(BOUNDARY, [{ name: 'file', fileName: 'cut.png', data: png }])
    for (const length of [10, 60, 120, Math.floor(whole.length / 2), whole.length - 8]) {
      const answer = await send(url(), whole.subarray(0, length))
      expect(answer.status, `cut at ${length}`).toBe(400)
    }
    const missing = await send(url(), multipart(BOUNDARY, [{ name: 'other', data: 'x' }]))
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('missing_file')
    const noBoundary = await send(url(), whole, { 'content-type': 'multipart/form-data' })
    expect(noBoundary.status).toBe(400)
    // A client that goes away in mid-upload.
    await new Promise<void>((resolve) => {
      const call = request(url(), {
        method: 'POST',
        headers: {
          'content-length': String(whole.length),
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
      })
      call.on('error', () => resolve())
      call.write(whole.subarray(0, whole.length - 30), () => {
        setTimeout(() => {
          call.destroy()
          resolve()
        }, 50)
      })
    })
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
    await expect
      .poll(
        async () => {
          const now = await stored()
          return { onDisk: now.onDisk.sort(), temporaries: now.temporaries }
        },
        { timeout: 20_000, interval: 50 },
      )
      .toEqual({ onDisk: before.onDisk.sort(), temporaries: [] })
    expect((await stored()).visitorFiles.length).toBe(before.visitorFiles.length)
    // None of that counted.
    expect((await upload(png)).body.remaining?.uploads).toBe(UPLOAD_LIMIT - 1)
  })

  it(`answers 429 with the daily-limit message after ${UPLOAD_LIMIT} uploads of one address`, async () => {
    await clearAllowances()
    for (let n = 1; n <= UPLOAD_LIMIT; n++) {
      const answer = await upload(png)
      expect(answer.status).toBe(201)
      expect(answer.body.remaining?.uploads).toBe(UPLOAD_LIMIT - n)
    }
    const before = await stored()
    const over = await upload(png)
    expect(over.status).toBe(429)
    expect(over.body.code).toBe('daily_limit_exceeded')
    expect(over.body.message).toMatch(/used its 4 uploads for today; try again in \d+ h\./)
    const response = await fetch(url(), {
      method: 'POST',
      body: (() => {
        const form = new FormData()
        form.append('file', new Blob([new Uint8Array(png)]), 'a.png')
        return form
      })(),
    })
    expect(response.status).toBe(429)
    const wait = Number(response.headers.get('retry-after'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(24 * 3600)
    expect((await stored()).onDisk.sort()).toEqual(before.onDisk.sort())
  })

  it('runs an AI operation on an upload once signed; only renders (cache misses) count', async () => {
    await clearAllowances()
    const client = createTestClient(suite.server)
    const { file } = (await upload(png)).body as Uploaded
    const run = `/v2/demo/ic.crop(w:20,h:20)/${file.path}`
    const sign = async () => {
      const answer = await client.call('POST', `${PUBLIC_PLAYGROUND}/sign`, { body: { url: run } })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      return answer.body as { url: string; remaining: { aiRuns: number } }
    }
    const signed = await sign()
    expect(signed.remaining.aiRuns).toBe(AI_LIMIT)
    const fetchUntilDone = async (target: string) => {
      let response = await fetch(`${suite.server.url}${target}`, {
        headers: { accept: 'image/png' },
      })
      for (let n = 0; n < 300 && response.status === 202; n++) {
        await response.arrayBuffer()
        await new Promise((resolve) => setTimeout(resolve, 100))
        response = await fetch(`${suite.server.url}${target}`, { headers: { accept: 'image/png' } })
      }
      return response
    }
    const done = await fetchUntilDone(signed.url)
    expect(done.status).toBe(200)
    expect(done.headers.get('content-type')).toMatch(/^image\//)
    // The render counted once, the polls did not.
    expect((await sign()).remaining.aiRuns).toBe(AI_LIMIT - 1)
    // The same image again is a cache hit: nothing counted.
    expect((await fetchUntilDone((await sign()).url)).status).toBe(200)
    expect((await sign()).remaining.aiRuns).toBe(AI_LIMIT - 1)
    // A second new render uses the last run; a third is refused by delivery with the limit.
    const second = (
      await client.call('POST', `${PUBLIC_PLAYGROUND}/sign`, {
        body: { url: `/v2/demo/ic.crop(w:10,h:10)/${file.path}` },
      })
    ).body as { url: string }
    expect((await fetchUntilDone(second.url)).status).toBe(200)
    const third = (
      await client.call('POST', `${PUBLIC_PLAYGROUND}/sign`, {
        body: { url: `/v2/demo/ic.crop(w:12,h:12)/${file.path}` },
      })
    ).body as { url: string; remaining: { aiRuns: number } }
    expect(third.remaining.aiRuns).toBe(0)
    const refused = await fetch(`${suite.server.url}${third.url}`, {
      headers: { accept: 'application/json' },
    })
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ code: 'daily_limit_exceeded' })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // The cached renders still answer.
    expect((await fetchUntilDone(signed.url)).status).toBe(200)
    expectError(
      await client.call('POST', `${PUBLIC_PLAYGROUND}/sign`, { body: { url: 'nope' } }),
      400,
      'not_playground_url',
    )
  })

  it('housekeeping deletes uploads older than 24 h with their derived images; newer ones stay', async () => {
    await clearAllowances()
    const old = ((await upload(png, 'old.png')).body as Uploaded).file
    const fresh = ((await upload(png, 'fresh.png')).body as Uploaded).file
    // A derived image of the old upload, to go with it.
    const derived = await fetch(`${suite.server.url}/v2/demo/t.resize(w:10)/${old.path}`)
    expect(derived.status).toBe(200)
    await suite.server.services.delivery.settle()
    const organisation = await demo()
    const { db } = suite.server.services.context.database
    await db.execute(
      sql`update files set created_at = now() - interval '25 hours' where organisation_id = ${organisation.id} and path = ${old.path}`,
    )
    const keysBefore = await stored()
    const oldRow = await suite.server.services.context.repo.findFile(organisation.id, old.path)
    expect(oldRow).toBeDefined()
    const removed = await suite.server.housekeeping.runOnce()
    expect(removed.tasks.visitorUploads).toBeGreaterThanOrEqual(1)
    expect(
      await suite.server.services.context.repo.findFile(organisation.id, old.path),
    ).toBeUndefined()
    expect(
      await suite.server.services.context.repo.findFile(organisation.id, fresh.path),
    ).toBeDefined()
    const after = await stored()
    expect(after.onDisk).not.toContain(oldRow?.storageKey)
    expect(after.onDisk.length).toBeLessThan(keysBefore.onDisk.length)
    expect((await fetch(originalOf(old.path))).status).toBe(404)
    expect((await fetch(originalOf(fresh.path))).status).toBe(200)
    // The samples are not visitor uploads: they stay, however old.
    expect((await fetch(`${suite.server.url}/v2/demo/original/samples/astronaut.png`)).status).toBe(
      200,
    )
  })
})
