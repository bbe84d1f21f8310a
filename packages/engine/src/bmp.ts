import type { RawImage } from './pipeline.ts'

const FILE_HEADER = 14
const INFO_HEADER = 40
// BITMAPV4HEADER: needed to declare the alpha channel of a 32-bit image.
const V4_HEADER = 108

/**
 * Encodes the first frame of raw pixels as a BMP (sharp cannot write BMP): 24-bit for opaque
 * images, 32-bit BGRA with a BITMAPV4HEADER for images with alpha. Rows are stored bottom-up.
 */
export function encodeBmp(image: RawImage): Buffer {
  const { width, height, channels, data } = image
  const alpha = channels === 2 || channels === 4
  const grey = channels <= 2
  const bytesPerPixel = alpha ? 4 : 3
  const stride = Math.ceil((width * bytesPerPixel) / 4) * 4
  const header = FILE_HEADER + (alpha ? V4_HEADER : INFO_HEADER)
  const size = header + stride * height
  const out = Buffer.alloc(size)
  out.write('BM', 0, 'latin1')
  out.writeUInt32LE(size, 2)
  out.writeUInt32LE(header, 10)
  out.writeUInt32LE(alpha ? V4_HEADER : INFO_HEADER, 14)
  out.writeInt32LE(width, 18)
  out.writeInt32LE(height, 22)
  out.writeUInt16LE(1, 26)
  out.writeUInt16LE(bytesPerPixel * 8, 28)
  out.writeUInt32LE(alpha ? 3 : 0, 30) // BI_BITFIELDS : BI_RGB
  out.writeUInt32LE(stride * height, 34)
  out.writeInt32LE(2835, 38) // 72 DPI in pixels per metre
  out.writeInt32LE(2835, 42)
  if (alpha) {
    out.writeUInt32LE(0x00ff0000, 54)
    out.writeUInt32LE(0x0000ff00, 58)
    out.writeUInt32LE(0x000000ff, 62)
    out.writeUInt32LE(0xff000000, 66)
    out.write('BGRs', 70, 'latin1') // LCS_sRGB, stored little-endian
  }
  for (let y = 0; y < height; y++) {
    let target = header + (height - 1 - y) * stride
    let source = y * width * channels
    for (let x = 0; x < width; x++) {
      const red = data[source] ?? 0
      const green = grey ? red : (data[source + 1] ?? 0)
      const blue = grey ? red : (data[source + 2] ?? 0)
      out[target] = blue
      out[target + 1] = green
      out[target + 2] = red
      if (alpha) out[target + 3] = data[source + channels - 1] ?? 255
      target += bytesPerPixel
      source += channels
    }
  }
  return out
}
