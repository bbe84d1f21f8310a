// The asset APIs: direct upload (multipart, streamed to storage), upload by URL, and the
// download proxy. Uploads go to the caller's organisation: an API token's own, or for a signed-in
// member the `orgId` query parameter's (default: their active, first organisation).
import { createHash, randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import type { Auth, Caller } from '../accounts/auth.ts'
import { actorOf, createActivityLog } from '../activity/activity.ts'
import type { AppContext } from '../context.ts'
import type { Organisation, StoredFile, VideoProperties } from '../db/index.ts'
import { engineErrorToHttp } from '../http/engine-errors.ts'
import { HttpError } from '../http/errors.ts'
import { fileJson } from './file-json.ts'
import {
  assertExtensionMatches,
  assertValidFilePath,
  DOCUMENT_FORMATS,
  extensionOf,
  IMAGE_FORMATS,
  type SniffedType,
  sniffType,
  UNKNOWN_TYPE,
} from './files.ts'
import { receiveMultipart } from './multipart.ts'
import { fetchRemote, RemoteError } from './remote.ts'
import { directUploadFields, type UploadFields, urlUploadFields } from './upload-fields.ts'
import { probeUploadedVideo } from './video-upload.ts'

function incoming(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
}

const EXTENSIONS: Record<string, string> = { jpeg: 'jpg' }

/**
 * A file name from a client's file name or a URL's last segment, made safe: characters a path may
 * not hold become `-`, and a name that is left empty becomes undefined (a random one is used).
 * An explicit `name` field is not cleaned: a bad one is refused, so the caller learns why.
 */
function stem(fileName: string): string | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const dot = base.lastIndexOf('.')
  const cleaned = (dot > 0 ? base.slice(0, dot) : base)
    .replace(/[^\p{L}\p{N} ._()@+-]+/gu, '-')
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .slice(0, 200)
  return cleaned === '' ? undefined : cleaned
}

function fileRecord(app: AppContext, cloudName: string, file: StoredFile, isImage: boolean) {
  const json = fileJson(app, cloudName, file)
  // The upload knows from the bytes whether the engine reads the file as an image (a PDF is).
  return { ...json, hash: file.hash, assetType: isImage ? 'image' : json.assetType }
}

export type Assets = ReturnType<typeof createAssets>

