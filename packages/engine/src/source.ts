// The source image of a job: its bytes checked, its header read, and what the engine will not
// decode refused before any pixel work (bytes, pixels with frames summed, SVG limits).
import sharp, { type Metadata } from 'sharp'
import { EngineError, MESSAGES } from './errors.ts'
import type { EngineOptions } from './options.ts'
import { checkSvgElements, checkSvgPixels, mayBeSvg } from './svg-limits.ts'

// Sharp's readable formats; anything else sharp may recognise is refused as unsupported.
const READABLE = new Set(['jpeg', 'png', 'webp', 'gif', 'svg', 'tiff', 'heif'])
// Sharp fails on any decoding error, including truncated data, but not on mere warnings
// (which many camera files trigger).
export const FAIL_ON = 'error'
// Formats whose decoded pixels may be kept across jobs, with the least shrink of a resize at
// which sharp decodes them smaller (pipeline.cc: a JPEG at 1/2 from 3×, a WebP scaled from any
// shrink): a pipeline shrinking less decodes them whole, the same pixels as kept (decision 023).
export const SHRINK_ON_LOAD: Readonly<Record<string, number>> = {
  jpeg: 3,
  png: Infinity,
  webp: 1 + Number.EPSILON,
}

/** What the header says of a source image. */
export interface SourceInfo {
  format: string
  width: number
  height: number
  pages: number
  alpha: boolean
  delay?: number[]
  loop?: number
  /**
   * Its decoded pixels are what every pipeline reading it whole starts from: one 8-bit sRGB or
   * grey frame, no ICC profile to convert, no orientation to apply, no gain map.
   */
  plain?: boolean
  /** Pixels per inch its header states (raw pixels carry none: a PNG written from it differs). */
  density?: number
}

// Formats the bytes start with that sharp cannot read, to tell "unsupported" from "not an image".
function sniffUnsupported(input: Buffer): string | undefined {
  const ascii = input.subarray(0, 12).toString('latin1')
  if (ascii.startsWith('BM')) return 'bmp'
  if (input.readUInt32BE(0) === 0x00000100) return 'ico'
  if (ascii.startsWith('%PDF')) return 'pdf'
  if (ascii.slice(4, 8) === 'ftyp') return 'heic'
  return undefined
}

export function checkBytes(input: unknown, options: Readonly<EngineOptions>): Buffer {
  if (!Buffer.isBuffer(input)) throw new EngineError('invalid_image', MESSAGES.notBuffer)
  if (input.length > options.maxInputBytes) {
    throw new EngineError(
      'input_too_large',
      MESSAGES.inputTooLarge(input.length, options.maxInputBytes),
    )
  }
  if (input.length < 4) throw new EngineError('invalid_image', MESSAGES.invalidImage)
  return input
}

function formatName(metadata: Metadata): string {
  if (metadata.format === 'heif') return metadata.compression === 'av1' ? 'avif' : 'heic'
  return metadata.format
}

// Reads the header only, and refuses what the engine will not decode.
export async function inspect(
  input: Buffer,
  options: Readonly<EngineOptions>,
): Promise<SourceInfo> {
  let metadata: Metadata
  // Before librsvg parses it (reading an SVG's size parses all of it): memory grows with elements.
  const svgChecked = mayBeSvg(input)
  if (svgChecked) checkSvgElements(input, options)
  try {
    // A header read decodes no pixels: the pixel limit is checked below, frames summed.
    metadata = await sharp(input, { failOn: FAIL_ON, limitInputPixels: false }).metadata()
  } catch (error) {
    const format = sniffUnsupported(input)
    if (format !== undefined) {
      throw new EngineError('unsupported_format', MESSAGES.unsupportedFormat(format), {
        cause: error,
      })
    }
    throw new EngineError('invalid_image', MESSAGES.invalidImage, { cause: error })
  }
  const format = formatName(metadata)
  if (!READABLE.has(metadata.format) || format === 'heic') {
    throw new EngineError('unsupported_format', MESSAGES.unsupportedFormat(format))
  }
  const width = metadata.autoOrient?.width ?? metadata.width
  const height = metadata.autoOrient?.height ?? metadata.height
  if (!(width > 0 && height > 0)) throw new EngineError('invalid_image', MESSAGES.invalidImage)
  const animation = metadata.format === 'gif' || metadata.format === 'webp'
  const pages = Math.max(1, metadata.pages ?? 1)
  const pixels = width * height * (animation ? pages : 1)
  if (pixels > options.maxInputPixels) {
    throw new EngineError('too_many_pixels', MESSAGES.tooManyPixels(pixels, options.maxInputPixels))
  }
  if (format === 'svg') {
    if (!svgChecked) checkSvgElements(input, options)
    checkSvgPixels(width, height, options)
  }
  const info: SourceInfo = { format, width, height, pages, alpha: metadata.hasAlpha }
  if (isPlain(metadata, pages)) info.plain = true
  if (metadata.density !== undefined) info.density = metadata.density
  if (metadata.delay !== undefined) info.delay = metadata.delay
  if (metadata.loop !== undefined) info.loop = metadata.loop
  return info
}

/** The frame timing of an animated source, for its animated output. */
export function frameTiming(source: SourceInfo): { delay?: number[]; loop?: number } {
  const timing: { delay?: number[]; loop?: number } = {}
  if (source.delay !== undefined && source.delay.length === source.pages)
    timing.delay = source.delay
  if (source.loop !== undefined) timing.loop = source.loop
  return timing
}

function isPlain(metadata: Metadata, pages: number): boolean {
  return (
    SHRINK_ON_LOAD[metadata.format] !== undefined &&
    pages === 1 &&
    metadata.depth === 'uchar' &&
    (metadata.space === 'srgb' || metadata.space === 'b-w') &&
    metadata.hasProfile !== true &&
    (metadata.orientation ?? 1) === 1 &&
    metadata.gainMap === undefined
  )
}
