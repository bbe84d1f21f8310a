// @tessera/media: what the engine cannot read or write with sharp alone (video, PDF, HEIC/HEIF).

// HEIC/HEIF (HEVC) images through libheif (WebAssembly, in a worker thread).
export {
  createHeicDecoder,
  HEIC_DEFAULT_LIMITS,
  type HeicDecoder,
  HeicError,
  type HeicErrorCode,
  type HeicLimits,
  type HeicPixels,
  isHeic,
} from './heic.ts'
export { createTestHeic, ffmpegPath, type HeicSource } from './heic-make.ts'
// PDF pages through MuPDF (WebAssembly, in a worker thread).
export {
  createPdfRenderer,
  isPdf,
  MAX_PAGE_SIDE_POINTS,
  PDF_DEFAULT_DPI,
  PDF_DEFAULT_LIMITS,
  PDF_DPI_RANGE,
  PdfError,
  type PdfErrorCode,
  type PdfInfo,
  type PdfLimits,
  type PdfPageRequest,
  type PdfPixels,
  type PdfRenderer,
} from './pdf.ts'
export { createTestPdf, type TestPage } from './pdf-make.ts'
