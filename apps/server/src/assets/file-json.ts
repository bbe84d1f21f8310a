// A file as the asset calls answer it (the listing, one file, a move, a delete, recent files).
import type { AppContext } from '../context.ts'
import type { StoredFile } from '../db/index.ts'
import { deliveryUrl } from './upload.ts'
import { videoFields } from './video-upload.ts'

/** The folder a path lies in; `''` at the top level. */
export const parentOf = (path: string) =>
  path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : ''

/** The answer for `file` of the organisation named `cloudName`. */
export function fileJson(app: AppContext, cloudName: string, file: StoredFile) {
  return {
    _id: file.id,
    fileId: file.id,
    orgId: file.organisationId,
    type: 'file' as const,
    name: file.name,
    path: parentOf(file.path),
    fullPath: file.path,
    format: file.format,
    contentType: file.contentType,
    assetType: file.contentType.startsWith('image/')
      ? 'image'
      : file.video !== null
        ? 'video'
        : 'raw',
    ...videoFields(file),
    size: file.size,
    width: file.width,
    height: file.height,
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
