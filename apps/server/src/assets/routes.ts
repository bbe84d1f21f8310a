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
import type { Auth, Caller, OrganisationAccess } from '../accounts/auth.ts'
import { type ActivityEvent, actorOf, createActivityLog } from '../activity/activity.ts'
import type { AppContext, AppEnv } from '../context.ts'
import { isUniqueViolation, isUuid, type StoredFile } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readBody } from '../http/json-body.ts'
import { offsetOf, pageOf } from '../http/paging.ts'
import { invalidQuery, parseQuery, readQuery, shown } from '../http/query.ts'
import { createFileChanges } from './file-changes.ts'
import { fileJson, parentOf } from './file-json.ts'
import { assertValidFilePath } from './files.ts'
import { presetRoutes } from './preset-routes.ts'
import {
  createFolderBody,
  deleteFilesBody,
  deleteFolderQuery,
  filesQuery,
  folderQuery,
  MAX_QUERY_VALUE,
  moveBody,
  updateFileBody,
} from './requests.ts'
import { folderJson, readSearch, runSearch } from './search.ts'
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

/** Most tags the tag list answers. */
const MAX_TAG_LIST = 200

const join = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`)
const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1)

// ── answers ──────────────────────────────────────────────────────────────────────────────────

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
  const { repo, lookups } = app
  const activity = createActivityLog(app)
  /** Records what the caller did (issue 24); never fails the change. */
  const log = (caller: Caller, event: ActivityEvent) =>
    activity.record(caller.organisation.id, actorOf(caller), event)

  /** The caller of a call on the path's organisation; 404 for an id that is not a UUID. */
  async function callerOf(c: Context<AppEnv>, access: OrganisationAccess): Promise<Caller> {
    c.header('cache-control', 'no-store')
    return auth.requirePathOrganisation(c, access)
  }

  async function findFile(caller: Caller, id: string): Promise<StoredFile> {
    const file = await repo.findFileById(caller.organisation.id, id)
    if (file === undefined) throw fileNotFound(id)
    return file
  }

  const changes = createFileChanges(app)
  const { deleteObjects, removeObjects } = changes

  // ── files ──────────────────────────────────────────────────────────────────────────────────

  router.get(`/:orgId/files`, async (c) => {
    const caller = await callerOf(c, { role: 'viewer' })
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
    const caller = await callerOf(c, { role: 'viewer' })
    const file = await findFile(caller, c.req.param('fileId'))
    return c.json(fileJson(app, caller.organisation.cloudName, file))
  })

  router.patch(`/:orgId/files/:fileId`, jsonLimit, async (c) => {
    const caller = await callerOf(c, { role: 'member' })
    const body = await readBody(c, updateFileBody)
    if (Object.values(body).every((value) => value === undefined)) {
      throw new HttpError(400, 'invalid_body', 'Give name, path, access, tags or metadata')
    }
    if (body.name !== undefined) entryName(body.name.trim(), 'file')
    const file = await findFile(caller, c.req.param('fileId'))
    const changed = await changes.changeFile(file, body, { keepExtension: false })
    if (changed.path !== file.path) {
      await log(caller, { kind: 'file.move', target: changed.path, details: { from: file.path } })
    }
    const fields = (['access', 'tags', 'metadata'] as const).filter(
      (key) => body[key] !== undefined,
    )
    if (fields.length > 0) {
      await log(caller, { kind: 'file.update', target: changed.path, details: { fields } })
    }
    return c.json(fileJson(app, caller.organisation.cloudName, changed))
  })

  // The library's search (assets/search.ts), the same as the platform's `listFiles`.
  router.get(`/:orgId/listFiles`, async (c) => {
    const caller = await callerOf(c, { role: 'viewer' })
    const asked = readSearch(readQuery(c.req.url, MAX_QUERY_VALUE))
    return c.json(await runSearch(app, caller.organisation, asked))
  })

  // The tags in use, most used first (the console's tag filter).
  router.get(`/:orgId/tags`, async (c) => {
    const caller = await callerOf(c, { role: 'viewer' })
    return c.json({ items: await repo.listTags(caller.organisation.id, MAX_TAG_LIST) })
  })

  // Deletes several files at once (the console's bulk delete; Pixelbin's `deleteFiles`).
  router.post(`/:orgId/files/delete`, jsonLimit, async (c) => {
    const caller = await callerOf(c, { role: 'member' })
    const body = await readBody(c, deleteFilesBody)
    const deleted = await changes.deleteFiles(caller.organisation.id, body.ids)
    for (const file of deleted) await log(caller, { kind: 'file.delete', target: file.path })
    return c.json(deleted.map((file) => fileJson(app, caller.organisation.cloudName, file)))
  })

  router.delete(`/:orgId/files/:fileId`, async (c) => {
    const caller = await callerOf(c, { role: 'member' })
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
    const caller = await callerOf(c, { role: 'member' })
    const organisationId = caller.organisation.id
    const body = await readBody(c, createFolderBody)
    const path = join(folderPath(body.path), entryName(body.name.trim(), 'folder'))
    const created = await changes.createFolder(organisationId, path)
    await log(caller, { kind: 'folder.create', target: path })
    return c.json(folderJson(organisationId, path, created), 201)
  })

  router.patch(`/:orgId/folders`, jsonLimit, async (c) => {
    const caller = await callerOf(c, { role: 'member' })
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
    const caller = await callerOf(c, { role: 'member' })
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
