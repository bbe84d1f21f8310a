// Signed upload URLs (decision 016): an organisation's backend (or its console) asks for a URL;
// a browser or a mobile app then uploads to it without any other credential, either in one
// multipart POST (Pixelbin's v1, `s3PresignedUrl`) or in numbered parts and a completion call
// (v2, `presignedUrl`, what `@pixelbin/admin`'s `uploader.upload` does). Parts are stored apart
// and counted against UPLOAD_MAX_BYTES; completion joins them in order into one object and hands
// it to the upload checks every file passes (type, pixels, SVG safety). A URL is used once,
// expires, and leaves nothing behind when it fails or is abandoned (housekeeping).
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import { sha256 } from '../accounts/auth.ts'
import { sniffType } from '../assets/files.ts'
import { receiveMultipart } from '../assets/multipart.ts'
import type { Assets } from '../assets/upload.ts'
import type { AppContext } from '../context.ts'
import type { Organisation, SignedUpload, SignedUploadFields } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { invalid, readSignedUrlRequest, type SignedUrlRequest } from './signed-upload-request.ts'

/** Where signed uploads are received: `…/{uploadId}?signature=…` (no other credential). */
export const SIGNED_UPLOAD_BASE = '/service/public/assets/v1.0/signed-uploads'
/** The largest part (bounded by UPLOAD_MAX_BYTES too): 16 MiB, above the SDK's 10 MB chunks. */
export const PART_MAX_BYTES = 16 * 1024 * 1024
/** The highest part number (S3's). */
export const MAX_PART_NUMBER = 10_000

function incoming(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
}

const notFound = () =>
  new HttpError(404, 'upload_not_found', 'No signed upload at this URL (or its signature is wrong)')

export type SignedUploads = ReturnType<typeof createSignedUploads>

