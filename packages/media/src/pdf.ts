// PDF pages as pixels, through MuPDF's WebAssembly build in a worker thread: one page is read
// and drawn at a time, each within a time limit (the worker is ended and a new one started when
// a page takes longer), and every limit is checked before anything is drawn.
import type { PdfInfo, PdfPixels, PdfRequest, PdfResponse } from './pdf-protocol.ts'
import { createWorkerChannel } from './worker-channel.ts'

export type { PdfInfo, PdfPixels } from './pdf-protocol.ts'
export { MAX_PAGE_SIDE_POINTS } from './pdf-protocol.ts'

/** Why a PDF was refused; all but `timeout` are the file's or the request's fault. */
export type PdfErrorCode =
  | 'invalid_document'
  | 'encrypted'
  | 'too_many_pages'
  | 'page_out_of_range'
  | 'page_too_large'
  | 'too_many_pixels'
  | 'timeout'

/** A PDF refused or not drawn in time. */
export class PdfError extends Error {
  readonly code: PdfErrorCode
  constructor(code: PdfErrorCode, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'PdfError'
    this.code = code
  }
}

/** Limits of a PDF renderer. */
export interface PdfLimits {
  /** Most pages a PDF may have (`PDF_MAX_PAGES`). */
  maxPages: number
  /** Most pixels of a drawn page. */
  maxPixels: number
  /** Most time one page may take, in milliseconds. */
  timeoutMs: number
}

/** Dots per inch a page is drawn at unless asked otherwise. */
export const PDF_DEFAULT_DPI = 150
/** The dpi range `pdf.page(d:…)` accepts. */
export const PDF_DPI_RANGE = { min: 18, max: 600 } as const

export const PDF_DEFAULT_LIMITS: Readonly<PdfLimits> = {
  maxPages: 2000,
  maxPixels: 50_000_000,
  timeoutMs: 30_000,
}

/** Whether `bytes` start like a PDF (`%PDF-`). */
export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-'
}

/** What `render` and `inspect` are asked. */
export interface PdfPageRequest {
  /** 1-based page number; default 1. */
  page?: number
  /** Default `PDF_DEFAULT_DPI`. */
  dpi?: number
}

/** Reads and draws PDF pages. */
export interface PdfRenderer {
  /** Page count and the page's size at the dpi, without drawing it. */
  inspect(bytes: Uint8Array, request?: PdfPageRequest): Promise<PdfInfo>
  /** Draws one page; RGB on white. */
  render(bytes: Uint8Array, request?: PdfPageRequest): Promise<{ info: PdfInfo; pixels: PdfPixels }>
  /** Ends the worker thread. */
  close(): Promise<void>
}

/**
 * Creates a PDF renderer with its own worker thread (started on first use, not keeping the
 * process alive while idle). Pages are drawn one at a time, in order.
 *
 * @example
 * const pdf = createPdfRenderer()
 * const { pixels } = await pdf.render(bytes, { page: 2, dpi: 150 })
 */
export function createPdfRenderer(limits: Partial<PdfLimits> = {}): PdfRenderer {
  const settings = { ...PDF_DEFAULT_LIMITS, ...limits }
  // Pages are drawn one at a time; a page past the time limit ends its thread.
  const channel = createWorkerChannel<PdfRequest, PdfResponse>(
    new URL('./pdf-worker.ts', import.meta.url),
    {
      timeoutMs: settings.timeoutMs,
      failed: (cause) =>
        new PdfError(
          'invalid_document',
          cause === undefined ? 'The PDF renderer stopped' : 'The PDF renderer failed',
          cause === undefined ? undefined : { cause },
        ),
      timedOut: () =>
        new PdfError('timeout', `The PDF page took longer than ${settings.timeoutMs} ms`),
    },
  )

  function job(bytes: Uint8Array, page: PdfPageRequest, render: boolean): Promise<PdfResponse> {
    const pageNumber = page.page ?? 1
    const dpi = page.dpi ?? PDF_DEFAULT_DPI
    if (!isPdf(bytes)) {
      return Promise.reject(new PdfError('invalid_document', 'The file is not a PDF'))
    }
    if (!Number.isInteger(pageNumber) || pageNumber < 1) {
      return Promise.reject(
        new PdfError('page_out_of_range', 'pdf.page: n must be a page number from 1'),
      )
    }
    if (!(dpi >= PDF_DPI_RANGE.min && dpi <= PDF_DPI_RANGE.max)) {
      return Promise.reject(
        new PdfError(
          'too_many_pixels',
          `pdf.page: d must be from ${PDF_DPI_RANGE.min} to ${PDF_DPI_RANGE.max} dpi`,
        ),
      )
    }
    const request: PdfRequest = {
      bytes,
      page: pageNumber,
      dpi,
      render,
      maxPages: settings.maxPages,
      maxPixels: settings.maxPixels,
    }
    return channel.run(request)
  }

  function unwrap(response: PdfResponse): Extract<PdfResponse, { ok: true }> {
    if (response.ok) return response
    throw new PdfError(response.code as PdfErrorCode, response.message)
  }

  return {
    async inspect(bytes, page = {}) {
      return unwrap(await job(bytes, page, false)).info
    },
    async render(bytes, page = {}) {
      const response = unwrap(await job(bytes, page, true))
      if (response.pixels === undefined) throw new PdfError('invalid_document', 'No page drawn')
      return { info: response.info, pixels: response.pixels }
    },
    close: () => channel.close(),
  }
}
