// Hardening of the upload routes (issue 9): truncated, aborted and malformed multipart bodies,
// temporary files, the download proxy's caller, raw files and names that lie about their bytes.
// Everything goes over real HTTP to a real server on PGlite and on PostgreSQL.
import { mkdir, mkdtemp, readdir, readlink, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { Agent, createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { organisations } from '../db/schema.ts'
import { multipart } from '../test-client.ts'
import {
  filesUnder,
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'
import { MULTIPART_LIMITS } from './multipart.ts'
import { ASSETS } from './paths.ts'

const BOUNDARY = 'XYZfuzz0boundary'

// How long to wait for the server to finish what a test started (a busy machine is slow).
const SETTLE = { timeout: 20_000, interval: 50 }

const temporaries = async (root: string) =>
  (await filesUnder(root)).filter((p) => p.endsWith('.tmp'))

/** Files this process holds open below `dir` (the server runs in this process). */
async function openFilesUnder(dir: string): Promise<string[]> {
  const open: string[] = []
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '')
    if (target.startsWith(dir)) open.push(target)
  }
  return open
}

/** A deterministic generator (mulberry32), so every run sends the same bodies. */
function random(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, int: (below: number) => Math.floor(next() * below) }
}

interface Answer {
  status: number
  body: string
}

/** Sends `body` as it is (no re-encoding) and resolves with the answer; rejects on a dropped one. */
function send(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  agent?: Agent,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-length': String(body.length), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        )
        response.on('error', reject)
      },
    )
    call.on('error', reject)
    // A request the server never answers is a failure of its own, not a test time-out.
    call.setTimeout(30_000, () => call.destroy(new Error('no answer within 30 s')))
    call.end(body)
  })
}

