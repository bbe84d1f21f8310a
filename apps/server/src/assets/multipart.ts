// Reading a direct upload (multipart/form-data): the `file` part streamed to storage while its
// hash is taken, a few short fields, and every way the body can go wrong answered as a 4xx with
// nothing left behind.
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { PassThrough, type Readable } from 'node:stream'
import busboy from 'busboy'
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { StorageError } from '../storage/index.ts'

/**
 * How many parts a direct upload may have: the file, and a few fields of at most 4 KB (Pixelbin's
 * SDK sends one `tags` field per tag, so a tagged upload needs a few dozen).
 */
export const MULTIPART_LIMITS = { files: 1, fields: 40, fieldSize: 4096, parts: 42 } as const

export interface Received {
  fields: Record<string, string>
  /** Every value of each field, in order (a field sent more than once, such as `tags`). */
  lists: Record<string, string[]>
  file: { size: number; hash: string; originalName: string | undefined } | undefined
}

const malformed = (cause: unknown) =>
  new HttpError(400, 'invalid_multipart', 'The multipart body is malformed', { cause })

/** The 413 of a file over `UPLOAD_MAX_BYTES`. */
export function tooLargeError(maxBytes: number, cause?: unknown): HttpError {
  return new HttpError(413, 'too_large', `The file is larger than ${maxBytes} bytes`, { cause })
}

/** What a failed upload answers: its own HttpError, a size limit as 413, anything else as is. */
export function uploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof HttpError) return error
  if (error instanceof StorageError && error.code === 'too_large') {
    return tooLargeError(maxBytes, error)
  }
  // The part stream failed while storage read it (the body was cut inside the file).
  if (!(error instanceof StorageError)) return malformed(error)
  return error
}

/**
 * Reads a multipart upload, streaming its `file` part to `storageKey`. Every way the body can go
 * wrong (cut short, malformed, too many parts, too large, the client gone) ends here as an
 * HttpError, after the streams are destroyed and anything written is deleted: an error event
 * nobody listens to would end the process, and a stream nobody ends keeps its file open.
 */
export function receiveMultipart(
  app: Pick<AppContext, 'storage' | 'config' | 'logger'>,
  request: IncomingMessage,
  storageKey: string,
): Promise<Received> {
  const { storage, config } = app
  const tooLarge = () => tooLargeError(config.uploadMaxBytes)
  return new Promise<Received>((resolve, reject) => {
    let parser: busboy.Busboy
    try {
      parser = busboy({
        headers: request.headers,
        limits: { ...MULTIPART_LIMITS, fileSize: config.uploadMaxBytes },
      })
    } catch (error) {
      reject(malformed(error))
      return
    }
    const fields: Record<string, string> = {}
    const lists: Record<string, string[]> = {}
    let part: Readable | undefined
    let body: PassThrough | undefined
    let stored: Promise<{ size: number; hash: string }> | undefined
    let originalName: string | undefined
    let failed = false

    const fail = (error: unknown) => {
      if (failed) return
      failed = true
      request.unpipe(parser)
      parser.destroy()
      part?.destroy()
      body?.destroy()
      // Whatever the client still sends is read and dropped, so the answer can reach it.
      if (!request.destroyed) request.resume()
      const written = stored ?? Promise.resolve()
      void written
        .catch(() => undefined)
        .then(() => storage.delete(storageKey))
        .catch((cause: unknown) =>
          app.logger.warn({ err: cause, storageKey }, 'a refused upload could not be removed'),
        )
        .finally(() => reject(uploadError(error, config.uploadMaxBytes)))
    }

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) {
        fail(
          new HttpError(
            400,
            'field_too_long',
            `A field is longer than ${MULTIPART_LIMITS.fieldSize} bytes`,
          ),
        )
        return
      }
      fields[name] = value
      const list = lists[name]
      if (list === undefined) lists[name] = [value]
      else list.push(value)
    })
    parser.on('file', (name, stream, info) => {
      // Every part stream can fail (a body cut inside it); unheard, that error ends the process.
      stream.on('error', (error) => fail(malformed(error)))
      if (name !== 'file' || part !== undefined || failed) {
        stream.resume()
        return
      }
      part = stream
      originalName = info.filename
      const hash = createHash('sha256')
      const sink = new PassThrough()
      body = sink
      sink.on('error', () => undefined) // put reports it; this only keeps it from being unheard
      stream.on('data', (chunk: Buffer) => hash.update(chunk))
      stream.on('limit', () => fail(tooLarge()))
      stream.pipe(sink)
      stored = storage
        .put(storageKey, sink, { maxBytes: config.uploadMaxBytes })
        .then(({ size }) => ({ size, hash: hash.digest('hex') }))
      stored.catch((error: unknown) => fail(error))
    })
    // Each of busboy's limits is refused with its own code.
    const { fields: maxFields, parts: maxParts } = MULTIPART_LIMITS
    const refusals = [
      ['fieldsLimit', 'too_many_fields', `Send at most ${maxFields} fields besides the file`],
      ['filesLimit', 'too_many_files', 'Send one file per upload'],
      ['partsLimit', 'too_many_parts', `Send at most ${maxParts} parts in one upload`],
    ] as const
    for (const [limit, code, message] of refusals) {
      parser.on(limit, () => fail(new HttpError(400, code, message)))
    }
    parser.on('error', (error) => fail(malformed(error)))
    parser.on('close', () => {
      if (failed) return
      if (stored === undefined) {
        resolve({ fields, lists, file: undefined })
        return
      }
      stored.then(
        (result) => {
          if (!failed) resolve({ fields, lists, file: { ...result, originalName } })
        },
        (error: unknown) => fail(error),
      )
    })
    const interrupted = () =>
      fail(new HttpError(400, 'invalid_multipart', 'The upload was interrupted'))
    request.on('aborted', interrupted)
    request.on('error', interrupted)
    request.on('close', () => {
      if (!request.complete) interrupted()
    })
    request.pipe(parser)
  })
}
