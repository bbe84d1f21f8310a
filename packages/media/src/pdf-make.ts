// PDFs made on the spot (for tests, benchmarks and examples): pages of one colour each, so what a
// render gives can be checked pixel by pixel. MuPDF loads on first use only.

/** One page of `createTestPdf`: its size in points and its colour (0–255 RGB). */
export interface TestPage {
  width: number
  height: number
  colour: readonly [number, number, number]
  /** Lines of black Helvetica text, 12 pt, from the top left corner. */
  text?: readonly string[]
}

// A string in a PDF content stream: backslashes and parentheses escaped.
const pdfString = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`

/** A real PDF whose pages are each filled with one colour. */
export async function createTestPdf(pages: readonly TestPage[]): Promise<Buffer> {
  const { Font, PDFDocument } = await import('mupdf')
  const document = new PDFDocument()
  try {
    const needsFont = pages.some((page) => (page.text?.length ?? 0) > 0)
    const resources = needsFont
      ? { Font: { F1: document.addSimpleFont(new Font('Helvetica')) } }
      : {}
    for (const page of pages) {
      const [r, g, b] = page.colour.map((value) => (value / 255).toFixed(4))
      let contents = `${r} ${g} ${b} rg 0 0 ${page.width} ${page.height} re f`
      const lines = page.text ?? []
      if (lines.length > 0) {
        const shown = lines.map((line) => `${pdfString(line)} Tj T*`).join(' ')
        contents += ` 0 g BT /F1 12 Tf 14 TL 36 ${page.height - 48} Td ${shown} ET`
      }
      const object = document.addPage([0, 0, page.width, page.height], 0, resources, contents)
      document.insertPage(-1, object)
    }
    return Buffer.from(document.saveToBuffer('compress').asUint8Array())
  } finally {
    document.destroy()
  }
}
