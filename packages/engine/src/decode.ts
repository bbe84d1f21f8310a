// Sources sharp cannot read (PDF pages, and the other formats @tessera/media decodes), decoded to
// raw pixels before the chain runs on them like on any image. Every limit is checked from the
// file's header before its pixels are decoded.
import {
  type HeicDecoder,
  HeicError,
  isHeic,
  isPdf,
  PdfError,
  type PdfRenderer,
} from '@tessera/media'
import type { ParsedOperation } from '@tessera/url'
import { decodeBmp, isBmp } from './bmp-decode.ts'
import { EngineError, MESSAGES } from './errors.ts'
import type { EngineOptions } from './options.ts'
import { type Clock, Pipeline, type RawImage } from './pipeline.ts'
import type { SourceInfo } from './source.ts'

/** A source decoded outside sharp: what it is, and its pixels. */
export interface DecodedSource {
  info: SourceInfo
  image: RawImage
  /** Pages of a document (a PDF's page count); frames otherwise. */
  pages: number
}

/** What decoding needs besides the bytes. */
export interface Decoders {
  options: Readonly<EngineOptions>
  pdf: () => PdfRenderer
  heic: () => HeicDecoder
}

const PDF_PAGE = 'pdf.page'

function pageRequest(operations: readonly ParsedOperation[]): { page: number; dpi: number } {
  const index = operations.findIndex((operation) => operation.spec?.key === PDF_PAGE)
  if (index === -1) return { page: 1, dpi: 150 }
  // The page is drawn before the chain runs: a pdf.page after other steps would read as if it
  // came later, so it must come first (and once).
  if (index !== 0 || operations.findLastIndex((op) => op.spec?.key === PDF_PAGE) !== 0) {
    throw new EngineError('invalid_param', MESSAGES.pdfPageFirst)
  }
  const params = operations[0]?.params ?? {}
  const page = typeof params.n === 'number' ? params.n : 1
  const dpi = typeof params.d === 'number' ? params.d : 150
  return { page, dpi }
}

/** A `PdfError` in the engine's terms (the message is kept: it says what to change). */
export function fromPdfError(error: unknown): unknown {
  if (!(error instanceof PdfError)) return error
  switch (error.code) {
    case 'page_out_of_range':
      return new EngineError('invalid_param', error.message, { cause: error })
    case 'too_many_pages':
    case 'page_too_large':
    case 'too_many_pixels':
      return new EngineError('too_many_pixels', error.message, { cause: error })
    case 'timeout':
      return new EngineError('timeout', error.message, { cause: error })
    default:
      return new EngineError('invalid_image', error.message, { cause: error })
  }
}

/** A `HeicError` in the engine's terms. */
export function fromHeicError(error: unknown): unknown {
  if (!(error instanceof HeicError)) return error
  return new EngineError(error.code, error.message, { cause: error })
}

function still(format: string, image: RawImage): DecodedSource {
  const alpha = image.channels === 2 || image.channels === 4
  return {
    info: { format, width: image.width, height: image.height, pages: 1, alpha },
    image,
    pages: 1,
  }
}

/** Refuses `pdf.page` on a source that is not a PDF. */
export function assertNoPdfPage(operations: readonly ParsedOperation[]): void {
  if (operations.some((operation) => operation.spec?.key === PDF_PAGE)) {
    throw new EngineError('invalid_param', MESSAGES.pdfPageNotPdf)
  }
}

/**
 * Decodes a source sharp cannot read (PDF, HEIC, BMP), or returns undefined for one it can. A
 * PDF gives the page `pdf.page` names (page 1 at 150 dpi without it). With `probe`, a HEIC is
 * only read to its header (no pixels: `image.data` is empty).
 */
export async function decodeSource(
  input: Buffer,
  operations: readonly ParsedOperation[],
  decoders: Decoders,
  { probe = false }: { probe?: boolean } = {},
): Promise<DecodedSource | undefined> {
  if (isPdf(input)) {
    const request = pageRequest(operations)
    try {
      const { info, pixels: drawn } = await decoders.pdf().render(input, request)
      const image: RawImage = {
        data: Buffer.from(drawn.data.buffer, drawn.data.byteOffset, drawn.data.byteLength),
        width: drawn.width,
        height: drawn.height,
        channels: drawn.channels as RawImage['channels'],
        pages: 1,
      }
      return {
        info: { format: 'pdf', width: drawn.width, height: drawn.height, pages: 1, alpha: false },
        image,
        pages: info.pages,
      }
    } catch (error) {
      throw fromPdfError(error)
    }
  }
  assertNoPdfPage(operations)
  if (isHeic(input)) {
    try {
      if (probe) {
        // Decoding HEVC in WebAssembly takes seconds for a camera's photo (docs/benchmarks.md):
        // a probe reads the header (libheif parses the whole container) and checks the size.
        const { width, height } = await decoders.heic().size(input)
        const image: RawImage = { data: Buffer.alloc(0), width, height, channels: 3, pages: 1 }
        return still('heic', image)
      }
      const pixels = await decoders.heic().decode(input)
      const data = Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength)
      return still('heic', { ...pixels, data, pages: 1 })
    } catch (error) {
      throw fromHeicError(error)
    }
  }
  if (isBmp(input)) return still('bmp', decodeBmp(input, decoders.options.maxInputPixels))
  return undefined
}

/** A pipeline that continues from a decoded source's pixels. */
export function openDecoded(decoded: DecodedSource, clock: Clock): Pipeline {
  const { image, info } = decoded
  return new Pipeline(
    { kind: 'raw', image },
    { width: image.width, height: image.height, pages: image.pages, alpha: info.alpha },
    clock,
  )
}