describe.each<TestDatabaseKind>(testDatabases('server'))('upload hardening on %s', (kind) => {
  let server: TestServer
  let token: string
  let storageRoot: string
  let tiny: Buffer
  let source: Server
  let sourceBase: string
  const direct = () => `${server.url}${ASSETS}/upload/direct`
  const auth = () => ({ authorization: `Bearer ${token}` })
  const formHeaders = () => ({
    ...auth(),
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
  })

  async function demoOrganisation() {
    const organisation = await server.services.context.repo.findOrganisationByCloudName('demo')
    if (organisation === undefined) throw new Error('no demo organisation')
    return organisation
  }

  /** Stored originals on disk and the storage keys of the demo organisation's files. */
  async function storedState() {
    const organisation = await demoOrganisation()
    const files = await server.services.context.repo.listFiles(organisation.id, { limit: 100_000 })
    const onDisk = (await filesUnder(storageRoot)).filter((p) =>
      p.startsWith(`orgs/${organisation.id}/originals/`),
    )
    return { keys: files.map((file) => file.storageKey).sort(), onDisk: onDisk.sort() }
  }

  beforeAll(async () => {
    tiny = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#08f' } })
      .png()
      .toBuffer()
    const image = tiny
    source = createServer((req, res) => {
      res.writeHead(req.url === '/image.png' ? 200 : 404, { 'content-type': 'image/png' })
      res.end(req.url === '/image.png' ? image : '')
    })
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve))
    sourceBase = `http://127.0.0.1:${(source.address() as AddressInfo).port}`
    server = await startTestServer(kind, {
      UPLOAD_MAX_BYTES: String(64 * 1024),
      REMOTE_ALLOW_HOSTS: '127.0.0.1',
    })
    token = await server.createToken()
    storageRoot = server.config.storage.driver === 'local' ? server.config.storage.root : ''
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    await new Promise((resolve) => source?.close(resolve))
  })

  it('answers a body that stops before its closing boundary with 400 and keeps serving', async () => {
    const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nabc`
    const answer = await send(direct(), Buffer.from(body), formHeaders())
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'invalid_multipart' })
    // The same cut inside a part that is not the file.
    const other = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="other"; filename="b.jpg"\r\n\r\nabc`
    expect((await send(direct(), Buffer.from(other), formHeaders())).status).toBe(400)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    expect(await temporaries(storageRoot)).toEqual([])
    const state = await storedState()
    expect(state.onDisk).toEqual(state.keys)
  })

  it('answers every one of thousands of truncated and mutated multipart bodies, keeps serving and leaves nothing behind', async () => {
    const rng = random(9)
    const bases = [
      multipart(BOUNDARY, [{ name: 'file', fileName: 'fuzz.png', data: tiny }]),
      multipart(BOUNDARY, [
        { name: 'path', data: 'fuzz/a' },
        { name: 'name', data: 'one' },
        { name: 'file', fileName: 'one.png', data: tiny },
      ]),
      multipart(BOUNDARY, [
        { name: 'file', fileName: 'two.png', data: tiny },
        { name: 'overwrite', data: 'true' },
        { name: 'name', data: 'two' },
      ]),
    ]
    const mutate = (base: Buffer): Buffer => {
      const at = rng.int(base.length + 1)
      switch (rng.int(6)) {
        case 0: // truncated
          return base.subarray(0, at)
        case 1: {
          // a byte changed
          const copy = Buffer.from(base)
          if (at < copy.length) copy[at] = rng.int(256)
          return copy
        }
        case 2: // a range removed
          return Buffer.concat([base.subarray(0, at), base.subarray(at + 1 + rng.int(40))])
        case 3: // a range repeated
          return Buffer.concat([base.subarray(0, at + rng.int(60)), base.subarray(at)])
        case 4: {
          // bytes inserted: random ones, or pieces of the multipart syntax
          const pieces = ['\r\n', `--${BOUNDARY}`, '"', ';', 'filename="x.png"', '\r\n\r\n', '--']
          const insert =
            rng.next() < 0.5
              ? Buffer.from(pieces[rng.int(pieces.length)] as string)
              : Buffer.from(Array.from({ length: 1 + rng.int(16) }, () => rng.int(256)))
          return Buffer.concat([base.subarray(0, at), insert, base.subarray(at)])
        }
        default: // cut, then a byte changed
          return mutate(base.subarray(0, at))
      }
    }
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    const statuses = new Map<number, number>()
    const failures: string[] = []
    let next = 0
    // 10,000 on PGlite; PostgreSQL only records the accepted uploads differently, so a fifth of
    // that keeps the suite inside its budget on a 2-core machine. FUZZ_TOTAL overrides both.
    const total = Number(process.env.FUZZ_TOTAL ?? (kind === 'pglite' ? 10_000 : 2_000))
    const worker = async () => {
      while (next < total) {
        const index = next++
        const body = mutate(bases[index % bases.length] as Buffer)
        try {
          const answer = await send(direct(), body, formHeaders(), agent)
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
          if (answer.status < 200 || answer.status >= 500) {
            failures.push(`#${index}: ${answer.status} ${answer.body.slice(0, 200)}`)
          }
        } catch (error) {
          failures.push(
            `#${index}: no answer (${(error as Error).message}) ${JSON.stringify(body.toString('latin1'))}`,
          )
        }
      }
    }
    await Promise.all(Array.from({ length: 8 }, worker))
    agent.destroy()
    expect(failures.slice(0, 10)).toEqual([])
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(total)
    // Both good and bad bodies were among them.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0)
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    const upload = await fetch(direct(), {
      method: 'POST',
      headers: auth(),
      body: (() => {
        const form = new FormData()
        form.set('file', new Blob([tiny]), 'after-fuzz.png')
        return form
      })(),
    })
    expect(upload.status).toBe(200)
    await vi.waitFor(async () => expect(await temporaries(storageRoot)).toEqual([]), SETTLE)
    const state = await storedState()
    expect(state.onDisk).toEqual(state.keys)
  }, 600_000)

  it('closes and deletes the temporary file of an upload the client aborts', async () => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const head = Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cut.png"\r\n\r\n`,
      )
      const url = new URL(direct())
      const socket = connect(Number(url.port), url.hostname)
      await new Promise<void>((resolve) => socket.on('connect', resolve))
      socket.on('error', () => undefined)
      socket.write(
        `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${token}\r\n` +
          `content-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: 60000\r\n\r\n`,
      )
      socket.write(Buffer.concat([head, Buffer.alloc(20_000, 1)]))
      // Wait until the server has begun writing the file, then drop the connection.
      await vi.waitFor(async () => expect((await temporaries(storageRoot)).length).toBe(1), SETTLE)
      socket.destroy()
      await vi.waitFor(async () => {
        expect(await temporaries(storageRoot)).toEqual([])
        expect(await openFilesUnder(storageRoot)).toEqual([])
      }, SETTLE)
    }
    const state = await storedState()
    expect(state.onDisk).toEqual(state.keys)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })

  it('removes temporary files older than an hour in housekeeping, keeping fresh ones', async () => {
    const dir = join(storageRoot, 'orgs', 'leftover', 'originals')
    await mkdir(dir, { recursive: true })
    const stale = join(dir, '.abc.0123456789abcdef.tmp')
    const fresh = join(dir, '.def.0123456789abcdef.tmp')
    await writeFile(stale, 'left by a crash')
    await writeFile(fresh, 'being written')
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000)
    await utimes(stale, twoHoursAgo, twoHoursAgo)
    const removed = await server.housekeeping.runOnce()
    expect(removed).toMatchObject({ temporaries: 1 })
    await expect(stat(stale)).rejects.toMatchObject({ code: 'ENOENT' })
    expect((await stat(fresh)).isFile()).toBe(true)
    await rm(fresh)
  })

  it('removes a temporary file a killed process left behind when the server starts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tessera-stale-'))
    const dir = join(dataDir, 'storage', 'orgs', 'killed', 'originals')
    await mkdir(dir, { recursive: true })
    const stale = join(dir, '.upload.fedcba9876543210.tmp')
    await writeFile(stale, 'half an upload')
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000)
    await utimes(stale, twoHoursAgo, twoHoursAgo)
    const restarted = await startTestServer(kind, {}, { dataDir })
    try {
      await vi.waitFor(() => expect(stat(stale)).rejects.toMatchObject({ code: 'ENOENT' }), SETTLE)
    } finally {
      await restarted.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)

  it('refuses a body with more fields, files or parts than allowed with a clear 400', async () => {
    const fields = Array.from({ length: MULTIPART_LIMITS.fields + 1 }, (_, i) => ({
      name: `f${i}`,
      data: 'x',
    }))
    const tooMany = await send(
      direct(),
      multipart(BOUNDARY, [...fields, { name: 'file', fileName: 'many.png', data: tiny }]),
      formHeaders(),
    )
    expect(tooMany.status).toBe(400)
    expect(JSON.parse(tooMany.body)).toMatchObject({ code: 'too_many_fields' })
    const twoFiles = await send(
      direct(),
      multipart(BOUNDARY, [
        { name: 'file', fileName: 'one.png', data: tiny },
        { name: 'file', fileName: 'two.png', data: tiny },
      ]),
      formHeaders(),
    )
    expect(twoFiles.status).toBe(400)
    expect(JSON.parse(twoFiles.body)).toMatchObject({ code: 'too_many_files' })
    const longField = await send(
      direct(),
      multipart(BOUNDARY, [
        { name: 'path', data: 'a'.repeat(5000) },
        { name: 'file', fileName: 'long.png', data: tiny },
      ]),
      formHeaders(),
    )
    expect(longField.status).toBe(400)
    expect(JSON.parse(longField.body)).toMatchObject({ code: 'field_too_long' })
    expect(await temporaries(storageRoot)).toEqual([])
    const state = await storedState()
    expect(state.onDisk).toEqual(state.keys)
  })

  describe('download proxy', () => {
    const proxy = (url: string) =>
      `${server.url}${ASSETS}/proxy/download?url=${encodeURIComponent(url)}`

    it('refuses a caller without a session or token, fetching nothing', async () => {
      let fetched = 0
      source.on('request', () => fetched++)
      const response = await fetch(proxy(`${sourceBase}/image.png`))
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ code: 'unauthenticated' })
      const forged = await fetch(proxy(`${sourceBase}/image.png`), {
        headers: { authorization: 'Bearer tsk_not-a-token' },
      })
      expect(forged.status).toBe(401)
      expect(fetched).toBe(0)
    })

    it('fetches for a caller with a token', async () => {
      const response = await fetch(proxy(`${sourceBase}/image.png`), { headers: auth() })
      expect(response.status).toBe(200)
      expect(Buffer.from(await response.arrayBuffer()).equals(tiny)).toBe(true)
    })
  })

  describe('file types', () => {
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)])
    // A PDF whose document opens with JavaScript.
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    )
    const zip = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...Buffer.alloc(18)])
    const uploadOne = (data: Buffer, fileName: string, fields: Record<string, string> = {}) => {
      const form = new FormData()
      for (const [key, value] of Object.entries(fields)) form.set(key, value)
      form.set('file', new Blob([data]), fileName)
      return fetch(direct(), { method: 'POST', headers: auth(), body: form })
    }
    const setRaw = async (allow: boolean) => {
      const organisation = await demoOrganisation()
      // The settings API is another part's; the column is set as it would set it.
      await server.services.context.database.db
        .update(organisations)
        .set({ allowRawFiles: allow })
        .where(eq(organisations.id, organisation.id))
      server.services.context.lookups.forgetOrganisation(organisation)
    }

    it.each<[string, Buffer, string]>([
      ['an executable', exe, 'tool.exe'],
      ['a zip', zip, 'archive.zip'],
    ])('refuses %s with 415 when the organisation takes no raw files', async (_, data, name) => {
      const before = await storedState()
      const response = await uploadOne(data, name)
      expect(response.status).toBe(415)
      expect(await response.json()).toMatchObject({ code: 'unsupported_type' })
      expect(await storedState()).toEqual(before)
    })

    // Every organisation takes PDFs (issue 23), read by MuPDF first: this one has no page.
    it('refuses a PDF without a page (this one only opens with JavaScript) with 422', async () => {
      const before = await storedState()
      const response = await uploadOne(pdf, 'doc.pdf')
      expect(response.status).toBe(422)
      expect(await response.json()).toMatchObject({ code: 'invalid_image' })
      expect(await storedState()).toEqual(before)
    })

    it('refuses a name whose extension disagrees with the bytes', async () => {
      const before = await storedState()
      const disguised = await uploadOne(exe, 'photo.png')
      expect(disguised.status).toBe(415)
      expect(await disguised.json()).toMatchObject({ code: 'extension_mismatch' })
      const pngAsPdf = await uploadOne(tiny, 'photo.pdf')
      expect(pngAsPdf.status).toBe(415)
      expect(await pngAsPdf.json()).toMatchObject({ code: 'extension_mismatch' })
      expect(await storedState()).toEqual(before)
      // jpg and jpeg, tif and tiff name the same format; no extension is fine.
      expect((await uploadOne(tiny, 'no-extension', { name: 'plain' })).status).toBe(200)
    })

    it('stores raw files when the organisation allows them, delivered as attachments', async () => {
      await setRaw(true)
      try {
        const response = await uploadOne(zip, 'manual.zip', { name: 'manual' })
        expect(response.status).toBe(200)
        const record = (await response.json()) as { fullPath: string; url: string }
        expect(record).toMatchObject({ fullPath: 'manual.zip', assetType: 'raw', format: 'zip' })
        const delivered = await fetch(record.url.replace(server.config.publicUrl, server.url))
        expect(delivered.status).toBe(200)
        expect(delivered.headers.get('content-disposition')).toMatch(/^attachment/)
        expect(Buffer.from(await delivered.arrayBuffer()).equals(zip)).toBe(true)
        // Still no disguise: executable bytes named .png are refused.
        expect((await uploadOne(exe, 'sneaky.png')).status).toBe(415)
        // An image is still delivered inline.
        const image = await uploadOne(tiny, 'inline.png')
        const shown = await fetch(
          ((await image.json()) as { url: string }).url.replace(
            server.config.publicUrl,
            server.url,
          ),
        )
        expect(shown.headers.get('content-disposition')).toBeNull()
      } finally {
        await setRaw(false)
      }
    })
  })
})
