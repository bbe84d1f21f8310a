// HEIC/HEIF images (HEVC-coded; sharp's prebuilt libvips has no HEVC decoder) decoded by libheif
// (WebAssembly, through heic-decode) in a worker thread: one image at a time, within a time
// limit, the pixel limit checked from the header before anything is decoded. AVIF (AV1-coded
// HEIF) is not this module's: sharp reads it.
import type { HeicPixels, HeicRequest, HeicResponse } from './heic-protocol.ts'
import { createWorkerChannel } from './worker-channel.ts'

export type { HeicPixels } from './heic-protocol.ts'

/** Why a HEIC file was refused; `timeout` is the server's, the others the file's. */
export type HeicErrorCode = 'invalid_image' | 'too_many_pixels' | 'timeout'

/** A HEIC file refused or not decoded in time. */
export class HeicError extends Error {
  readonly code: HeicErrorCode
  constructor(code: HeicErrorCode, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'HeicError'
    this.code = code
  }
}

/** Limits of a HEIC decoder. */
export interface HeicLimits {
  /** Most pixels of the image (width × height from its header). */
  maxPixels: number
  /** Most time one image may take, in milliseconds. */
  timeoutMs: number
}

export const HEIC_DEFAULT_LIMITS: Readonly<HeicLimits> = {
  maxPixels: 50_000_000,
  timeoutMs: 30_000,
}

// Brands of HEVC-coded HEIF files; `mif1`/`msf1` alone say "HEIF" without the codec.
const HEVC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis'])
const GENERIC_BRANDS = new Set(['mif1', 'msf1'])
const AV1_BRANDS = new Set(['avif', 'avis'])

/**
 * Whether `bytes` are a HEIF file coded with HEVC (a HEIC), by the brands of its `ftyp` box: an
 * HEVC brand, or a generic HEIF brand without an AV1 one (AVIF is left to sharp).
 */
export function isHeic(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.toString('latin1', 4, 8) !== 'ftyp') return false
  const size = Math.min(view.readUInt32BE(0), view.length, 256)
  const brands = [view.toString('latin1', 8, 12)]
  for (let offset = 16; offset + 4 <= size; offset += 4) {
    brands.push(view.toString('latin1', offset, offset + 4))
  }
  if (brands.some((brand) => AV1_BRANDS.has(brand))) return false
  return brands.some((brand) => HEVC_BRANDS.has(brand) || GENERIC_BRANDS.has(brand))
}

/** Decodes HEIC images. */
export interface HeicDecoder {
  /** The image's size from its header, checked against the pixel limit; nothing decoded. */
  size(bytes: Uint8Array): Promise<{ width: number; height: number }>
  /** The primary image's pixels. */
  decode(bytes: Uint8Array): Promise<HeicPixels>
  /** Ends the worker thread. */
  close(): Promise<void>
}

/**
 * Creates a HEIC decoder with its own worker thread (started on first use, not keeping the
 * process alive while idle).
 *
 * @example
 * const heic = createHeicDecoder({ maxPixels: 50_000_000 })
 * const { data, width, height, channels } = await heic.decode(bytes)
 */
export function createHeicDecoder(limits: Partial<HeicLimits> = {}): HeicDecoder {
  const settings = { ...HEIC_DEFAULT_LIMITS, ...limits }
  const channel = createWorkerChannel<HeicRequest, HeicResponse>(
    new URL('./heic-worker.ts', import.meta.url),
    {
      timeoutMs: settings.timeoutMs,
      failed: (cause) =>
        new HeicError(
          'invalid_image',
          cause === undefined ? 'The HEIC decoder stopped' : 'The HEIC decoder failed',
          cause === undefined ? undefined : { cause },
        ),
      timedOut: () =>
        new HeicError('timeout', `The HEIC image took longer than ${settings.timeoutMs} ms`),
    },
  )

  async function job(bytes: Uint8Array, decode: boolean) {
    if (!isHeic(bytes)) throw new HeicError('invalid_image', 'The file is not a HEIC image')
    const response = await channel.run({ bytes, decode, maxPixels: settings.maxPixels })
    if (!response.ok) throw new HeicError(response.code as HeicErrorCode, response.message)
    return response
  }

  return {
    async size(bytes) {
      const { width, height } = await job(bytes, false)
      return { width, height }
    },
    async decode(bytes) {
      const response = await job(bytes, true)
      if (response.pixels === undefined) throw new HeicError('invalid_image', 'No image decoded')
      return response.pixels
    },
    close: () => channel.close(),
  }
}
