// BMP decoding (sharp's libvips reads no BMP): the header read and checked against the pixel
// limit before anything is allocated, then 1/4/8-bit palettes, 16/24/32-bit pixels with or
// without bit-field masks, bottom-up or top-down rows. Run-length-compressed BMPs are refused.
import { EngineError, MESSAGES } from './errors.ts'
import type { RawImage } from './pipeline.ts'

/** Whether `bytes` start like a BMP (`BM`, then a DIB header of a size we know). */
export function isBmp(bytes: Uint8Array): boolean {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return false
  const header = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(14)
  return [12, 40, 52, 56, 64, 108, 124].includes(header)
}

interface Mask {
  shift: number
  max: number
  mask: number
}

function maskOf(mask: number): Mask {
  if (mask === 0) return { shift: 0, max: 0, mask: 0 }
  let shift = 0
  while (((mask >>> shift) & 1) === 0) shift++
  return { shift, max: (mask >>> shift) >>> 0, mask: mask >>> 0 }
}

const channel = (value: number, m: Mask) =>
  m.max === 0 ? 0 : Math.round((((value & m.mask) >>> m.shift) * 255) / m.max)

function invalid(reason: string): EngineError {
  return new EngineError('invalid_image', `${MESSAGES.invalidImage}: BMP ${reason}`)
}

/** The size of a BMP from its header, without decoding it. */
export function bmpSize(input: Buffer): { width: number; height: number } {
  const dib = input.readUInt32LE(14)
  if (dib === 12) return { width: input.readUInt16LE(18), height: input.readUInt16LE(20) }
  return { width: Math.abs(input.readInt32LE(18)), height: Math.abs(input.readInt32LE(22)) }
}

/**
 * Decodes a BMP to RGB, or RGBA when its alpha channel holds anything.
 *
 * @throws {EngineError} `too_many_pixels` (before allocating), `unsupported_format` for RLE,
 *   `invalid_image` for a truncated or inconsistent file.
 */
export function decodeBmp(input: Buffer, maxPixels: number): RawImage {
  if (!isBmp(input)) throw invalid('header')
  const dib = input.readUInt32LE(14)
  const core = dib === 12
  const width = core ? input.readUInt16LE(18) : input.readInt32LE(18)
  const rawHeight = core ? input.readInt16LE(20) : input.readInt32LE(22)
  const bpp = core ? input.readUInt16LE(24) : input.readUInt16LE(28)
  const compression = core ? 0 : input.readUInt32LE(30)
  const height = Math.abs(rawHeight)
  const topDown = rawHeight < 0
  if (!(width > 0 && height > 0)) throw invalid('size')
  if (width * height > maxPixels) {
    throw new EngineError('too_many_pixels', MESSAGES.tooManyPixels(width * height, maxPixels))
  }
  if (compression === 1 || compression === 2 || compression === 4 || compression === 5) {
    throw new EngineError(
      'unsupported_format',
      MESSAGES.unsupportedFormat('run-length or embedded BMP'),
    )
  }
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw invalid(`bit depth ${bpp}`)
  const offset = input.readUInt32LE(10)
  const stride = Math.ceil((width * bpp) / 32) * 4
  if (offset + stride * height > input.length) throw invalid('truncated')

  // Masks: in the V2+ headers, or just after a 40-byte header with BI_BITFIELDS.
  let masks: [Mask, Mask, Mask, Mask] | undefined
  if (compression === 3 || compression === 6) {
    const at = 14 + 40
    if (at + 12 > input.length) throw invalid('masks')
    const alphaMask = dib >= 56 || compression === 6 ? input.readUInt32LE(at + 12) : 0
    masks = [
      maskOf(input.readUInt32LE(at)),
      maskOf(input.readUInt32LE(at + 4)),
      maskOf(input.readUInt32LE(at + 8)),
      maskOf(alphaMask),
    ]
  } else if (bpp === 16) {
    masks = [maskOf(0x7c00), maskOf(0x03e0), maskOf(0x001f), maskOf(0)]
  }

  let palette: Buffer | undefined
  const entry = core ? 3 : 4
  if (bpp <= 8) {
    const used = core ? 0 : input.readUInt32LE(46)
    const count = used > 0 ? Math.min(used, 256) : 1 << bpp
    const start = 14 + dib
    palette = input.subarray(start, start + count * entry)
    if (palette.length < count * entry) throw invalid('palette')
  }

  const alpha = bpp === 32 && (masks === undefined || masks[3].mask !== 0)
  const out = Buffer.alloc(width * height * 4)
  let anyAlpha = false
  for (let row = 0; row < height; row++) {
    const source = offset + (topDown ? row : height - 1 - row) * stride
    let target = row * width * 4
    for (let x = 0; x < width; x++, target += 4) {
      let r = 0
      let g = 0
      let b = 0
      let a = 255
      if (palette !== undefined) {
        const bit = x * bpp
        const byte = input[source + (bit >> 3)] ?? 0
        const index = (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1)
        const at = index * entry
        b = palette[at] ?? 0
        g = palette[at + 1] ?? 0
        r = palette[at + 2] ?? 0
      } else if (masks !== undefined) {
        const value =
          bpp === 16 ? input.readUInt16LE(source + x * 2) : input.readUInt32LE(source + x * 4)
        r = channel(value, masks[0])
        g = channel(value, masks[1])
        b = channel(value, masks[2])
        if (masks[3].mask !== 0) a = channel(value, masks[3])
      } else {
        const at = source + x * (bpp / 8)
        b = input[at] ?? 0
        g = input[at + 1] ?? 0
        r = input[at + 2] ?? 0
        if (alpha) a = input[at + 3] ?? 0
      }
      out[target] = r
      out[target + 1] = g
      out[target + 2] = b
      out[target + 3] = a
      if (a !== 255) anyAlpha = true
    }
  }
  // A 32-bit BMP whose fourth byte is all zero is opaque (the byte is unused padding).
  const allZero = alpha && !out.some((value, index) => index % 4 === 3 && value !== 0)
  if (!anyAlpha || allZero) {
    const rgb = Buffer.alloc(width * height * 3)
    for (let source = 0, target = 0; source < out.length; source += 4, target += 3) {
      rgb[target] = out[source] ?? 0
      rgb[target + 1] = out[source + 1] ?? 0
      rgb[target + 2] = out[source + 2] ?? 0
    }
    return { data: rgb, width, height, channels: 3, pages: 1 }
  }
  return { data: out, width, height, channels: 4, pages: 1 }
}
