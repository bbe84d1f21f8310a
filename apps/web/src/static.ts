import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import { Readable } from 'node:stream'
import { parseRange } from '@tessera/url'
import {
  chooseEncoding,
  createCompressedFileCache,
  isCompressible,
  MIN_COMPRESS_BYTES,
} from './compress.ts'

/** SPEC §9: static assets live under this prefix. */
export const STATIC_PREFIX = '/static/'

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.map': 'application/json; charset=utf-8',
}

const notFound = () =>
  new Response(JSON.stringify({ code: 'not_found', message: 'No such static file' }), {
    status: 404,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  })

/**
 * Serves files of `root` for `/static/<name>`. Every file there is content-hashed by the build,
 * so a name never changes meaning: cache it for a year and never revalidate. Text files (scripts,
 * styles, SVG) are answered brotli- or gzip-compressed when the client accepts it.
 */
export function createStaticHandler(root: string): (request: Request) => Promise<Response> {
  const base = normalize(root.endsWith(sep) ? root : `${root}${sep}`)
  const compressed = createCompressedFileCache()
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } })
    }
    let name: string
    try {
      name = decodeURIComponent(new URL(request.url).pathname.slice(STATIC_PREFIX.length))
    } catch {
      return notFound()
    }
    const file = normalize(join(base, name))
    if (!file.startsWith(base) || name.includes('\0')) return notFound()
    const info = await stat(file).catch(() => undefined)
    if (info === undefined || !info.isFile()) return notFound()
    const contentType = TYPES[extname(file)] ?? 'application/octet-stream'
    const headers: Record<string, string> = {
      'content-type': contentType,
      'content-length': String(info.size),
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    }
    if (isCompressible(contentType)) {
      headers.vary = 'Accept-Encoding'
      const encoding = chooseEncoding(request.headers.get('accept-encoding'))
      if (encoding !== undefined && info.size >= MIN_COMPRESS_BYTES) {
        const body = await compressed(file, encoding)
        headers['content-encoding'] = encoding
        headers['content-length'] = String(body.length)
        return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { headers })
      }
    }
    // Byte ranges for what is sent as stored (a video is fetched in ranges; Safari plays none
    // without them). Compressed answers above are whole files.
    headers['accept-ranges'] = 'bytes'
    const rangeHeader = request.headers.get('range')
    const range = rangeHeader === null ? undefined : parseRange(rangeHeader, info.size)
    if (range === 'unsatisfiable') {
      return new Response(null, {
        status: 416,
        headers: { 'content-range': `bytes */${info.size}`, 'cache-control': 'no-store' },
      })
    }
    if (range !== undefined) {
      headers['content-range'] = `bytes ${range.start}-${range.end}/${info.size}`
      headers['content-length'] = String(range.end - range.start + 1)
    }
    const status = range === undefined ? 200 : 206
    if (request.method === 'HEAD') return new Response(null, { status, headers })
    const stream = createReadStream(file, range === undefined ? {} : range)
    return new Response(Readable.toWeb(stream) as ReadableStream, { status, headers })
  }
}
