// The PDF worker: MuPDF (WebAssembly) runs here, off the main thread, so a slow page never holds
// the server's event loop, and a page over its time limit is stopped by ending this thread.
import { parentPort } from 'node:worker_threads'
import type { PdfRequest, PdfResponse } from './pdf-protocol.ts'
import { MAX_PAGE_SIDE_POINTS, POINTS_PER_INCH } from './pdf-protocol.ts'

// MuPDF prints every warning of a damaged file on stderr; the answer says what matters.
;(globalThis as Record<string, unknown>).$libmupdf_wasm_Module = {
  print: () => undefined,
  printErr: () => undefined,
}
const mupdf = await import('mupdf')

class Refusal extends Error {
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.code = code
  }
}

function open(bytes: Uint8Array) {
  let document: InstanceType<typeof mupdf.Document>
  try {
    document = mupdf.Document.openDocument(bytes, 'application/pdf')
  } catch (error) {
    throw new Refusal('invalid_document', `The PDF cannot be read: ${messageOf(error)}`)
  }
  if (document.needsPassword()) {
    document.destroy()
    throw new Refusal('encrypted', 'The PDF is protected by a password')
  }
  return document
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown'
}

function countPages(document: InstanceType<typeof mupdf.Document>, maxPages: number): number {
  let pages: number
  try {
    pages = document.countPages()
  } catch (error) {
    throw new Refusal('invalid_document', `The PDF cannot be read: ${messageOf(error)}`)
  }
  if (!(pages >= 1)) throw new Refusal('invalid_document', 'The PDF has no pages')
  if (pages > maxPages) {
    throw new Refusal(
      'too_many_pages',
      `The PDF has ${pages} pages; the limit is ${maxPages} (PDF_MAX_PAGES)`,
    )
  }
  return pages
}

function handle(request: PdfRequest): PdfResponse {
  const document = open(request.bytes)
  try {
    const pages = countPages(document, request.maxPages)
    if (request.page > pages) {
      throw new Refusal(
        'page_out_of_range',
        `pdf.page: the PDF has ${pages} page${pages === 1 ? '' : 's'}; page ${request.page} does not exist`,
      )
    }
    let page: ReturnType<typeof document.loadPage>
    try {
      page = document.loadPage(request.page - 1)
    } catch (error) {
      throw new Refusal('invalid_document', `The PDF page cannot be read: ${messageOf(error)}`)
    }
    try {
      const [x0, y0, x1, y1] = page.getBounds()
      const widthPt = x1 - x0
      const heightPt = y1 - y0
      if (!(widthPt > 0 && heightPt > 0)) {
        throw new Refusal('invalid_document', 'The PDF page has no size')
      }
      if (widthPt > MAX_PAGE_SIDE_POINTS || heightPt > MAX_PAGE_SIDE_POINTS) {
        throw new Refusal(
          'page_too_large',
          `The PDF page is ${Math.round(widthPt)}×${Math.round(heightPt)} points; PDF pages are at most ${MAX_PAGE_SIDE_POINTS} points (200 inches) a side`,
        )
      }
      const scale = request.dpi / POINTS_PER_INCH
      const width = Math.max(1, Math.ceil(widthPt * scale))
      const height = Math.max(1, Math.ceil(heightPt * scale))
      if (width * height > request.maxPixels) {
        throw new Refusal(
          'too_many_pixels',
          `Page ${request.page} at ${request.dpi} dpi would be ${width}×${height} pixels; the limit is ${request.maxPixels} (ask a lower dpi: pdf.page(d:…))`,
        )
      }
      const info = { pages, width, height, widthPt, heightPt }
      if (!request.render) return { ok: true, info }
      let pixmap: ReturnType<typeof page.toPixmap>
      try {
        pixmap = page.toPixmap(
          mupdf.Matrix.scale(scale, scale),
          mupdf.ColorSpace.DeviceRGB,
          false,
          true,
        )
      } catch (error) {
        throw new Refusal('invalid_document', `The PDF page cannot be drawn: ${messageOf(error)}`)
      }
      try {
        const w = pixmap.getWidth()
        const h = pixmap.getHeight()
        const channels = pixmap.getNumberOfComponents() + pixmap.getAlpha()
        const stride = pixmap.getStride()
        const samples = pixmap.getPixels()
        // Rows packed tightly, copied out of the WebAssembly heap before the pixmap is freed.
        const data = new Uint8Array(w * h * channels)
        for (let y = 0; y < h; y++) {
          data.set(samples.subarray(y * stride, y * stride + w * channels), y * w * channels)
        }
        return {
          ok: true,
          info: { ...info, width: w, height: h },
          pixels: { data, width: w, height: h, channels },
        }
      } finally {
        pixmap.destroy()
      }
    } finally {
      page.destroy()
    }
  } finally {
    document.destroy()
  }
}

parentPort?.on('message', (message: { id: number; request: PdfRequest }) => {
  let response: PdfResponse
  try {
    response = handle(message.request)
  } catch (error) {
    response =
      error instanceof Refusal
        ? { ok: false, code: error.code, message: error.message }
        : {
            ok: false,
            code: 'invalid_document',
            message: `The PDF cannot be read: ${messageOf(error)}`,
          }
  }
  const transfer =
    response.ok && response.pixels ? [response.pixels.data.buffer as ArrayBuffer] : []
  parentPort?.postMessage({ id: message.id, response }, transfer)
})
