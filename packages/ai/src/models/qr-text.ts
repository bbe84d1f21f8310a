// The text of QR codes as people mean it. Delivery URLs carry text percent-encoded (a space is
// `%20`), and codes made by other tools often hold text encoded the same way; only a URL keeps
// its percent-encoding, which is part of the URL.

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i
const ESCAPE = /%[0-9a-f]{2}/i

/** `text` percent-decoded, unless it is a URL or does not decode to valid UTF-8. */
export function readableText(text: string): string {
  if (URL_LIKE.test(text) || !ESCAPE.test(text)) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The text of `qr.generate`'s `i`: base64url as Pixelbin passes free text, else plain text
 * (percent-decoded, see `readableText`). */
export function decodeQrInput(value: string): string {
  if (/^[A-Za-z0-9_-]+={0,2}$/.test(value) && value.length % 4 !== 1) {
    const decoded = Buffer.from(value, 'base64url').toString('utf8')
    const again = Buffer.from(decoded, 'utf8').toString('base64url')
    if (again === value.replace(/=+$/, '') && !decoded.includes('\ufffd')) return decoded
  }
  return readableText(value)
}
