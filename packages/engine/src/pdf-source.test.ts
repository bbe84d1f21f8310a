import { createTestPdf } from '@tessera/media'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from './engine.ts'
import { EngineError } from './errors.ts'
import { plain, RED } from './test-images.ts'

const A4 = { width: 595, height: 842 }
const ORANGE = [240, 130, 20] as const
const TEAL = [20, 150, 140] as const

const chain = (pattern: string) => {
  const { value, issues } = parsePattern(pattern, { format: 'pdf' })
  expect(issues).toEqual([])
  return value
}

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

async function codeOf(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(EngineError)
  return (error as EngineError).code
}

describe('PDF sources', () => {
  const engine = createEngine({ concurrency: 1, maxPdfPages: 20 })
  afterAll(() => engine.close())
  const document = createTestPdf([
    { ...A4, colour: ORANGE },
    { width: 400, height: 300, colour: TEAL },
  ])

  it('probes the page count and the size of page 1 at 150 dpi', async () => {
    const probe = await engine.probe(await document)
    expect(probe).toMatchObject({ format: 'pdf', pages: 2, width: 1240, height: 1755 })
  })

  it('delivers page 1 as PNG when any transformation is asked, in its colour', async () => {
    const result = await engine.transform({
      input: await document,
      operations: chain('t.resize(w:300)'),
    })
    expect(result.format).toBe('png')
    const meta = await sharp(result.data).metadata()
    expect([meta.width, meta.height]).toEqual([300, 425])
    expectColour(await centre(result.data), ORANGE)
  })

  it('picks the page and the dpi with pdf.page, and any image format', async () => {
    const result = await engine.transform({
      input: await document,
      operations: chain('pdf.page(n:2,d:72)~t.toFormat(f:jpeg)'),
    })
    expect(result.format).toBe('jpeg')
    const meta = await sharp(result.data).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 400, 300])
    expectColour(await centre(result.data), TEAL)
    expect(result.steps.map((step) => step.name)).toEqual(['pdf.page', 't.toFormat'])
  })

  it('answers webp or avif under f_auto', async () => {
    const result = await engine.transform({
      input: await document,
      operations: chain('pdf.page(d:36)'),
      autoFormat: true,
      accept: 'image/webp,*/*',
    })
    expect(result.format).toBe('webp')
  })

  it('refuses a page that does not exist, and pdf.page anywhere but first', async () => {
    expect(
      await codeOf(engine.transform({ input: await document, operations: chain('pdf.page(n:3)') })),
    ).toBe('invalid_param')
    expect(
      await codeOf(
        engine.transform({
          input: await document,
          operations: chain('t.resize(w:10)~pdf.page(n:2)'),
        }),
      ),
    ).toBe('invalid_param')
  })

  it('refuses pdf.page on an image', async () => {
    const png = await plain(10, 10, RED)
    const operations = parsePattern('pdf.page(n:1)').value
    expect(await codeOf(engine.transform({ input: png, operations }))).toBe('invalid_param')
  })

  it('refuses too many pages, a huge canvas, and broken bytes, then keeps serving', async () => {
    const many = await createTestPdf(Array.from({ length: 21 }, () => ({ ...A4, colour: ORANGE })))
    expect(await codeOf(engine.probe(many))).toBe('too_many_pixels')
    const huge = await createTestPdf([{ width: 100_000, height: 100_000, colour: ORANGE }])
    expect(await codeOf(engine.transform({ input: huge, operations: [] }))).toBe('too_many_pixels')
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 7)])
    expect(await codeOf(engine.probe(broken))).toBe('invalid_image')
    const result = await engine.transform({
      input: await document,
      operations: chain('pdf.page(d:18)'),
    })
    expect(result.format).toBe('png')
  })
})
