// Files, folders and presets of an organisation (issue 4; shapes after Pixelbin's management
// routes, reference/service-notes.md §3). Every call names its organisation in the path and goes
// through `requireOrganisation`: members (session) and the organisation's API tokens may make
// them all, anyone else gets 404 as if the organisation did not exist. Every query is scoped by
// the caller's organisation id. Presets are in `preset-routes.ts`.
//
// A move gives a file a new version, so its derived images are made again
// (db/asset-change-queries.ts says why); a delete takes the file's row, stored original and
// derived images.
//
// A folder exists when it was made (`POST …/folders`) or while a file or folder lies under it
// (uploads make folders that way). Folders are addressed by their path in the query string
// (`?path=a/b`): an encoded `/` in a URL path is refused before routing.
import { type Context, Hono } from 'hono'
import type { Auth, Caller } from '../accounts/auth.ts'
import { type ActivityEvent, actorOf, createActivityLog } from '../activity/activity.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { RemovedFiles } from '../db/asset-change-queries.ts'
import { isUniqueViolation, isUuid, type StoredFile } from '../db/index.ts'
import type { Folder } from '../db/schema.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readBody } from '../http/json-body.ts'
import { offsetOf, pageOf } from '../http/paging.ts'
import { invalidQuery, parseQuery, readQuery, shown } from '../http/query.ts'
import { fileJson, parentOf } from './file-json.ts'
import { assertValidFilePath } from './files.ts'
import { presetRoutes } from './preset-routes.ts'
import {
  createFolderBody,
  deleteFolderQuery,
  filesQuery,
  folderQuery,
  MAX_QUERY_VALUE,
  moveBody,
} from './requests.ts'
import { usageRoutes } from './usage-routes.ts'

/** A folder path as given (`/a/b/` or `a/b`), checked; `''` is the top level. */
function folderPath(value: string | undefined): string {
  const folder = (value ?? '').replace(/^\/+|\/+$/g, '')
  if (folder !== '') assertValidFilePath(folder)
  return folder
}

/** A single file or folder name: the rules of a path segment, and no `/`. */
function entryName(value: string, what: 'file' | 'folder'): string {
  if (value.includes('/')) {
    throw new HttpError(
      400,
      'invalid_name',
      `A ${what} name must not contain /: give the folder in path`,
    )
  }
  assertValidFilePath(value)
  return value
}

