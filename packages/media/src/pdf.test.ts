import { afterAll, describe, expect, it } from 'vitest'
import { createPdfRenderer, createTestPdf, PdfError } from './index.ts'

const A4 = { width: 595, height: 842 }
const red = [220, 20, 30] as const
const blue = [10, 40, 200] as const

function pixelAt(
  pixels: { data: Uint8Array; width: number; channels: number },
  x: number,
  y: number,
) {
  const offset = (y * pixels.width + x) * pixels.channels
  return [...pixels.data.subarray(offset, offset + 3)]
}

// Colours written as fractions in the page come back within one step of 255.
function expectColour(actual: number[], expected: readonly number[]) {
  for (const [index, value] of expected.entries()) {
    expect(Math.abs((actual[index] ?? -9) - value)).toBeLessThanOrEqual(2)
  }
}

describe('PDF pages through MuPDF', () => {
  const pdf = createPdfRenderer({ maxPages: 50, maxPixels: 20_000_000, timeoutMs: 20_000 })
  afterAll(() => pdf.close())

  it('draws page 1 at 150 dpi by default, and any page asked, in its colour', async () => {
    const bytes = await createTestPdf([
      { ...A4, colour: red },
      { width: 300, height: 200, colour: blue },
    ])
    const first = await pdf.render(bytes)
    expect(first.info.pages).toBe(2)
    expect([first.pixels.width, first.pixels.height]).toEqual([1240, 1755])
    expect(first.pixels.channels).toBe(3)
    expectColour(pixelAt(first.pixels, 600, 900), red)
    const second = await pdf.render(bytes, { page: 2, dpi: 72 })
    expect([second.pixels.width, second.pixels.height]).toEqual([300, 200])
    expectColour(pixelAt(second.pixels, 150, 100), blue)
    const info = await pdf.inspect(bytes, { page: 2, dpi: 300 })
    expect(info).toMatchObject({ pages: 2, width: 1250, height: 834 })
  })

  const refusals: [string, () => Promise<Uint8Array>, number, string][] = [
    [
      'a page that does not exist',
      () => createTestPdf([{ ...A4, colour: red }]),
      3,
      'page_out_of_range',
    ],
    [
      'more pages than the limit',
      () => createTestPdf(Array.from({ length: 51 }, () => ({ ...A4, colour: red }))),
      1,
      'too_many_pages',
    ],
    [
      'a page over 200 inches',
      () => createTestPdf([{ width: 100_000, height: 100_000, colour: red }]),
      1,
      'page_too_large',
    ],
    [
      'a page over the pixel limit',
      () => createTestPdf([{ width: 14_000, height: 14_000, colour: red }]),
      1,
      'too_many_pixels',
    ],
    [
      'bytes that only start like a PDF',
      async () => Buffer.from('%PDF-1.7\ngarbage'),
      1,
      'invalid_document',
    ],
    ['something else', async () => Buffer.from('PK\u0003\u0004 zip'), 1, 'invalid_document'],
  ]
  for (const [name, make, page, code] of refusals) {
    it(`refuses ${name} (${code}) before drawing it`, async () => {
      const error = await pdf.render(await make(), { page }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(PdfError)
      expect((error as PdfError).code).toBe(code)
    })
  }

  it('answers a truncated PDF with a refusal or a page, never a crash, and keeps working', async () => {
    const bytes = await createTestPdf([{ ...A4, colour: red }])
    const truncated = bytes.subarray(0, Math.floor(bytes.length / 3))
    const outcome = await pdf.render(truncated).then(
      (result) => result.info.pages,
      (error: unknown) => (error as PdfError).code,
    )
    expect(['invalid_document', 1]).toContain(outcome)
    const after = await pdf.render(bytes, { dpi: 18 })
    expectColour(pixelAt(after.pixels, 5, 5), red)
  })

  it('stops a page over its time limit and serves the next one', async () => {
    const slow = createPdfRenderer({ timeoutMs: 1 })
    const bytes = await createTestPdf([{ ...A4, colour: red }])
    const error = await slow.render(bytes, { dpi: 600 }).catch((caught: unknown) => caught)
    expect((error as PdfError).code).toBe('timeout')
    await slow.close()
    const after = await pdf.render(bytes, { dpi: 18 })
    expect(after.info.pages).toBe(1)
  })
})
