// A file as the asset calls answer it (the listing, one file, a move, a delete, recent files).
import type { AppContext } from '../context.ts'
import type { StoredFile } from '../db/index.ts'
import { videoFields } from './video-upload.ts'

/** The delivery URL of a stored file. */
export function deliveryUrl(app: AppContext, cloudName: string, path: string): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/')
  return `${app.config.publicUrl}/v2/${cloudName}/original/${encoded}`
}

/** The folder a path lies in; `''` at the top level. */
export const parentOf = (path: string) =>
  path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : ''

/** What every answer and webhook event about a file says of it: where it is and what it holds. */
export function fileFields(file: StoredFile) {
  return {
    fileId: file.id,
    orgId: file.organisationId,
    name: file.name,
    path: parentOf(file.path),
    fullPath: file.path,
    format: file.format,
    contentType: file.contentType,
    size: file.size,
    width: file.width,
    height: file.height,
  }
}

/** The answer for `file` of the organisation named `cloudName`. */
export function fileJson(app: AppContext, cloudName: string, file: StoredFile) {
  return {
    _id: file.id,
    type: 'file' as const,
    ...fileFields(file),
    assetType: file.contentType.startsWith('image/')
      ? 'image'
      : file.video !== null
        ? 'video'
        : 'raw',
    ...videoFields(file),
    pages: file.pages,
    version: file.version,
    access: file.access,
    tags: file.tags,
    metadata: file.metadata,
    isActive: true,
    url: deliveryUrl(app, cloudName, file.path),
    createdAt: file.createdAt.toISOString(),
    updatedAt: file.updatedAt.toISOString(),
  }
}
