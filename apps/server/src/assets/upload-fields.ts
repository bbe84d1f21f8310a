// The fields of an upload (direct or by URL; the panel's and Pixelbin's `fileUpload` and
// `urlUpload`), read and checked before anything is stored: a field is stored or refused with a
// 400 that names it, never dropped.
import type { FileAccess } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import {
  readAccess,
  readBoolean,
  readMetadata,
  readTags,
  refuseUnknownFields,
} from './file-fields.ts'
import { assertValidFilePath } from './files.ts'

export interface UploadFields {
  /** Folder, e.g. `products/shoes` (no leading or trailing slash). */
  path: string
  /** File name without extension; defaults to the uploaded file's name. */
  name: string | undefined
  overwrite: boolean
  /** `public-read` when absent; `private` files are delivered only through signed URLs. */
  access?: FileAccess | undefined
  tags?: string[] | undefined
  metadata?: Record<string, unknown> | undefined
  /** On a name clash without `overwrite`: store under the name with a few characters added. */
  filenameOverride?: boolean | undefined
}

/** The fields a direct upload reads (Pixelbin's `fileUpload`); any other is refused. */
const DIRECT_FIELDS: ReadonlySet<string> = new Set([
  'path',
  'name',
  'overwrite',
  'access',
  'tags',
  'tags[]',
  'metadata',
  'filenameOverride',
])
/** The fields of an upload by URL (Pixelbin's `urlUpload`). */
const URL_FIELDS: ReadonlySet<string> = new Set([
  'url',
  'path',
  'name',
  'overwrite',
  'access',
  'tags',
  'metadata',
  'filenameOverride',
])

/** The upload fields of a direct upload's multipart text fields. */
export function directUploadFields(
  fields: Record<string, string>,
  lists: Record<string, string[]>,
): UploadFields {
  refuseUnknownFields(Object.keys(lists), DIRECT_FIELDS)
  for (const single of ['path', 'name', 'overwrite', 'access', 'metadata', 'filenameOverride']) {
    if ((lists[single]?.length ?? 0) > 1) {
      throw new HttpError(400, 'invalid_field', `${single} was given more than once`)
    }
  }
  const tags = lists.tags ?? lists['tags[]']
  return {
    path: readFolder(fields.path),
    name: readName(fields.name),
    overwrite: readFlag(fields.overwrite, 'overwrite'),
    access: readAccess(fields.access),
    tags: readTags(tags),
    metadata: readMetadata(fields.metadata),
    filenameOverride: readBoolean(fields.filenameOverride, 'filenameOverride'),
  }
}

/** The upload fields of an upload by URL's JSON body (`url` is read by the caller). */
export function urlUploadFields(body: Record<string, unknown>): UploadFields {
  refuseUnknownFields(Object.keys(body), URL_FIELDS)
  return {
    path: readFolder(body.path),
    name: readName(body.name),
    overwrite: readFlag(body.overwrite, 'overwrite'),
    access: readAccess(body.access),
    tags: readTags(body.tags),
    metadata: readMetadata(body.metadata),
    filenameOverride: readBoolean(body.filenameOverride, 'filenameOverride'),
  }
}

function readFlag(value: unknown, name: string): boolean {
  if (value === undefined || value === null || value === '') return false
  if (value === true || value === 'true' || value === '1') return true
  if (value === false || value === 'false' || value === '0') return false
  throw new HttpError(400, 'invalid_field', `${name} must be true or false`)
}

function readFolder(value: unknown): string {
  if (value === undefined || value === null || value === '') return ''
  if (typeof value !== 'string') throw new HttpError(400, 'invalid_field', 'path must be text')
  const folder = value.replace(/^\/+|\/+$/g, '')
  if (folder !== '') assertValidFilePath(folder)
  return folder
}

function readName(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string') throw new HttpError(400, 'invalid_field', 'name must be text')
  if (value.includes('/')) throw new HttpError(400, 'invalid_path', 'name must not contain /')
  return value
}
