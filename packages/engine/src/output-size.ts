// Output bytes known before encoding. BMP is uncompressed and TIFF's LZW cannot shrink noise
// (it grows it by up to half again), so their size follows from the output's dimensions: a
// result over the limit is refused before anything is rendered (issue 19 finding 13: a 300 MB
// BMP per request). Compressed formats are bounded by the pixel limits only.
import { EngineError, MESSAGES } from './errors.ts'
import type { OutputFormat } from './formats.ts'

/** The most bytes `format` can take for this output, when its dimensions decide it. */
export function worstOutputBytes(
  format: OutputFormat,
  image: { width: number; height: number; pages: number; alpha: boolean },
): number | undefined {
  const channels = image.alpha ? 4 : 3
  if (format === 'bmp') {
    // One frame; rows padded to four bytes; the larger (V4) header.
    return 14 + 108 + Math.ceil((image.width * channels) / 4) * 4 * image.height
  }
  if (format === 'tiff') return Math.ceil(image.width * image.height * image.pages * channels * 1.5)
  return undefined
}

/**
 * Refuses an output whose format makes it larger than `maxBytes`, before rendering it.
 *
 * @throws {EngineError} `output_too_large`
 */
export function checkOutputBytes(
  format: OutputFormat,
  image: { width: number; height: number; pages: number; alpha: boolean },
  maxBytes: number,
): void {
  const bytes = worstOutputBytes(format, image)
  if (bytes !== undefined && bytes > maxBytes) {
    throw new EngineError('output_too_large', MESSAGES.outputTooManyBytes(format, bytes, maxBytes))
  }
}
