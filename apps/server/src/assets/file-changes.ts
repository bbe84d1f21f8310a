// Changing a file (panel PATCH …/files/{id} and Pixelbin's `updateFile`) and deleting files by id
// (one, or Pixelbin's `deleteFiles`): one implementation both APIs call. A move gives the file a
// new version, so its derived images are made again; access, tags and metadata change in place,
// and delivery forgets what it knew of the file so a file made private stops being served.
import type { AppContext } from '../context.ts'
import type { RemovedFiles } from '../db/asset-change-queries.ts'
import {
  type FileAccess,
  type Folder,
  isUniqueViolation,
  isUuid,
  type StoredFile,
} from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { shown } from '../http/query.ts'
import { readAccess, readBoolean, readMetadata, readTags } from './file-fields.ts'
import { parentOf } from './file-json.ts'
import { assertValidFilePath } from './files.ts'

/** What a file update may change; absent fields stay as they are. */
export interface FileChanges {
  name?: string | undefined
  path?: string | undefined
  access?: FileAccess | undefined
  tags?: string[] | undefined
  metadata?: Record<string, unknown> | undefined
}

/** The fields of an update body (JSON), checked; `isActive: false` is refused (no soft delete). */
export function readFileChanges(body: Record<string, unknown>): FileChanges {
  const known = new Set(['name', 'path', 'access', 'tags', 'metadata', 'isActive'])
  for (const field of Object.keys(body)) {
    if (!known.has(field)) {
      throw new HttpError(400, 'unknown_field', `${shown(field)} is not a field of a file update`)
    }
  }
  if (!readBoolean(body.isActive, 'isActive', true)) {
    throw new HttpError(
      400,
      'invalid_field',
      'isActive false (a soft delete) is not kept by this server: delete the file instead',
    )
  }
  const text = (field: 'name' | 'path', max: number) => {
    const value = body[field]
    if (value === undefined || value === null) return undefined
    if (typeof value !== 'string' || value.length > max) {
      throw new HttpError(
        400,
        'invalid_field',
        `${field} must be text of at most ${max} characters`,
      )
    }
    return value
  }
  const changes: FileChanges = {
    name: text('name', 255),
    path: text('path', 1024),
    access: readAccess(body.access),
    tags: readTags(body.tags),
    metadata: readMetadata(body.metadata),
  }
  return changes
}

const folderPath = (value: string) => {
  const folder = value.replace(/^\/+|\/+$/g, '')
  if (folder !== '') assertValidFilePath(folder)
  return folder
}

/** The file and folder changes both APIs make, over the app's services. */
export function createFileChanges(app: AppContext) {
  const { repo, storage, lookups, logger } = app

  /** Deletes stored objects after their rows are gone; a failure leaves an orphan, logged. */
  async function deleteObjects(storageKeys: readonly string[]): Promise<void> {
    for (const key of storageKeys) lookups.bytes.delete(key)
    const results = await Promise.allSettled(storageKeys.map((key) => storage.delete(key)))
    const failed = results.filter((result) => result.status === 'rejected')
    if (failed.length > 0) {
      logger.warn(
        { failed: failed.length, err: (failed[0] as PromiseRejectedResult).reason },
        'stored objects of deleted or moved files could not be removed',
      )
    }
  }

  async function removeObjects(removed: RemovedFiles): Promise<void> {
    await Promise.all(
      removed.files.map((file) => lookups.forgetFile(file.organisationId, file.path)),
    )
    await deleteObjects(removed.storageKeys)
  }

  /** Applies `changes` to `file` (a move, then the fields); answers the file as it is now. */
  async function changeFile(
    file: StoredFile,
    changes: FileChanges,
    { keepExtension }: { keepExtension: boolean },
  ): Promise<StoredFile> {
    const organisationId = file.organisationId
    let current = file
    if (changes.name !== undefined || changes.path !== undefined) {
      const folder = changes.path === undefined ? parentOf(file.path) : folderPath(changes.path)
      const name = changes.name === undefined ? file.name : changes.name.trim()
      if (name.includes('/')) {
        throw new HttpError(
          400,
          'invalid_name',
          'A file name must not contain /: give the folder in path',
        )
      }
      // Pixelbin names files without their extension: there the stored extension is kept.
      const dot = file.name.lastIndexOf('.')
      const extension = dot > 0 ? file.name.slice(dot) : ''
      const named =
        keepExtension && extension !== '' && !name.toLowerCase().endsWith(extension.toLowerCase())
          ? `${name}${extension}`
          : name
      assertValidFilePath(named)
      const target = folder === '' ? named : `${folder}/${named}`
      assertValidFilePath(target)
      if (target !== file.path) {
        const taken = await repo.pathKind(organisationId, target)
        if (taken !== undefined) {
          throw new HttpError(
            409,
            'already_exists',
            `A ${taken} already exists at ${shown(target)}`,
          )
        }
        let moved: Awaited<ReturnType<typeof repo.moveFile>>
        try {
          moved = await repo.moveFile(organisationId, file.id, { path: target, name: named })
        } catch (error) {
          if (!isUniqueViolation(error)) throw error
          throw new HttpError(409, 'already_exists', `A file already exists at ${shown(target)}`)
        }
        if (moved === undefined) throw fileNotFound(file.id)
        await lookups.forgetFile(organisationId, file.path)
        await lookups.forgetFile(organisationId, target)
        await deleteObjects(moved.derivedStorageKeys)
        current = moved.file
      }
    }
    if (
      changes.access !== undefined ||
      changes.tags !== undefined ||
      changes.metadata !== undefined
    ) {
      const updated = await repo.updateFileFields(organisationId, current.id, {
        access: changes.access,
        tags: changes.tags,
        metadata: changes.metadata,
      })
      if (updated === undefined) throw fileNotFound(file.id)
      // Delivery (and its fast lane, in every process) forgets the file: access may have changed.
      await lookups.forgetFile(organisationId, updated.path)
      current = updated
    }
    return current
  }

  /** Deletes the organisation's files with these ids; answers those that were deleted. */
  async function deleteFiles(organisationId: string, ids: readonly string[]) {
    const deleted: StoredFile[] = []
    for (const id of ids) {
      if (!isUuid(id)) continue
      const removed = await repo.deleteFileById(organisationId, id)
      if (removed === undefined) continue
      await removeObjects(removed)
      deleted.push(...removed.files)
    }
    return deleted
  }

  /** Creates the folder at `path` (checked here); 409 when a file or folder is there. */
  async function createFolder(organisationId: string, path: string): Promise<Folder> {
    assertValidFilePath(path)
    const taken = await repo.pathKind(organisationId, path)
    const created = taken === undefined ? await repo.createFolder(organisationId, path) : undefined
    if (created === undefined) {
      throw new HttpError(
        409,
        'already_exists',
        `A ${taken ?? 'folder'} already exists at ${shown(path)}`,
      )
    }
    return created
  }

  return { changeFile, createFolder, deleteFiles, removeObjects, deleteObjects }
}

export const fileNotFound = (id: string) =>
  new HttpError(404, 'file_not_found', `No file ${shown(id)} in this organisation`)
