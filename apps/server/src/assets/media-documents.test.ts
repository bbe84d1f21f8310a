// PDFs and plain text through the real server: uploaded (bytes sniffed, names checked), listed
// with their page count, delivered as they are, and a PDF's pages delivered as images.
import { createTestPdf } from '@tessera/media'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { uploadDirect } from '../test-client.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

const ASSETS = '/service/panel/assets/v1.0'
const A4 = { width: 595, height: 842 }
const ORANGE = [240, 130, 20] as const
const TEAL = [20, 150, 140] as const

async function centre(image: Buffer): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true })
  const offset =
    (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels
  return [...data.subarray(offset, offset + 3)]
}

function expectColour(actual: number[], expected: readonly number[]) {
  for (const [index, value] of expected.entries()) {
    expect(Math.abs((actual[index] ?? -99) - value)).toBeLessThanOrEqual(3)
  }
}

describe.each<TestDatabaseKind>(testDatabases('server'))('PDF and text files on %s', (kind) => {
  let token: string
  let pdf: Buffer

  const upload = (data: Uint8Array, fileName: string, fields: Record<string, string> = {}) => {
    const body = new FormData()
    for (const [key, value] of Object.entries(fields)) body.set(key, value)
    body.set('file', new Blob([new Uint8Array(data)]), fileName)
    return uploadDirect(suite.server.url, token, body)
  }
  // The record's URL names PUBLIC_URL; the test server listens elsewhere.
  const local = (url: string) => `${suite.server.url}${new URL(url).pathname}`
  const stored = async (response: Response) => {
    expect(response.status).toBe(200)
    const file = (await response.json()) as Record<string, unknown> & { url: string; orgId: string }
    return { ...file, url: local(file.url) }
  }
  const deliver = (url: string, pattern: string, headers: Record<string, string> = {}) =>
    fetch(url.replace('/original/', `/${pattern}/`), { headers })

  const suite = useTestServer(kind, { PDF_MAX_PAGES: '30' })

  beforeAll(async () => {
    token = await suite.server.createToken()
    pdf = await createTestPdf([
      { ...A4, colour: ORANGE },
      { width: 400, height: 300, colour: TEAL },
    ])
  }, 60_000)

  it('stores a PDF with its page count, lists it, and delivers it as is (an attachment)', async () => {
    const file = await stored(await upload(pdf, 'report.pdf', { path: 'docs' }))
    expect(file).toMatchObject({
      format: 'pdf',
      contentType: 'application/pdf',
      pages: 2,
      width: 1240,
      height: 1755,
      fullPath: 'docs/report.pdf',
    })
    const listed = await fetch(`${suite.server.url}${ASSETS}/org/${file.orgId}/files?path=docs`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(listed.status).toBe(200)
    const { items } = (await listed.json()) as { items: Record<string, unknown>[] }
    expect(items.find((item) => item.name === 'report.pdf')).toMatchObject({ pages: 2 })
    const original = await fetch(file.url)
    expect(original.status).toBe(200)
    expect(original.headers.get('content-type')).toBe('application/pdf')
    // As is, as an attachment: a PDF may carry scripts, and this origin shows none.
    expect(original.headers.get('content-disposition')).toBe('attachment')
    expect(Buffer.from(await original.arrayBuffer()).equals(pdf)).toBe(true)
    const range = await fetch(file.url, { headers: { range: 'bytes=0-4' } })
    expect(range.status).toBe(206)
    expect(await range.text()).toBe('%PDF-')
  })

  it('delivers page 1 as an image for any transformation, and the page pdf.page names', async () => {
    const file = await stored(await upload(pdf, 'pages.pdf'))
    const resized = await deliver(file.url, 't.resize(w:300)')
    expect(resized.status).toBe(200)
    expect(resized.headers.get('content-type')).toBe('image/png')
    const first = Buffer.from(await resized.arrayBuffer())
    expect(await sharp(first).metadata()).toMatchObject({ width: 300, height: 425 })
    expectColour(await centre(first), ORANGE)
    const second = await deliver(file.url, 'pdf.page(n:2,d:72)~t.toFormat(f:jpeg)')
    expect(second.status).toBe(200)
    expect(second.headers.get('content-type')).toBe('image/jpeg')
    const page = Buffer.from(await second.arrayBuffer())
    expect(await sharp(page).metadata()).toMatchObject({ width: 400, height: 300 })
    expectColour(await centre(page), TEAL)
    const auto = await fetch(file.url.replace('/original/', '/pdf.page(n:2,d:36)/'), {
      headers: { accept: 'image/avif,image/webp,*/*' },
    })
    expect(auto.headers.get('content-type')).toBe('image/png')
  })

  it('answers a missing page, pdf.page on an image and pdf.page out of place with 400', async () => {
    const file = await stored(await upload(pdf, 'short.pdf'))
    const missing = await deliver(file.url, 'pdf.page(n:9)')
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ message: expect.stringContaining('page 9') })
    const late = await deliver(file.url, 't.resize(w:10)~pdf.page(n:2)')
    expect(late.status).toBe(400)
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .png()
      .toBuffer()
    const image = await stored(await upload(png, 'square.png'))
    const wrong = await deliver(image.url, 'pdf.page(n:1)')
    expect(wrong.status).toBe(400)
  })

  it('refuses PDFs with too many pages, huge pages, broken bytes or another type inside', async () => {
    const many = await createTestPdf(Array.from({ length: 31 }, () => ({ ...A4, colour: TEAL })))
    const tooMany = await upload(many, 'many.pdf')
    expect(tooMany.status).toBe(422)
    expect(await tooMany.json()).toMatchObject({
      code: 'image_too_large',
      message: expect.stringContaining('31 pages'),
    })
    const huge = await createTestPdf([{ width: 100_000, height: 100_000, colour: TEAL }])
    expect((await upload(huge, 'huge.pdf')).status).toBe(422)
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 0x41)])
    const refused = await upload(broken, 'broken.pdf')
    expect(refused.status).toBe(422)
    expect(await refused.json()).toMatchObject({ code: 'invalid_image' })
    const truncated = pdf.subarray(0, 200)
    expect([200, 422]).toContain((await upload(truncated, 'truncated.pdf')).status)
    // A zip (a bomb's usual wrapper) named .pdf: the bytes disagree with the name.
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 0)])
    const disguised = await upload(zip, 'bomb.pdf')
    expect(disguised.status).toBe(415)
    expect(await disguised.json()).toMatchObject({ code: 'extension_mismatch' })
    // And the server keeps serving.
    expect((await upload(pdf, 'after.pdf')).status).toBe(200)
  })

  it('stores a .txt file as text and delivers it as is, refusing transformations', async () => {
    const text = 'Tessera notes\nline two — UTF-8 ✓\n'
    const file = await stored(await upload(Buffer.from(text), 'notes.txt'))
    expect(file).toMatchObject({ format: 'txt', contentType: 'text/plain; charset=utf-8' })
    const original = await fetch(file.url)
    expect(original.status).toBe(200)
    expect(original.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(original.headers.get('x-content-type-options')).toBe('nosniff')
    expect(original.headers.get('content-disposition')).toBeNull()
    expect(await original.text()).toBe(text)
    const transformed = await deliver(file.url, 't.resize(w:100)')
    expect(transformed.status).toBe(415)
    expect(await transformed.json()).toMatchObject({ code: 'unsupported_format' })
    const binary = await upload(Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]), 'fake.txt')
    expect(binary.status).toBe(415)
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 0)])
    const disguised = await upload(zip, 'readme.txt')
    expect(disguised.status).toBe(415)
    expect(await disguised.json()).toMatchObject({ code: 'extension_mismatch' })
  })
})