/** Creates the asset handlers over the app's services. */
export function createAssets(app: AppContext, { auth }: { auth: Auth }) {
  const { repo, storage, engine, config } = app
  const activity = createActivityLog(app)
  /** Records an upload in the organisation's activity log (issue 24). */
  const logUpload = (caller: Caller, record: { fullPath: string; size: number }, via: string) =>
    activity.record(caller.organisation.id, actorOf(caller), {
      kind: 'file.upload',
      target: record.fullPath,
      details: { size: record.size, via },
    })

  /**
   * What the stored bytes are: an image format of SPEC §9, or (only where the organisation allows
   * raw files) anything else; a name whose extension disagrees with the bytes is refused.
   */
  async function checkType(
    data: Uint8Array,
    organisation: Pick<Organisation, 'allowRawFiles'>,
    originalName: string | undefined,
    text = true,
  ): Promise<SniffedType> {
    let type: SniffedType
    try {
      type = await sniffType(data, originalName)
    } catch (error) {
      const unknown = error instanceof HttpError && error.code === 'unsupported_type'
      if (!unknown || !organisation.allowRawFiles) throw error
      type = UNKNOWN_TYPE
    }
    if (originalName !== undefined) assertExtensionMatches(originalName, type)
    const document = DOCUMENT_FORMATS.has(type.format) && (text || type.format !== 'txt')
    if (!type.isImage && type.isVideo !== true && !document && !organisation.allowRawFiles) {
      throw new HttpError(
        415,
        'unsupported_type',
        `This organisation stores images, PDF and text only (${[...IMAGE_FORMATS, ...DOCUMENT_FORMATS].join(', ')}); the file is ${type.format}`,
      )
    }
    return type
  }

  /** Checks the stored bytes, then records the file; removes the blob when anything fails. */
  async function finish(
    organisation: Pick<Organisation, 'id' | 'cloudName' | 'allowRawFiles'>,
    storageKey: string,
    hash: string,
    size: number,
    fields: UploadFields,
    originalName: string | undefined,
    text = true,
  ) {
    try {
      const data = await storage.get(storageKey)
      if (data === undefined) throw new HttpError(500, 'storage_error', 'The upload was not stored')
      const type = await checkType(data, organisation, originalName || undefined, text)
      let width: number | null = null
      let height: number | null = null
      let pages: number | null = null
      let video: VideoProperties | null = null
      if (type.isVideo === true) {
        ;({ width, height, video } = await probeUploadedVideo(app, data, type.format))
      } else if ((type.isImage && type.format !== 'svg') || type.format === 'pdf') {
        // A PDF is read like an image: its page count, and page 1 drawn at 150 dpi.
        const probe = await engine.probe(data).catch((error: unknown) => {
          throw engineErrorToHttp(error)
        })
        width = probe.width
        height = probe.height
        pages = probe.pages
      }
      const name = fields.name ?? (originalName ? stem(originalName) : undefined) ?? randomUUID()
      // Unknown bytes keep the extension they were sent with (`notes.txt`), if it is plain.
      const given = originalName === undefined ? undefined : extensionOf(originalName)
      const extension =
        type === UNKNOWN_TYPE
          ? given !== undefined && /^[a-z0-9]{1,10}$/.test(given)
            ? given
            : undefined
          : type.format === 'heif' && given === 'heic'
            ? 'heic' // an iPhone's photo.heic keeps its name
            : (EXTENSIONS[type.format] ?? type.format)
      const fileName =
        extension === undefined || name.toLowerCase().endsWith(`.${extension}`)
          ? name
          : `${name}.${extension}`
      const store = (stored: string) => {
        const path = fields.path === '' ? stored : `${fields.path}/${stored}`
        assertValidFilePath(path)
        return repo.storeFile(
          organisation.id,
          {
            path,
            name: stored,
            size,
            format: type.format,
            contentType: type.contentType,
            width,
            height,
            pages,
            video,
            hash,
            storageKey,
            access: fields.access,
            tags: fields.tags,
            metadata: fields.metadata,
          },
          fields.overwrite,
        )
      }
      let path = fields.path === '' ? fileName : `${fields.path}/${fileName}`
      let stored = await store(fileName)
      // filenameOverride: a taken name gets a few random characters, as Pixelbin adds them.
      for (let attempt = 0; stored === 'exists' && fields.filenameOverride === true; attempt++) {
        if (attempt === 5) break
        const suffix = randomUUID().slice(0, 6)
        const dot = fileName.lastIndexOf('.')
        const renamed =
          dot > 0
            ? `${fileName.slice(0, dot)}_${suffix}${fileName.slice(dot)}`
            : `${fileName}_${suffix}`
        path = fields.path === '' ? renamed : `${fields.path}/${renamed}`
        stored = await store(renamed)
      }
      if (stored === 'exists') {
        throw new HttpError(
          409,
          'already_exists',
          `A file already exists at '${path}'; send overwrite=true to replace it`,
        )
      }
      const { file, replaced } = stored
      await app.lookups.forgetFile(organisation.id, path)
      if (replaced !== undefined) {
        // The new version gets new derived images; the old blob and derivatives go.
        const stale = await repo.deleteDerivedForFile(file.id)
        // The file is recorded by now: failing to delete an old object must not fail the upload
        // (the catch below would delete the new object the row now names).
        await Promise.allSettled([replaced.storageKey, ...stale].map((key) => storage.delete(key)))
      }
      return fileRecord(app, organisation.cloudName, file, type.isImage)
    } catch (error) {
      await storage.delete(storageKey).catch(() => undefined)
      throw error
    }
  }

  /**
   * Receives a multipart upload (`file` part) into `organisation` and records it, with every
   * check of a direct upload (size, type, pixels, SVG safety). `fieldsOf` turns the multipart
   * fields into the folder, name and overwrite flag (it may refuse them; nothing is kept then).
   * `text: false` refuses plain text files too (visitors' uploads: images and PDFs only).
   */
  async function receiveFile(
    c: Context,
    organisation: Pick<Organisation, 'id' | 'cloudName' | 'allowRawFiles'>,
    fieldsOf: (fields: Record<string, string>, lists: Record<string, string[]>) => UploadFields,
    { text = true }: { text?: boolean } = {},
  ) {
    const request = incoming(c)
    const contentType = c.req.header('content-type') ?? ''
    if (request === undefined || !contentType.toLowerCase().startsWith('multipart/form-data')) {
      throw new HttpError(415, 'unsupported_media_type', 'Send the file as multipart/form-data')
    }
    const storageKey = `orgs/${organisation.id}/originals/${randomUUID()}`
    const received = await receiveMultipart(app, request, storageKey)
    if (received.file === undefined) {
      throw new HttpError(400, 'missing_file', "Send the file in a part named 'file'")
    }
    const { size, hash, originalName } = received.file
    let fields: UploadFields
    try {
      fields = fieldsOf(received.fields, received.lists)
    } catch (error) {
      await storage.delete(storageKey).catch(() => undefined)
      throw error
    }
    return finish(organisation, storageKey, hash, size, fields, originalName, text)
  }

  /** POST …/upload/direct: multipart with a `file` part and optional `path`, `name`, `overwrite`. */
  async function uploadDirect(c: Context): Promise<Response> {
    const caller = await auth.requireAnyOrganisation(c, { role: 'member' })
    const record = await receiveFile(c, caller.organisation, directUploadFields)
    await logUpload(caller, record, 'direct')
    return c.json(record)
  }

  function remoteErrorToHttp(error: unknown): unknown {
    if (!(error instanceof RemoteError)) return error
    switch (error.code) {
      case 'invalid_url':
      case 'blocked_address':
      case 'too_many_redirects':
        return new HttpError(400, `remote_${error.code}`, error.message, { cause: error })
      case 'too_large':
        return new HttpError(413, 'too_large', error.message, { cause: error })
      case 'timeout':
        return new HttpError(504, 'remote_timeout', error.message, { cause: error })
      default:
        return new HttpError(502, `remote_${error.code}`, error.message, { cause: error })
    }
  }

  async function fetchSource(url: unknown) {
    if (typeof url !== 'string' || url === '') {
      throw new HttpError(400, 'invalid_field', 'url must be an http(s) URL')
    }
    try {
      return await fetchRemote(url, config.remote)
    } catch (error) {
      throw remoteErrorToHttp(error)
    }
  }

  /** POST …/upload/url: JSON `{ url, path?, name?, overwrite? }`. */
  async function uploadFromUrl(c: Context): Promise<Response> {
    const caller = await auth.requireAnyOrganisation(c, { role: 'member' })
    const { organisation } = caller
    let body: Record<string, unknown>
    try {
      body = (await c.req.json()) as Record<string, unknown>
    } catch {
      throw new HttpError(400, 'invalid_json', 'Send a JSON body { url, path?, name?, overwrite? }')
    }
    if (typeof body !== 'object' || body === null) {
      throw new HttpError(400, 'invalid_json', 'Send a JSON body { url, path?, name?, overwrite? }')
    }
    if (Array.isArray(body)) {
      throw new HttpError(400, 'invalid_json', 'Send a JSON body { url, path?, name?, overwrite? }')
    }
    const fields = urlUploadFields(body)
    const source = await fetchSource(body.url)
    const storageKey = `orgs/${organisation.id}/originals/${randomUUID()}`
    await storage.put(storageKey, source.data)
    const hash = createHash('sha256').update(source.data).digest('hex')
    const lastSegment = new URL(source.url).pathname.split('/').pop() ?? ''
    let originalName: string
    try {
      originalName = decodeURIComponent(lastSegment)
    } catch {
      originalName = lastSegment
    }
    const record = await finish(
      organisation,
      storageKey,
      hash,
      source.data.length,
      fields,
      originalName,
    )
    await logUpload(caller, record, 'url')
    return c.json(record)
  }

  /**
   * GET …/proxy/download?url=…: the source's bytes, typed from the bytes themselves. Only for a
   * caller who may upload by URL (a session or an API token), under the same remote rules:
   * otherwise anyone could make this server fetch for them.
   */
  async function proxyDownload(c: Context): Promise<Response> {
    await auth.requireAnyOrganisation(c, { role: 'member' })
    const source = await fetchSource(c.req.query('url'))
    const type = await sniffType(source.data)
    const name =
      source.url
        .split('/')
        .pop()
        ?.replace(/[^\w.-]/g, '_') || 'download'
    return new Response(new Uint8Array(source.data), {
      status: 200,
      headers: {
        'content-type': type.contentType,
        'content-length': String(source.data.length),
        'content-disposition': `${type.isImage ? 'inline' : 'attachment'}; filename="${name}"`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
        ...(type.format === 'svg'
          ? { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" }
          : {}),
      },
    })
  }

  return { uploadDirect, uploadFromUrl, proxyDownload, receiveFile, finish }
}
