import { createRequire } from 'node:module'
import type QRCodeModule from 'qrcode'
import type { AiImage } from '../image.ts'
import { readableText } from './qr-text.ts'

const require = createRequire(import.meta.url)
// Both are CommonJS modules whose declarations describe an ES default export.
const jsQR = require('jsqr') as typeof import('jsqr').default
const QRCode = require('qrcode') as typeof QRCodeModule

/** A QR code found in an image. */
export interface QrCode {
  /** The text, percent-decoded unless it is a URL (`hello%20world` reads `hello world`). */
  text: string
  /** The text exactly as the code holds it. */
  raw: string
  /** Corners in pixels. */
  corners: { x: number; y: number }[]
}

/** Reads the QR code in an RGBA image (jsQR), or returns undefined when there is none. */
export function scanQr(image: AiImage): QrCode | undefined {
  if (image.channels !== 4) throw new Error('the QR reader takes RGBA pixels')
  const data = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length)
  const found = jsQR(data, image.width, image.height)
  if (found === null) return undefined
  const { topLeftCorner, topRightCorner, bottomRightCorner, bottomLeftCorner } = found.location
  return {
    text: readableText(found.data),
    raw: found.data,
    corners: [topLeftCorner, topRightCorner, bottomRightCorner, bottomLeftCorner].map(
      ({ x, y }) => ({ x, y }),
    ),
  }
}

/** Options of `generateQr`. */
export interface QrOptions {
  text: string
  /** Side of the square code image in pixels. */
  size: number
  /** Quiet zone in modules. */
  margin: number
  errorCorrection: 'L' | 'M' | 'Q' | 'H'
  /** `#rrggbbaa` colours. */
  dark: string
  light: string
}

/** Draws a QR code as a PNG (node-qrcode). */
export async function generateQr(options: QrOptions): Promise<Buffer> {
  return await QRCode.toBuffer(options.text, {
    type: 'png',
    width: options.size,
    margin: options.margin,
    errorCorrectionLevel: options.errorCorrection,
    color: { dark: options.dark, light: options.light },
  })
}
