// Hardening of the upload routes (issue 9), around the parser: the temporary file of an aborted
// upload, stale ones removed by housekeeping and at start, the download proxy's caller, raw files
// and names that lie about their bytes. (Multipart bodies: upload-hardening-multipart.test.ts.)
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { organisations } from '../db/schema.ts'
import { startTestServer } from '../test-server.ts'
import { describeEachDatabase } from '../test-suite.ts'
import { ASSETS } from './paths.ts'
import {
  BOUNDARY,
  openFilesUnder,
  SETTLE,
  temporaries,
  useUploadHardeningSuite,
} from './upload-hardening-suite.ts'

describeEachDatabase('server', 'upload hardening on %s', useUploadHardeningSuite, (suite, kind) => {
  const { direct, auth, demoOrganisation, storedState } = suite

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
        `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${suite.token}\r\n` +
          `content-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: 60000\r\n\r\n`,
      )
      socket.write(Buffer.concat([head, Buffer.alloc(20_000, 1)]))
      // Wait until the server has begun writing the file, then drop the connection.
      await vi.waitFor(
        async () => expect((await temporaries(suite.storageRoot)).length).toBe(1),
        SETTLE,
      )
      socket.destroy()
      await vi.waitFor(async () => {
        expect(await temporaries(suite.storageRoot)).toEqual([])
        expect(await openFilesUnder(suite.storageRoot)).toEqual([])
      }, SETTLE)
    }
    const state = await storedState()
    expect(state.onDisk).toEqual(state.keys)
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
  })

  it('removes temporary files older than an hour in housekeeping, keeping fresh ones', async () => {
    const dir = join(suite.storageRoot, 'orgs', 'leftover', 'originals')
    await mkdir(dir, { recursive: true })
    const stale = join(dir, '.abc.0123456789abcdef.tmp')
    const fresh = join(dir, '.def.0123456789abcdef.tmp')
    await writeFile(stale, 'left by a crash')
    await writeFile(fresh, 'being written')
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000)
    await utimes(stale, twoHoursAgo, twoHoursAgo)
    const removed = await suite.server.housekeeping.runOnce()
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

  describe('download proxy', () => {
    const proxy = (url: string) =>
      `${suite.server.url}${ASSETS}/proxy/download?url=${encodeURIComponent(url)}`

    it('refuses a caller without a session or token, fetching nothing', async () => {
      let fetched = 0
      suite.source.server.on('request', () => fetched++)
      const response = await fetch(proxy(`${suite.source.base}/image.png`))
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ code: 'unauthenticated' })
      const forged = await fetch(proxy(`${suite.source.base}/image.png`), {
        headers: { authorization: 'Bearer tsk_not-a-token' },
      })
      expect(forged.status).toBe(401)
      expect(fetched).toBe(0)
    })

    it('fetches for a caller with a token', async () => {
      const response = await fetch(proxy(`${suite.source.base}/image.png`), { headers: auth() })
      expect(response.status).toBe(200)
      expect(Buffer.from(await response.arrayBuffer()).equals(suite.tiny)).toBe(true)
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
      await suite.server.services.context.database.db
        .update(organisations)
        .set({ allowRawFiles: allow })
        .where(eq(organisations.id, organisation.id))
      suite.server.services.context.lookups.forgetOrganisation(organisation)
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
      const pngAsPdf = await uploadOne(suite.tiny, 'photo.pdf')
      expect(pngAsPdf.status).toBe(415)
      expect(await pngAsPdf.json()).toMatchObject({ code: 'extension_mismatch' })
      expect(await storedState()).toEqual(before)
      // jpg and jpeg, tif and tiff name the same format; no extension is fine.
      expect((await uploadOne(suite.tiny, 'no-extension', { name: 'plain' })).status).toBe(200)
    })

    it('stores raw files when the organisation allows them, delivered as attachments', async () => {
      await setRaw(true)
      try {
        const response = await uploadOne(zip, 'manual.zip', { name: 'manual' })
        expect(response.status).toBe(200)
        const record = (await response.json()) as { fullPath: string; url: string }
        expect(record).toMatchObject({ fullPath: 'manual.zip', assetType: 'raw', format: 'zip' })
        const delivered = await fetch(
          record.url.replace(suite.server.config.publicUrl, suite.server.url),
        )
        expect(delivered.status).toBe(200)
        expect(delivered.headers.get('content-disposition')).toMatch(/^attachment/)
        expect(Buffer.from(await delivered.arrayBuffer()).equals(zip)).toBe(true)
        // Still no disguise: executable bytes named .png are refused.
        expect((await uploadOne(exe, 'sneaky.png')).status).toBe(415)
        // An image is still delivered inline.
        const image = await uploadOne(suite.tiny, 'inline.png')
        const shown = await fetch(
          ((await image.json()) as { url: string }).url.replace(
            suite.server.config.publicUrl,
            suite.server.url,
          ),
        )
        expect(shown.headers.get('content-disposition')).toBeNull()
      } finally {
        await setRaw(false)
      }
    })
  })
})
