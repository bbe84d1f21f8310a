// What a client may ask a signed upload URL for (Pixelbin's `createSignedUrl(V2)` body), every
// field checked and named when refused (decision 016).
import { readAccess, readMetadata, readTags } from '../assets/file-fields.ts'
import { assertValidFilePath, IMAGE_FORMATS } from '../assets/files.ts'
import type { SignedUploadFields } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'

/** The default life of a signed URL, in seconds (Pixelbin's default). */
export const DEFAULT_EXPIRY_SECONDS = 3000
/** The longest life a signed URL may ask for: a week. */
export const MAX_EXPIRY_SECONDS = 7 * 24 * 60 * 60
const FORMATS = new Set<string>([...IMAGE_FORMATS, 'jpg'])

/** What a client asks a signed URL for (Pixelbin's `createSignedUrl(V2)` body). */
export interface SignedUrlRequest {
  name?: unknown
  path?: unknown
  format?: unknown
  access?: unknown
  tags?: unknown
  metadata?: unknown
  overwrite?: unknown
  filenameOverride?: unknown
  expiry?: unknown
}

export const invalid = (field: string, message: string) =>
  new HttpError(400, 'invalid_field', `${field} ${message}`)

function readFlag(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false
  if (typeof value === 'boolean') return value
  if (value === 'true') return true
  if (value === 'false') return false
  throw invalid(field, 'must be true or false')
}

/** The stored fields of a new signed upload, every field checked and named when refused. */
export function readSignedUrlRequest(body: SignedUrlRequest): {
  fields: SignedUploadFields
  expirySeconds: number
} {
  let path = ''
  if (body.path !== undefined && body.path !== null && body.path !== '') {
    if (typeof body.path !== 'string') throw invalid('path', 'must be text')
    path = body.path.replace(/^\/+|\/+$/g, '')
    if (path !== '') assertValidFilePath(path)
  }
  let name: string | undefined
  if (body.name !== undefined && body.name !== null && body.name !== '') {
    if (typeof body.name !== 'string') throw invalid('name', 'must be text')
    if (body.name.includes('/')) throw invalid('name', 'must not contain /')
    assertValidFilePath(body.name)
    name = body.name
  }
  let format: string | undefined
  if (body.format !== undefined && body.format !== null && body.format !== '') {
    if (typeof body.format !== 'string' || !FORMATS.has(body.format.toLowerCase())) {
      throw invalid('format', `must be one of ${[...FORMATS].join(', ')}`)
    }
    format = body.format.toLowerCase() === 'jpg' ? 'jpeg' : body.format.toLowerCase()
  }
  // Kept with the upload and given to the file it makes (the same checks as a direct upload).
  const access = readAccess(body.access ?? undefined)
  const tags = readTags(body.tags ?? undefined)
  const metadata = readMetadata(body.metadata ?? undefined)
  let expirySeconds = DEFAULT_EXPIRY_SECONDS
  if (body.expiry !== undefined && body.expiry !== null) {
    if (
      typeof body.expiry !== 'number' ||
      !Number.isInteger(body.expiry) ||
      body.expiry < 1 ||
      body.expiry > MAX_EXPIRY_SECONDS
    ) {
      throw invalid('expiry', `must be a whole number of seconds from 1 to ${MAX_EXPIRY_SECONDS}`)
    }
    expirySeconds = body.expiry
  }
  return {
    fields: {
      path,
      name,
      format,
      overwrite: readFlag(body.overwrite, 'overwrite'),
      filenameOverride: readFlag(body.filenameOverride, 'filenameOverride'),
      ...(access === undefined ? {} : { access }),
      ...(tags === undefined ? {} : { tags }),
      ...(metadata === undefined ? {} : { metadata }),
    },
    expirySeconds,
  }
}