export function createSignedUploads(app: AppContext, { assets }: { assets: Assets }) {
  const { repo, storage, config } = app
  const partLimit = Math.min(PART_MAX_BYTES, config.uploadMaxBytes)

  /** A new signed upload of `organisation`: its URL (the secret in it) and the echoed fields. */
  async function create(organisation: Pick<Organisation, 'id'>, version: 1 | 2, body: unknown) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError(400, 'invalid_body', 'The body must be a JSON object')
    }
    const { fields, expirySeconds } = readSignedUrlRequest(body as SignedUrlRequest)
    const secret = randomBytes(32).toString('base64url')
    const expiresAt = new Date(Date.now() + expirySeconds * 1000)
    const upload = await repo.createSignedUpload({
      organisationId: organisation.id,
      version,
      secretHash: sha256(secret),
      fields,
      expiresAt,
    })
    const url = `${config.publicUrl}${SIGNED_UPLOAD_BASE}/${upload.id}?signature=${secret}`
    // Echoed back by the client with every part and the completion; informative only: what the
    // upload stores was fixed here, in the database.
    const echoed = {
      'x-tessera-upload': upload.id,
      'x-tessera-expires': expiresAt.toISOString(),
      'x-tessera-assetdata': JSON.stringify({ ...fields, version }),
    }
    return { url, fields: echoed, expiresAt }
  }

  /** The upload a request's URL names, when its signature is right; 404 otherwise. */
  async function authorise(c: Context): Promise<SignedUpload> {
    const signature = c.req.query('signature')
    if (signature === undefined || signature === '') {
      throw invalid('signature', 'is required: use the whole URL createSignedUrl gave')
    }
    const upload = await repo.findSignedUpload(c.req.param('uploadId') ?? '')
    if (upload === undefined || sha256(signature) !== upload.secretHash) throw notFound()
    if (upload.status === 'done') {
      throw new HttpError(409, 'upload_used', 'This upload URL was already used; ask for a new one')
    }
    if (upload.status !== 'open') {
      throw new HttpError(
        409,
        'upload_closed',
        `This upload is ${upload.status === 'failed' ? 'failed' : 'being completed'}; ask for a new URL`,
      )
    }
    if (upload.expiresAt.getTime() <= Date.now()) {
      throw new HttpError(410, 'upload_expired', 'This upload URL has expired; ask for a new one')
    }
    return upload
  }

  function readPartNumber(c: Context): number {
    const text = c.req.query('partNumber')
    if (text === undefined) throw invalid('partNumber', 'is required (…?partNumber=1)')
    const number = Number(text)
    if (!/^[0-9]+$/.test(text) || number < 1 || number > MAX_PART_NUMBER) {
      throw invalid('partNumber', `must be a whole number from 1 to ${MAX_PART_NUMBER}`)
    }
    return number
  }

  /** PUT …?partNumber=N: one part, multipart with a `file` part (the fields are ignored). */
  /**
   * `authorise`, reading and dropping the body of a refused request as it comes: a browser still
   * sending its part would otherwise see the connection cut instead of the answer.
   */
  async function authoriseOrDrain<T>(c: Context, check: () => Promise<T>): Promise<T> {
    try {
      return await check()
    } catch (error) {
      const request = incoming(c)
      if (request !== undefined && !request.readableEnded) request.resume()
      throw error
    }
  }

  /** The checks of a part before its body is read: the URL, its kind, the number, the type. */
  async function partTarget(c: Context) {
    const upload = await authorise(c)
    if (upload.version !== 2) {
      throw new HttpError(
        400,
        'wrong_upload_kind',
        'This URL takes the whole file in one multipart POST (createSignedUrl); parts need createSignedUrlV2',
      )
    }
    const partNumber = readPartNumber(c)
    const request = incoming(c)
    const contentType = c.req.header('content-type') ?? ''
    if (request === undefined || !contentType.toLowerCase().startsWith('multipart/form-data')) {
      throw new HttpError(415, 'unsupported_media_type', 'Send the part as multipart/form-data')
    }
    return { upload, partNumber, request }
  }

  async function putPart(c: Context): Promise<Response> {
    const { upload, partNumber, request } = await authoriseOrDrain(c, () => partTarget(c))
    const storageKey = `orgs/${upload.organisationId}/uploads/${upload.id}/${partNumber}-${randomUUID()}`
    let received: Awaited<ReturnType<typeof receiveMultipart>>
    try {
      received = await receiveMultipart(
        { ...app, config: { ...config, uploadMaxBytes: partLimit } },
        request,
        storageKey,
      )
    } catch (error) {
      if (error instanceof HttpError && error.code === 'too_large') {
        throw new HttpError(413, 'part_too_large', `A part may hold at most ${partLimit} bytes`)
      }
      throw error
    }
    const file = received.file
    if (file === undefined) {
      throw new HttpError(400, 'missing_file', "Send the part's bytes in a part named 'file'")
    }
    const drop = () => storage.delete(storageKey).catch(() => undefined)
    if (file.size === 0) {
      await drop()
      throw new HttpError(400, 'empty_part', 'A part must hold at least one byte')
    }
    const added = await repo.addSignedUploadPart(
      { uploadId: upload.id, partNumber, size: file.size, hash: file.hash, storageKey },
      config.uploadMaxBytes,
    )
    if ('refused' in added) {
      await drop()
      // The same bytes again (a retry whose answer was lost) are fine; other bytes are not.
      if (added.refused === 'duplicate' && added.existing?.hash === file.hash) {
        return c.json({ partNumber, size: file.size, duplicate: true })
      }
      if (added.refused === 'duplicate') {
        throw new HttpError(
          409,
          'duplicate_part',
          `Part ${partNumber} was already uploaded with other bytes`,
        )
      }
      // Over the total, or the upload left `open` (expired, completed) while this part came in.
      const now = await repo.findSignedUpload(upload.id)
      if (now?.status === 'open' && now.expiresAt.getTime() > Date.now()) {
        throw new HttpError(
          413,
          'too_large',
          `The parts together would be larger than ${config.uploadMaxBytes} bytes`,
        )
      }
      throw new HttpError(409, 'upload_closed', 'This upload is no longer open for parts')
    }
    return c.json({ partNumber, size: file.size })
  }

  /** Joins the stored parts in order into one new object; its size and sha256. */
  async function join(organisationId: string, keys: string[]) {
    const target = `orgs/${organisationId}/originals/${randomUUID()}`
    const hash = createHash('sha256')
    async function* bytes() {
      for (const key of keys) {
        const found = await storage.stream(key)
        if (found === undefined) {
          throw new HttpError(409, 'missing_part', 'A stored part is gone; upload again')
        }
        found.body.on('error', () => undefined)
        for await (const chunk of found.body) {
          hash.update(chunk as Buffer)
          yield chunk as Uint8Array
        }
      }
    }
    const { size } = await storage.put(target, bytes(), { maxBytes: config.uploadMaxBytes })
    return { storageKey: target, size, hash: hash.digest('hex') }
  }

  /** A free name for `filenameOverride`: the asked one, or it with a few random characters. */
  async function freeName(
    organisationId: string,
    fields: SignedUploadFields,
    format: string | undefined,
  ) {
    if (!fields.filenameOverride || fields.overwrite || fields.name === undefined) {
      return fields.name
    }
    const extension = format === 'jpeg' ? 'jpg' : format
    if (extension === undefined) return fields.name
    const pathOf = (name: string) =>
      `${fields.path === '' ? '' : `${fields.path}/`}${name}.${extension}`
    if ((await repo.findFile(organisationId, pathOf(fields.name))) === undefined) return fields.name
    return `${fields.name}_${randomBytes(4).toString('hex')}`
  }

  /**
   * Stores the received object as the upload's file, with every check of a direct upload; an
   * object whose bytes are not the format the URL was made for is refused before it is recorded,
   * and with `filenameOverride` a taken name gets a few characters (the format read from the
   * bytes). Whatever fails, the object is deleted.
   */
  async function store(
    upload: SignedUpload,
    received: { storageKey: string; size: number; hash: string },
    originalName: string | undefined,
  ) {
    const { fields } = upload
    const organisation = await repo.findOrganisationById(upload.organisationId)
    let name: string | undefined
    try {
      if (organisation === undefined) throw notFound()
      let format = fields.format
      const renames = fields.filenameOverride && !fields.overwrite && fields.name !== undefined
      if (format !== undefined || renames) {
        const data = await storage.get(received.storageKey)
        const type = data === undefined ? undefined : await sniffType(data).catch(() => undefined)
        if (type !== undefined && format !== undefined && type.format !== format) {
          throw new HttpError(
            415,
            'unexpected_type',
            `The upload is ${type.format}, but its URL was made for ${format}`,
          )
        }
        format = type?.format ?? format
      }
      name = await freeName(organisation.id, fields, format)
    } catch (error) {
      await storage.delete(received.storageKey).catch(() => undefined)
      throw error
    }
    return assets.finish(
      organisation,
      received.storageKey,
      received.hash,
      received.size,
      {
        path: fields.path,
        name,
        overwrite: fields.overwrite,
        access: fields.access,
        tags: fields.tags,
        metadata: fields.metadata,
      },
      originalName,
    )
  }

  /** Removes an upload's stored parts and their rows (after completing or failing). */
  async function dropParts(uploadId: string, keys: string[]) {
    await Promise.allSettled(keys.map((key) => storage.delete(key)))
    await repo.deleteSignedUploadParts(uploadId)
  }

  /**
   * POST: with JSON `{ parts: [1..n], …fields }`, completes a v2 upload from its parts; with
   * multipart (fields + `file`), stores a v1 upload's whole file. Either way the URL is spent.
   */
  async function complete(c: Context): Promise<Response> {
    const upload = await authoriseOrDrain(c, () => authorise(c))
    const contentType = (c.req.header('content-type') ?? '').toLowerCase()
    if (contentType.startsWith('multipart/form-data')) return completeWhole(c, upload)
    if (upload.version !== 2) {
      throw new HttpError(
        415,
        'unsupported_media_type',
        'Send the file as multipart/form-data (fields and a part named file) to this URL',
      )
    }
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      throw new HttpError(400, 'invalid_json', 'Send a JSON body { parts: [1, 2, …] }')
    }
    const listed = (body as { parts?: unknown } | null)?.parts
    if (!Array.isArray(listed) || listed.length === 0) {
      throw new HttpError(400, 'no_parts', 'parts must list the uploaded part numbers: [1, 2, …]')
    }
    for (const [index, value] of listed.entries()) {
      if (value !== index + 1) {
        throw new HttpError(
          400,
          'invalid_parts',
          `parts must be 1, 2, … ${listed.length} in order, each once; item ${index + 1} is ${JSON.stringify(value)}`,
        )
      }
    }
    const stored = await repo.listSignedUploadParts(upload.id)
    const missing = listed.filter((n) => !stored.some((part) => part.partNumber === n))
    if (missing.length > 0) {
      throw new HttpError(
        400,
        'missing_part',
        `Part${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')} ${missing.length > 1 ? 'were' : 'was'} not uploaded`,
      )
    }
    const extra = stored.filter((part) => part.partNumber > listed.length)
    if (extra.length > 0) {
      throw new HttpError(
        400,
        'unlisted_part',
        `Part ${extra[0]?.partNumber} was uploaded but is not listed in parts`,
      )
    }
    // One completion wins; a second (or a part arriving now) finds the upload closed.
    const claimed = await repo.moveSignedUpload(upload.id, 'open', 'completing')
    if (claimed === undefined) return c.json(await closedError(upload.id), 409)
    const keys = stored.map((part) => part.storageKey)
    try {
      const joined = await join(upload.organisationId, keys)
      const record = await store(upload, joined, undefined)
      await repo.moveSignedUpload(upload.id, 'completing', 'done', record.fileId)
      await dropParts(upload.id, keys)
      return c.json(record)
    } catch (error) {
      await repo.moveSignedUpload(upload.id, 'completing', 'failed')
      await dropParts(upload.id, keys)
      throw error
    }
  }

  async function closedError(uploadId: string) {
    const now = await repo.findSignedUpload(uploadId)
    if (now?.status === 'open') {
      return { code: 'upload_expired', message: 'This upload URL has expired; ask for a new one' }
    }
    return { code: 'upload_used', message: 'This upload URL was already used; ask for a new one' }
  }

  /** A whole file in one multipart POST (v1, and v2 URLs too: a file that is one part). */
  async function completeWhole(c: Context, upload: SignedUpload): Promise<Response> {
    if ((await repo.listSignedUploadParts(upload.id)).length > 0) {
      throw new HttpError(
        409,
        'parts_pending',
        'Parts were uploaded to this URL: complete it with { parts: [1, 2, …] }',
      )
    }
    const claimed = await repo.moveSignedUpload(upload.id, 'open', 'completing')
    if (claimed === undefined) return c.json(await closedError(upload.id), 409)
    try {
      const request = incoming(c)
      if (request === undefined) throw new HttpError(400, 'invalid_multipart', 'No body')
      const storageKey = `orgs/${upload.organisationId}/originals/${randomUUID()}`
      const received = await receiveMultipart(app, request, storageKey)
      if (received.file === undefined) {
        throw new HttpError(400, 'missing_file', "Send the file in a part named 'file'")
      }
      const { size, hash, originalName } = received.file
      const record = await store(upload, { storageKey, size, hash }, originalName)
      await repo.moveSignedUpload(upload.id, 'completing', 'done', record.fileId)
      return c.json(record)
    } catch (error) {
      await repo.moveSignedUpload(upload.id, 'completing', 'failed')
      throw error
    }
  }

  return { create, putPart, complete, partLimit }
}
