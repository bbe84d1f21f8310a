// The files and folders of Pixelbin's platform API (pixelbin/routes.ts mounts them): files by
// `_id` and by Pixelbin's file id (`dir/sub/name`, without extension), the search, updates and
// deletes through assets/file-changes.ts, folders by `_id`. The organisation is the token's;
// another organisation's ids and paths answer 404 exactly as ids and paths that do not exist.
import { type Context, Hono } from 'hono'
import type { Caller } from '../accounts/auth.ts'
import { createFileChanges, fileNotFound, readFileChanges } from '../assets/file-changes.ts'
import { fileJson } from '../assets/file-json.ts'
import { assertValidFilePath } from '../assets/files.ts'
import { folderJson, readSearch, runSearch } from '../assets/search.ts'
import type { AppContext, AppEnv } from '../context.ts'
import { type Folder, isUuid, type StoredFile } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit } from '../http/json-body.ts'
import { readQuery, shown } from '../http/query.ts'
import { invalidField, objectBody } from './platform-body.ts'

const folderNotFound = (id: string) =>
  new HttpError(404, 'folder_not_found', `No folder ${shown(id)} in this organisation`)

/** The file and folder routes, relative to `PLATFORM`; `callerOf` answers the token's caller. */
export function platformFileRoutes(
  app: AppContext,
  callerOf: (c: Context<AppEnv>) => Promise<Caller>,
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo } = app
  const changes = createFileChanges(app)

  /**
   * The file a Pixelbin file id names: `dir/sub/name` (or the whole path), or the `fileId` the
   * answers carry (the same as `_id`), so an answer's `fileId` can be passed back as it is.
   */
  async function fileByStem(caller: Caller, fileId: string): Promise<StoredFile> {
    const organisationId = caller.organisation.id
    const file =
      (isUuid(fileId) ? await repo.findFileById(organisationId, fileId) : undefined) ??
      (await repo.findFileByStem(organisationId, fileId))
    if (file === undefined) throw fileNotFound(fileId)
    return file
  }

  async function folderById(caller: Caller, id: string): Promise<Folder> {
    const folder = await repo.findFolderById(caller.organisation.id, id)
    if (folder === undefined) throw folderNotFound(id)
    return folder
  }

  /** The `dir/sub/name` after `…/files/` in the raw path (slashes kept, segments decoded). */
  function fileIdOf(c: Context<AppEnv>): string {
    const path = new URL(c.req.url).pathname
    const at = path.indexOf('/assets/v1.0/files/') + '/assets/v1.0/files/'.length
    try {
      return path
        .slice(at)
        .split('/')
        .map((segment) => decodeURIComponent(segment))
        .join('/')
    } catch {
      throw invalidField('fileId is not a valid path')
    }
  }

  const files = (cloudName: string, file: StoredFile) => fileJson(app, cloudName, file)

  // ── files ─────────────────────────────────────────────────────────────────────────────────

  router.get('/assets/v1.0/listFiles', async (c) => {
    const caller = await callerOf(c)
    const asked = readSearch(readQuery(c.req.url, 1024))
    return c.json(await runSearch(app, caller.organisation, asked))
  })

  router.get('/assets/v1.0/files/id/:id', async (c) => {
    const caller = await callerOf(c)
    const file = await repo.findFileById(caller.organisation.id, c.req.param('id'))
    if (file === undefined) throw fileNotFound(c.req.param('id'))
    return c.json(files(caller.organisation.cloudName, file))
  })

  router.post('/assets/v1.0/files/delete', jsonLimit, async (c) => {
    const caller = await callerOf(c)
    const body = await objectBody(c)
    const ids = body.ids
    if (
      !Array.isArray(ids) ||
      ids.length === 0 ||
      ids.length > 100 ||
      !ids.every((id) => typeof id === 'string')
    ) {
      throw invalidField('ids must be a list of 1 to 100 file _id values')
    }
    const deleted = await changes.deleteFiles(caller.organisation.id, ids as string[])
    return c.json(deleted.map((file) => files(caller.organisation.cloudName, file)))
  })

  // `fileId` is `dir/sub/name` with its slashes, which no `:param` matches: one wildcard route
  // answers the three methods (declared in OpenAPI as …/files/{fileId}).
  router.all('/assets/v1.0/files/*', jsonLimit, async (c) => {
    const method = c.req.method
    if (method !== 'GET' && method !== 'PATCH' && method !== 'DELETE') {
      throw new HttpError(405, 'method_not_allowed', `${method} is not a call on a file`, {
        headers: { allow: 'GET, PATCH, DELETE' },
      })
    }
    const caller = await callerOf(c)
    const fileId = fileIdOf(c)
    if (method === 'GET') {
      return c.json(files(caller.organisation.cloudName, await fileByStem(caller, fileId)))
    }
    if (method === 'PATCH') {
      const wanted = readFileChanges(await objectBody(c))
      const file = await fileByStem(caller, fileId)
      const changed = await changes.changeFile(file, wanted, { keepExtension: true })
      return c.json(files(caller.organisation.cloudName, changed))
    }
    const file = await fileByStem(caller, fileId)
    const [deleted] = await changes.deleteFiles(caller.organisation.id, [file.id])
    if (deleted === undefined) throw fileNotFound(fileId)
    return c.json(files(caller.organisation.cloudName, deleted))
  })

  // ── folders ───────────────────────────────────────────────────────────────────────────────

  router.post('/assets/v1.0/folders', jsonLimit, async (c) => {
    const caller = await callerOf(c)
    const body = await objectBody(c)
    for (const field of Object.keys(body)) {
      if (field !== 'name' && field !== 'path') {
        throw new HttpError(400, 'unknown_field', `${shown(field)} is not a field of createFolder`)
      }
    }
    if (typeof body.name !== 'string' || body.name.trim() === '' || body.name.includes('/')) {
      throw invalidField('name must be a folder name (one segment, no /)')
    }
    if (body.path !== undefined && body.path !== null && typeof body.path !== 'string') {
      throw invalidField('path must be text')
    }
    const parent = (typeof body.path === 'string' ? body.path : '').replace(/^\/+|\/+$/g, '')
    const path = parent === '' ? body.name.trim() : `${parent}/${body.name.trim()}`
    const organisationId = caller.organisation.id
    const created = await changes.createFolder(organisationId, path)
    return c.json(folderJson(organisationId, path, created))
  })

  // getFolderDetails: the folders named `name` in `path` (Pixelbin answers a list).
  router.get('/assets/v1.0/folders', async (c) => {
    const caller = await callerOf(c)
    const params = readQuery(c.req.url, 1024)
    const name = params.get('name')?.[0]?.trim() ?? ''
    const parent = (params.get('path')?.[0] ?? '').replace(/^\/+|\/+$/g, '')
    if (name === '') throw new HttpError(400, 'invalid_query', 'name is required')
    if (parent !== '') assertValidFilePath(parent)
    const path = parent === '' ? name : `${parent}/${name}`
    assertValidFilePath(path)
    const organisationId = caller.organisation.id
    if ((await repo.pathKind(organisationId, path)) !== 'folder') return c.json([])
    const [row] = await repo.folderRows(organisationId, [path])
    return c.json([folderJson(organisationId, path, row)])
  })

  router.get('/assets/v1.0/folders/:id/ancestors', async (c) => {
    const caller = await callerOf(c)
    const folder = await folderById(caller, c.req.param('id'))
    const segments = folder.path.split('/')
    const paths = segments.slice(0, -1).map((_, index) => segments.slice(0, index + 1).join('/'))
    const rows = await repo.folderRows(caller.organisation.id, paths)
    const organisationId = caller.organisation.id
    return c.json({
      folder: folderJson(organisationId, folder.path, folder),
      ancestors: rows.map((row) => folderJson(organisationId, row.path, row)),
    })
  })

  // updateFolder: Pixelbin's only field is isActive (a soft delete), which is not kept here.
  router.patch('/assets/v1.0/folders/:id', jsonLimit, async (c) => {
    const caller = await callerOf(c)
    const body = await objectBody(c)
    for (const field of Object.keys(body)) {
      if (field !== 'isActive') {
        throw new HttpError(400, 'unknown_field', `${shown(field)} is not a field of updateFolder`)
      }
    }
    if (body.isActive !== undefined && typeof body.isActive !== 'boolean') {
      throw invalidField('isActive must be true or false')
    }
    const folder = await folderById(caller, c.req.param('id'))
    if (body.isActive === false) {
      throw invalidField(
        'isActive false (a soft delete) is not kept by this server: delete the folder instead',
      )
    }
    return c.json(folderJson(caller.organisation.id, folder.path, folder))
  })

  // deleteFolder: the folder and everything under it (Pixelbin's deleteFolder).
  router.delete('/assets/v1.0/folders/:id', async (c) => {
    const caller = await callerOf(c)
    const folder = await folderById(caller, c.req.param('id'))
    const result = await repo.deleteFolder(caller.organisation.id, folder.path, true)
    if (result === 'not_found') throw folderNotFound(c.req.param('id'))
    if (result === 'not_empty')
      throw new HttpError(409, 'folder_not_empty', 'The folder is not empty')
    await changes.removeObjects(result)
    return c.json([folderJson(caller.organisation.id, folder.path, folder)])
  })

  return router
}
