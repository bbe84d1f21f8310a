// Answers of delivery: cache headers, ETag checks (RFC 9110), 304, the original file (ranges,
// HEAD without opening it) and the image bytes, and the 202 of a queued transformation.
import { Readable } from 'node:stream'
import { isImageFormat, isVideoFormat, parseRange } from '@tessera/url'
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import type { DeliveryRequest, FileRow } from './resolve.ts'

function toWebStream(body: Readable): ReadableStream<Uint8Array> {
  return Readable.toWeb(body) as ReadableStream<Uint8Array>
}

/**
 * Whether an `If-None-Match` header matches `etag` (RFC 9110 §13.1.2): `*` matches any current
 * representation, a list matches when any member does, and the comparison is weak (`W/"x"`
 * matches `"x"`), as a GET's must be.
 */
export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (header === null) return false
  const trimmed = header.trim()
  if (trimmed === '*') return true
  const opaque = etag.replace(/^W\//, '')
  return trimmed.split(',').some((member) => member.trim().replace(/^W\//, '') === opaque)
}

/** The headers every delivered image carries: its ETag, caching for `maxAge` s, `Vary`. */
export function cacheHeaders(etag: string, vary: string[], maxAge: number): Record<string, string> {
  const headers: Record<string, string> = {
    etag,
    'cache-control': `public, max-age=${maxAge}`,
    'x-content-type-options': 'nosniff',
  }
  if (vary.length > 0) headers.vary = vary.join(', ')
  return headers
}

/** 304 with the image's headers. */
export function notModified(headers: Record<string, string>): Response {
  return new Response(null, { status: 304, headers })
}

/**
 * 200 with the image's bytes (none for HEAD). A video answers a `Range` (its `range` header):
 * 206 with the part, 416 for a range outside it; players seek with ranges.
 */
export function imageResponse(
  method: string,
  data: Buffer,
  contentType: string,
  headers: Record<string, string>,
  range?: string | null,
): Response {
  headers['content-type'] = contentType
  let part = data
  let status = 200
  if (contentType.startsWith('video/')) {
    headers['accept-ranges'] = 'bytes'
    const asked = range === undefined || range === null ? undefined : parseRange(range, data.length)
    if (asked === 'unsatisfiable') {
      return new Response(null, {
        status: 416,
        headers: { ...headers, 'content-range': `bytes */${data.length}` },
      })
    }
    if (asked !== undefined) {
      part = data.subarray(asked.start, asked.end + 1)
      headers['content-range'] = `bytes ${asked.start}-${asked.end}/${data.length}`
      status = 206
    }
  }
  headers['content-length'] = String(part.length)
  const body = method === 'HEAD' ? null : new Uint8Array(part.buffer, part.byteOffset, part.length)
  return new Response(body, { status, headers })
}

/** 202: the transformation runs as job `jobId`; the client asks again (SPEC §4). */
export function processingResponse(jobId: string): Response {
  return new Response(JSON.stringify({ status: 'processing', jobId }), {
    status: 202,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'retry-after': '1',
      'cache-control': 'no-store',
    },
  })
}

/**
 * Documents delivered inline as they are: plain text (`text/plain; charset=utf-8`; `nosniff`,
 * sent on every answer, keeps it text). A PDF original stays an attachment: it may carry
 * scripts, and this origin never shows one; its pages are delivered as images.
 */
const INLINE_DOCUMENTS: ReadonlySet<string> = new Set(['txt'])

// Originals that browsers do not show: `original` delivers them converted (docs/delivery.md).
const CONVERTED_ORIGINALS: ReadonlySet<string> = new Set(['heif', 'heic', 'tiff'])

/**
 * Whether `original` of this file is derived (HEIC/HEIF, TIFF: in a format browsers show) rather
 * than served as stored. A transformation of a text file is refused: text is delivered as is.
 *
 * @throws {HttpError} 415 `unsupported_format` for a text file with a transformation.
 */
export function convertsOriginal(file: Pick<FileRow, 'format'>, operations: number): boolean {
  if (file.format === 'txt' && operations > 0) {
    throw new HttpError(
      415,
      'unsupported_format',
      'Text files are delivered as they are: use original (transformations apply to images and PDFs)',
    )
  }
  return CONVERTED_ORIGINALS.has(file.format)
}

/** The original file: ranges, 304 and HEAD without opening it; raw files as attachments. */
export async function serveOriginal(
  app: Pick<AppContext, 'storage' | 'metrics' | 'config'>,
  request: DeliveryRequest,
  file: FileRow,
  extra: { headers: Record<string, string>; varyOrigin: boolean } = {
    headers: {},
    varyOrigin: false,
  },
): Promise<Response> {
  const { storage, metrics } = app
  const etag = `"${file.hash}"`
  const headers = {
    ...cacheHeaders(etag, extra.varyOrigin ? ['Origin'] : [], app.config.cacheMaxAge),
    ...extra.headers,
  }
  headers['accept-ranges'] = 'bytes'
  headers['content-type'] = file.contentType
  // Raw files as attachments; images, videos and plain text inline.
  if (
    !isImageFormat(file.format) &&
    !isVideoFormat(file.format) &&
    !INLINE_DOCUMENTS.has(file.format)
  ) {
    headers['content-disposition'] = 'attachment'
  }
  // An SVG original is served as a document that can run nothing, even if opened directly.
  if (file.format === 'svg') {
    headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
  }
  if (ifNoneMatchMatches(request.headers.get('if-none-match'), etag)) {
    metrics.cache.inc({ result: 'not_modified' })
    return notModified(headers)
  }
  const rangeHeader = request.headers.get('range')
  const range = rangeHeader === null ? undefined : parseRange(rangeHeader, file.size)
  if (range === 'unsatisfiable') {
    return new Response(null, {
      status: 416,
      headers: { 'content-range': `bytes */${file.size}` },
    })
  }
  // HEAD opens nothing: an unread stream would hold its file open.
  const stored =
    request.method === 'HEAD'
      ? await storage
          .stat(file.storageKey)
          .then((stat) => stat && { body: undefined, size: stat.size })
      : await storage.stream(file.storageKey, range)
  if (stored === undefined)
    throw new HttpError(404, 'not_found', 'The file is missing from storage')
  const body = stored.body === undefined ? null : toWebStream(stored.body)
  if (range !== undefined) {
    headers['content-range'] = `bytes ${range.start}-${range.end}/${stored.size}`
    headers['content-length'] = String(range.end - range.start + 1)
    return new Response(body, { status: 206, headers })
  }
  headers['content-length'] = String(stored.size)
  return new Response(body, { status: 200, headers })
}
