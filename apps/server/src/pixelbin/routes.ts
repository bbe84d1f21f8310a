// Pixelbin's platform API (`/service/platform/*`, issue 22): the paths, ids and shapes
// `@pixelbin/admin` 4.2 uses, mapped onto Tessera's features — a thin layer, never a second
// implementation (DESIGN §5). Uploads go through assets/upload.ts, files and folders through the
// asset queries and assets/file-changes.ts, the search through assets/search.ts; presets, the
// organisation's details and the transformation context are the panel's own calls, dispatched
// in-process with the path rewritten; usage reads the billing and usage queries.
//
// Every call needs an API token (`Authorization: Bearer <token or its base64>`): the
// organisation is the token's, and no organisation id appears in a path. A session cookie is
// not enough here (the panel's request signatures guard cookie calls; these paths have none).
// Another organisation's ids and paths answer 404 exactly as ids and paths that do not exist.
import { CATALOGUE, type PluginSpec } from '@tessera/url'
import { type Context, Hono } from 'hono'
import { type Auth, bearerToken, type Caller } from '../accounts/auth.ts'
import { ORGANIZATION } from '../accounts/paths.ts'
import { createFileChanges, fileNotFound, readFileChanges } from '../assets/file-changes.ts'
import { fileJson } from '../assets/file-json.ts'
import { assertValidFilePath, IMAGE_FORMATS } from '../assets/files.ts'
import { ASSET_API_BASE } from '../assets/paths.ts'
import { folderJson, readSearch, runSearch } from '../assets/search.ts'
import type { Assets } from '../assets/upload.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { Folder, StoredFile } from '../db/index.ts'
import { DEMO_CLOUD_NAME } from '../demo/seed.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readJson } from '../http/json-body.ts'
import { readQuery, shown } from '../http/query.ts'
import { TRANSFORMATION_CONTEXT } from '../transformation/paths.ts'

/** Sends a request through the whole app (the panel's calls), as if a client had made it. */
export type Dispatch = (request: Request, env: unknown) => Response | Promise<Response>

const folderNotFound = (id: string) =>
  new HttpError(404, 'folder_not_found', `No folder ${shown(id)} in this organisation`)

const invalidField = (message: string) => new HttpError(400, 'invalid_field', message)

/** The JSON object body of a call, or 400. */
async function objectBody(c: Context): Promise<Record<string, unknown>> {
  const body = await readJson(c)
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_body', 'The body must be a JSON object')
  }
  return body as Record<string, unknown>
}

/** A plugin of the catalogue in the shape of Pixelbin's `getModules`. */
function pluginJson(plugin: PluginSpec) {
  return {
    identifier: plugin.id,
    name: plugin.name,
    description: plugin.description,
    credentials: { required: false },
    operations: plugin.operations.map((operation) => ({
      identifier: operation.method,
      name: operation.displayName,
      description: operation.description,
      available: operation.runnable,
      ...(operation.unavailableReason === undefined
        ? {}
        : { unavailableReason: operation.unavailableReason }),
      params: operation.params,
    })),
    enabled: true,
  }
}

/**
 * The platform routes, mounted at `PLATFORM`. `dispatch` runs a request through the app (for
 * the calls that are the panel's own under another path).
 */
