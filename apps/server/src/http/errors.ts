/** An error with the HTTP status and stable code the server answers with (`{ code, message }`). */
export class HttpError extends Error {
  readonly status: number
  readonly code: string
  /** Extra headers for the answer, e.g. `Retry-After`. */
  readonly headers: Record<string, string>

  constructor(
    status: number,
    code: string,
    message: string,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'HttpError'
    this.status = status
    this.code = code
    this.headers = options?.headers ?? {}
  }
}

/** Escapes text for XML (the error image is SVG). */
function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * A small SVG that shows the status and message, for clients that asked for an image (an
 * `<img>` shows it instead of a broken-image icon).
 */
export function errorImage(status: number, message: string): string {
  const lines = message.match(/.{1,48}(\s|$)/g)?.slice(0, 4) ?? [message.slice(0, 48)]
  const text = lines
    .map(
      (line, i) =>
        `<text x="16" y="${64 + i * 20}" font-size="14">${escapeXml(line.trim())}</text>`,
    )
    .join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="160" viewBox="0 0 400 160"><rect width="400" height="160" fill="#f4f4f5"/><g font-family="sans-serif" fill="#3f3f46"><text x="16" y="36" font-size="18" font-weight="bold">Error ${status}</text>${text}</g></svg>`
}

/** True when the client prefers an image to JSON (an `<img>` request or an image Accept header). */
export function wantsImage(accept: string | undefined, secFetchDest: string | undefined): boolean {
  if (secFetchDest === 'image') return true
  if (accept === undefined) return false
  const first = accept.split(',')[0]?.trim().toLowerCase() ?? ''
  return first.startsWith('image/')
}
