// Compression of the website's text responses: pages are compressed as they stream (flushed
// chunk by chunk, so streamed HTML still arrives early), and the content-hashed static files
// once per process, at the highest brotli quality, then answered from memory.
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import {
  type BrotliCompress,
  brotliCompress,
  constants,
  createBrotliCompress,
  createGzip,
  type Gzip,
  gzip,
} from 'node:zlib'

export type Encoding = 'br' | 'gzip'

/** Bodies smaller than this are sent as they are (compression would not pay for its headers). */
export const MIN_COMPRESS_BYTES = 1024

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/i

/** True for content types worth compressing (text, JSON, JavaScript, XML, SVG). */
export function isCompressible(contentType: string | null): boolean {
  return contentType !== null && COMPRESSIBLE.test(contentType)
}

/** The encoding to answer with for an `Accept-Encoding` header: brotli, then gzip, or none. */
export function chooseEncoding(acceptEncoding: string | null): Encoding | undefined {
  if (acceptEncoding === null) return undefined
  const accepted = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    accepted.set(name.trim(), Number.isFinite(weight) ? weight : 0)
  }
  const weight = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0
  if (weight('br') > 0) return 'br'
  if (weight('gzip') > 0) return 'gzip'
  return undefined
}

function addVary(headers: Headers): void {
  const vary = headers.get('vary')
  if (vary === null) headers.set('vary', 'Accept-Encoding')
  else if (!/\baccept-encoding\b/i.test(vary)) headers.set('vary', `${vary}, Accept-Encoding`)
}

/** A streaming compressor that flushes after every chunk (the page's stream keeps its pace). */
function compressStream(encoding: Encoding): TransformStream<Uint8Array, Uint8Array> {
  let zlib: BrotliCompress | Gzip
  const pending: Uint8Array[] = []
  // A client that goes away mid-page closes the stream while zlib still holds output: the
  // enqueue then throws inside a zlib callback, where nothing would catch it (and an uncaught
  // exception ends the process). Drop the output and stop the compressor instead.
  const drain = (controller: TransformStreamDefaultController<Uint8Array>) => {
    try {
      for (const chunk of pending.splice(0)) controller.enqueue(chunk)
    } catch {
      pending.length = 0
      zlib.destroy()
    }
  }
  return new TransformStream({
    start() {
      zlib =
        encoding === 'br'
          ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
          : createGzip({ level: 6 })
      zlib.on('data', (chunk: Buffer) => pending.push(new Uint8Array(chunk)))
      // Errors reach the write and end callbacks; without a listener, one emitted after the
      // client left would be thrown where nothing catches it.
      zlib.on('error', () => {})
    },
    transform(chunk, controller) {
      return new Promise<void>((resolve, reject) => {
        zlib.write(chunk, (error) => {
          if (error) return reject(error)
          const mode = encoding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH
          zlib.flush(mode, () => {
            drain(controller)
            resolve()
          })
        })
      })
    },
    flush(controller) {
      return new Promise<void>((resolve, reject) => {
        zlib.once('error', reject)
        zlib.once('end', () => {
          drain(controller)
          resolve()
        })
        zlib.end()
      })
    },
  })
}

/**
 * Compresses a response's body for the request when the client accepts it and the body is
 * compressible text; anything else is returned unchanged.
 */
export function compressResponse(request: Request, response: Response): Response {
  if (request.method === 'HEAD' || response.body === null) return response
  if (response.status < 200 || response.status === 204 || response.status === 206) return response
  const headers = new Headers(response.headers)
  if (headers.has('content-encoding') || !isCompressible(headers.get('content-type'))) {
    return response
  }
  addVary(headers)
  const length = headers.get('content-length')
  const encoding = chooseEncoding(request.headers.get('accept-encoding'))
  if (encoding === undefined || (length !== null && Number(length) < MIN_COMPRESS_BYTES)) {
    return new Response(response.body, { status: response.status, headers })
  }
  headers.delete('content-length')
  headers.set('content-encoding', encoding)
  return new Response(response.body.pipeThrough(compressStream(encoding)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}

const brotliOnce = promisify(brotliCompress)
const gzipOnce = promisify(gzip)

/**
 * Compressed copies of immutable files, kept in memory once read: the build's own copy beside
 * the file (`<file>.br` / `<file>.gz`, see precompress.ts) when there is one, else made once here
 * (brotli at quality 11, gzip at 9). The static files are content-hashed, so a path's bytes never
 * change while the build stays.
 */
export function createCompressedFileCache(): (file: string, encoding: Encoding) => Promise<Buffer> {
  const cache = new Map<string, Promise<Buffer>>()
  const make = async (file: string, encoding: Encoding) => {
    const data = await readFile(file)
    return encoding === 'br'
      ? brotliOnce(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        })
      : gzipOnce(data, { level: 9 })
  }
  return (file, encoding) => {
    const key = `${encoding}:${file}`
    let entry = cache.get(key)
    if (entry === undefined) {
      const built = readFile(`${file}.${encoding === 'br' ? 'br' : 'gz'}`)
      entry = built.catch(() => make(file, encoding))
      entry.catch(() => cache.delete(key))
      cache.set(key, entry)
    }
    return entry
  }
}