export function pixelbinRoutes(
  app: AppContext,
  { auth, assets }: { auth: Auth; assets: Assets },
  dispatch: Dispatch,
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo } = app
  const changes = createFileChanges(app)

  // A token, always: the organisation is the token's, and cookies get no unsigned way in.
  router.use('*', async (c, next) => {
    c.header('cache-control', 'no-store')
    if (bearerToken(c) === undefined) {
      throw new HttpError(
        401,
        'unauthenticated',
        'Send an API token: Authorization: Bearer <token> (as Pixelbin’s SDKs send it)',
      )
    }
    await next()
  })

  const callerOf = (c: Context<AppEnv>): Promise<Caller> => auth.requireAnyOrganisation(c)

  /** The panel's call at `path` (with this request's query, method, body and token). */
  async function forward(c: Context<AppEnv>, path: string): Promise<Response> {
    const url = new URL(c.req.url)
    const headers = new Headers(c.req.raw.headers)
    headers.delete('cookie')
    const init: RequestInit = { method: c.req.method, headers }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') init.body = await c.req.arrayBuffer()
    return dispatch(new Request(new URL(`${path}${url.search}`, url), init), c.env)
  }

  const orgPath = (caller: Caller, rest: string) =>
    `${ASSET_API_BASE}/${caller.organisation.id}${rest}`

  async function fileByStem(caller: Caller, fileId: string): Promise<StoredFile> {
    const file = await repo.findFileByStem(caller.organisation.id, fileId)
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

  // ── uploads: the direct and URL uploads of assets/upload.ts ───────────────────────────────

  router.post('/assets/v1.0/upload/direct', (c) => assets.uploadDirect(c))
  router.post('/assets/v1.0/upload/url', jsonLimit, (c) => assets.uploadFromUrl(c))

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
    assertValidFilePath(path)
    const organisationId = caller.organisation.id
    const taken = await repo.pathKind(organisationId, path)
    const created = taken === undefined ? await repo.createFolder(organisationId, path) : undefined
    if (created === undefined) {
      throw new HttpError(
        409,
        'already_exists',
        `A ${taken ?? 'folder'} already exists at ${shown(path)}`,
      )
    }
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

  // ── presets: the panel's preset calls under the token's organisation ──────────────────────

  router.on(['GET', 'POST'], '/assets/v1.0/presets', async (c) =>
    forward(c, orgPath(await callerOf(c), '/presets')),
  )
  router.on(['GET', 'PATCH', 'DELETE'], '/assets/v1.0/presets/:presetName', async (c) =>
    forward(
      c,
      orgPath(await callerOf(c), `/presets/${encodeURIComponent(c.req.param('presetName'))}`),
    ),
  )

  // ── playground: a default image and the operation catalogue ───────────────────────────────

  // Pixelbin answers one image of its own for every organisation; here it is the organisation's
  // newest public image, or before its first upload the demo organisation's (public samples).
  router.get('/assets/v1.0/playground/default', async (c) => {
    const caller = await callerOf(c)
    const newestImage = (organisationId: string) =>
      repo.searchFiles(organisationId, {
        folder: '',
        recursive: true,
        formats: [...IMAGE_FORMATS].filter((format) => format !== 'svg'),
        access: 'public-read',
        sort: '-updatedAt',
        limit: 1,
        offset: 0,
      })
    const [own] = (await newestImage(caller.organisation.id)).files
    if (own !== undefined) return c.json(files(caller.organisation.cloudName, own))
    const demo = await app.lookups.organisationByCloudName(DEMO_CLOUD_NAME)
    const [sample] = demo === undefined ? [] : (await newestImage(demo.id)).files
    if (demo === undefined || sample === undefined || demo.requireSignedUrls) {
      throw new HttpError(
        404,
        'no_default_asset',
        'Upload an image first: the playground uses the newest one',
      )
    }
    return c.json(files(demo.cloudName, sample))
  })

  router.get('/assets/v1.0/playground/plugins', async (c) => {
    await callerOf(c)
    return c.json({
      plugins: Object.fromEntries(
        CATALOGUE.plugins.map((plugin) => [plugin.id, pluginJson(plugin)]),
      ),
      presets: [],
    })
  })

  router.get('/assets/v1.0/playground/plugins/:identifier', async (c) => {
    await callerOf(c)
    const plugin = CATALOGUE.getPlugin(c.req.param('identifier'))
    if (plugin === undefined) {
      throw new HttpError(404, 'plugin_not_found', `No plugin ${shown(c.req.param('identifier'))}`)
    }
    return c.json(pluginJson(plugin))
  })

  // ── credentials: nothing to keep, the models run on this server ───────────────────────────

  const noCredentials = async (c: Context<AppEnv>) => {
    await callerOf(c)
    throw new HttpError(
      400,
      'credentials_not_needed',
      'This server runs every model itself: no third-party plugin credentials are needed, and none are kept',
    )
  }
  router.post('/assets/v1.0/credentials', noCredentials)
  router.on(['PATCH', 'DELETE'], '/assets/v1.0/credentials/:pluginId', noCredentials)

  // ── organisation, transformation context, usage ───────────────────────────────────────────

  router.get('/organization/v1.0/apps/info', async (c) => {
    const caller = await callerOf(c)
    const answer = await forward(c, `${ORGANIZATION}/${caller.organisation.id}`)
    if (!answer.ok) return answer
    const org = (await answer.json()) as Record<string, unknown>
    const token = (await repo.listApiTokens(caller.organisation.id)).find(
      (each) => each.id === caller.tokenId,
    )
    return c.json({
      app: {
        _id: caller.tokenId,
        orgId: caller.organisation.id,
        name: token?.name ?? 'API token',
        token: token === undefined ? undefined : `${token.prefix}…`,
        permissions: ['read', 'write'],
        active: true,
        createdAt: token?.createdAt.toISOString(),
      },
      org,
    })
  })

  router.get('/transformation/context', async (c) => {
    await callerOf(c)
    const answer = await forward(c, TRANSFORMATION_CONTEXT)
    if (!answer.ok) return answer
    const body = (await answer.json()) as Record<string, unknown>
    return c.json('context' in body ? body : { context: body }, answer.status as 200)
  })

  /** Storage used and the credits of the current month (or subscription period). */
  async function usage(caller: Caller) {
    const organisationId = caller.organisation.id
    const [stored, summary] = await Promise.all([
      repo.organisationUsage(organisationId),
      repo.creditSummary(organisationId),
    ])
    if (stored === undefined || summary === undefined) {
      throw new HttpError(404, 'organisation_not_found', 'The organisation is gone')
    }
    const now = new Date()
    const since =
      summary.subscription?.currentPeriodStart ??
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
    const used = await repo.creditsSpentSince(organisationId, since)
    return {
      storage: { used: stored.bytes, total: null, files: stored.files },
      credits: { used, total: used + stored.credits, balance: stored.credits },
      since,
    }
  }

  router.get('/payment/v1.0/usage', async (c) => {
    const { storage, credits } = await usage(await callerOf(c))
    return c.json({ storage, credits })
  })

  router.get('/payment/v1.0/usage/subscription', async (c) => {
    const { storage, credits, since } = await usage(await callerOf(c))
    return c.json({
      credits: { used: credits.used },
      total: { credits: credits.total, storage: storage.total },
      storage: { used: storage.used },
      period: { start: since.toISOString() },
    })
  })

  return router
}
