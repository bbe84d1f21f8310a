// PDFs made on the spot (for tests, benchmarks and examples): pages of one colour each, so what a
// render gives can be checked pixel by pixel. MuPDF loads on first use only.

/** One page of `createTestPdf`: its size in points and its colour (0–255 RGB). */
export interface TestPage {
  width: number
  height: number
  colour: readonly [number, number, number]
}

/** A real PDF whose pages are each filled with one colour. */
export async function createTestPdf(pages: readonly TestPage[]): Promise<Buffer> {
  const { PDFDocument } = await import('mupdf')
  const document = new PDFDocument()
  try {
    for (const page of pages) {
      const [r, g, b] = page.colour.map((value) => (value / 255).toFixed(4))
      const contents = `${r} ${g} ${b} rg 0 0 ${page.width} ${page.height} re f`
      const object = document.addPage([0, 0, page.width, page.height], 0, {}, contents)
      document.insertPage(-1, object)
    }
    return Buffer.from(document.saveToBuffer('compress').asUint8Array())
  } finally {
    document.destroy()
  }
}