const join = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`)
const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1)

// ── answers ──────────────────────────────────────────────────────────────────────────────────

function folderJson(organisationId: string, path: string, folder: Folder | undefined) {
  return {
    _id: folder?.id ?? null,
    orgId: organisationId,
    type: 'folder' as const,
    name: lastSegment(path),
    path: parentOf(path),
    fullPath: path,
    createdAt: folder?.createdAt.toISOString() ?? null,
  }
}

const fileNotFound = (id: string) =>
  new HttpError(404, 'file_not_found', `No file ${shown(id)} in this organisation`)
const folderNotFound = (path: string) =>
  new HttpError(404, 'folder_not_found', `No folder ${shown(path)} in this organisation`)
// ── routes ───────────────────────────────────────────────────────────────────────────────────

/**
 * The file, folder and preset calls of an organisation (docs/api.md, "Files, folders and
 * presets"), relative to `ASSET_API_BASE`.
 */
export function assetRoutes(app: AppContext, { auth }: { auth: Auth }): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo, storage, lookups, logger } = app
  const activity = createActivityLog(app)
  /** Records what the caller did (issue 24); never fails the change. */
  const log = (caller: Caller, event: ActivityEvent) =>
    activity.record(caller.organisation.id, actorOf(caller), event)

  /** The caller of a call on the path's organisation; 404 for an id that is not a UUID. */
  async function callerOf(c: Context<AppEnv>): Promise<Caller> {
    c.header('cache-control', 'no-store')
    return auth.requirePathOrganisation(c)
  }

  async function findFile(caller: Caller, id: string): Promise<StoredFile> {
    const file = await repo.findFileById(caller.organisation.id, id)
    if (file === undefined) throw fileNotFound(id)
    return file
  }

  /** Deletes stored objects after their rows are gone; a failure leaves an orphan, logged. */
  async function deleteObjects(storageKeys: readonly string[]): Promise<void> {
    for (const key of storageKeys) lookups.bytes.delete(key)
    const results = await Promise.allSettled(storageKeys.map((key) => storage.delete(key)))
    const failed = results.filter((result) => result.status === 'rejected')
    if (failed.length > 0) {
      logger.warn(
        {
          failed: failed.length,
          err: (failed[0] as PromiseRejectedResult).reason,
        },
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

  // ── files ──────────────────────────────────────────────────────────────────────────────────

  router.get(`/:orgId/files`, async (c) => {
    const caller = await callerOf(c)
    const query = parseQuery(readQuery(c.req.url, MAX_QUERY_VALUE), filesQuery)
    const folder = folderPath(query.path)
    const organisationId = caller.organisation.id
    if (folder !== '' && (await repo.pathKind(organisationId, folder)) !== 'folder') {
      throw folderNotFound(folder)
    }
    const level = await repo.listFolderLevel(organisationId, {
      folder,
      name: query.name,
      sort: query.sort,
      limit: query.pageSize,
      offset: offsetOf(query),
    })
    return c.json({
      items: [
        ...level.folders.map((entry) => folderJson(organisationId, entry.path, entry.folder)),
        ...level.files.map((file) => fileJson(app, caller.organisation.cloudName, file)),
      ],
      page: pageOf(query.pageNo, query.pageSize, level.total),
    })
  })

  router.get(`/:orgId/files/:fileId`, async (c) => {
    const caller = await callerOf(c)
    const file = await findFile(caller, c.req.param('fileId'))
    return c.json(fileJson(app, caller.organisation.cloudName, file))
  })

  router.patch(`/:orgId/files/:fileId`, jsonLimit, async (c) => {
    const caller = await callerOf(c)
    const organisationId = caller.organisation.id
    const body = await readBody(c, moveBody)
    if (body.name === undefined && body.path === undefined) {
      throw new HttpError(400, 'invalid_body', 'Give name, path or both')
    }
    const file = await findFile(caller, c.req.param('fileId'))
    const folder = body.path === undefined ? parentOf(file.path) : folderPath(body.path)
    const name = body.name === undefined ? file.name : entryName(body.name.trim(), 'file')
    const target = join(folder, name)
    assertValidFilePath(target)
    if (target === file.path) return c.json(fileJson(app, caller.organisation.cloudName, file))
    const taken = await repo.pathKind(organisationId, target)
    if (taken !== undefined) {
      throw new HttpError(409, 'already_exists', `A ${taken} already exists at ${shown(target)}`)
    }
    let moved: Awaited<ReturnType<typeof repo.moveFile>>
    try {
      moved = await repo.moveFile(organisationId, file.id, {
        path: target,
        name,
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      throw new HttpError(409, 'already_exists', `A file already exists at ${shown(target)}`)
    }
    if (moved === undefined) throw fileNotFound(file.id)
    // This process forgets both paths at once (the new one may be remembered as missing).
    await lookups.forgetFile(organisationId, file.path)
    await lookups.forgetFile(organisationId, target)
    await deleteObjects(moved.derivedStorageKeys)
    await log(caller, { kind: 'file.move', target: target, details: { from: file.path } })
    return c.json(fileJson(app, caller.organisation.cloudName, moved.file))
  })

  router.delete(`/:orgId/files/:fileId`, async (c) => {
    const caller = await callerOf(c)
    const id = c.req.param('fileId')
    const removed = isUuid(id) ? await repo.deleteFileById(caller.organisation.id, id) : undefined
    const file = removed?.files[0]
    if (removed === undefined || file === undefined) throw fileNotFound(id)
    await removeObjects(removed)
    await log(caller, { kind: 'file.delete', target: file.path })
    return c.json(fileJson(app, caller.organisation.cloudName, file))
  })

  // ── folders ────────────────────────────────────────────────────────────────────────────────

  router.post(`/:orgId/folders`, jsonLimit, async (c) => {
    const caller = await callerOf(c)
    const organisationId = caller.organisation.id
    const body = await readBody(c, createFolderBody)
    const path = join(folderPath(body.path), entryName(body.name.trim(), 'folder'))
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
    await log(caller, { kind: 'folder.create', target: path })
    return c.json(folderJson(organisationId, path, created), 201)
  })

  router.patch(`/:orgId/folders`, jsonLimit, async (c) => {
    const caller = await callerOf(c)
    const organisationId = caller.organisation.id
    const from = folderPath(parseQuery(readQuery(c.req.url, MAX_QUERY_VALUE), folderQuery).path)
    if (from === '') throw invalidQuery('path must name a folder, not the top level')
    const body = await readBody(c, moveBody)
    if (body.name === undefined && body.path === undefined) {
      throw new HttpError(400, 'invalid_body', 'Give name, path or both')
    }
    if ((await repo.pathKind(organisationId, from)) !== 'folder') throw folderNotFound(from)
    const parent = body.path === undefined ? parentOf(from) : folderPath(body.path)
    const name = body.name === undefined ? lastSegment(from) : entryName(body.name.trim(), 'folder')
    const to = join(parent, name)
    assertValidFilePath(to)
    if (to !== from) {
      if (to.startsWith(`${from}/`)) {
        throw new HttpError(400, 'invalid_path', 'A folder cannot move into itself')
      }
      const taken = await repo.pathKind(organisationId, to)
      if (taken !== undefined) {
        throw new HttpError(409, 'already_exists', `A ${taken} already exists at ${shown(to)}`)
      }
      let moved: Awaited<ReturnType<typeof repo.moveFolder>>
      try {
        moved = await repo.moveFolder(organisationId, from, to)
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        throw new HttpError(409, 'already_exists', `Something already exists under ${shown(to)}`)
      }
      for (const file of moved.files) {
        await lookups.forgetFile(organisationId, file.from)
        await lookups.forgetFile(organisationId, file.to)
      }
      await deleteObjects(moved.derivedStorageKeys)
    }
    await log(caller, { kind: 'folder.move', target: to, details: { from } })
    return c.json(folderJson(organisationId, to, await repo.findFolder(organisationId, to)))
  })

  router.delete(`/:orgId/folders`, async (c) => {
    const caller = await callerOf(c)
    const query = parseQuery(readQuery(c.req.url, MAX_QUERY_VALUE), deleteFolderQuery)
    const path = folderPath(query.path)
    if (path === '') throw invalidQuery('path must name a folder, not the top level')
    const result = await repo.deleteFolder(caller.organisation.id, path, query.recursive)
    if (result === 'not_found') throw folderNotFound(path)
    if (result === 'not_empty') {
      throw new HttpError(
        409,
        'folder_not_empty',
        `The folder ${shown(path)} is not empty: delete what is in it, or send recursive=true`,
      )
    }
    await removeObjects(result)
    await log(caller, {
      kind: 'folder.delete',
      target: path,
      details: { files: result.files.length },
    })
    return c.json({
      path,
      deleted: { files: result.files.length, folders: result.folders },
    })
  })

  router.route('/', presetRoutes(app, callerOf))
  router.route('/', usageRoutes(app, callerOf))
  return router
}
