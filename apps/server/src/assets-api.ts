// Files, folders and presets of an organisation (issue 4; shapes after Pixelbin's management
// routes, reference/service-notes.md §3). Every call names its organisation in the path and goes
// through `requireOrganisation`: members (session) and the organisation's API tokens may make
// them all, anyone else gets 404 as if the organisation did not exist. Every query is scoped by
// the caller's organisation id.
//
// A move gives a file a new version, so its derived images are made again (db/asset-queries.ts
// says why); a delete takes the file's row, stored original and derived images.
//
// A folder exists when it was made (`POST …/folders`) or while a file or folder lies under it
// (uploads make folders that way). Folders are addressed by their path in the query string
// (`?path=a/b`): an encoded `/` in a URL path is refused before routing.
import {
  isUrlError,
  MAX_TRANSFORMATIONS,
  MESSAGES,
  ORIGINAL_PATTERN,
  PARAM_TYPES,
  type PresetDefinition,
  parseOperationSyntax,
  parsePattern,
} from '@tessera/url'
import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from './app.ts'
import { deliveryUrl } from './assets.ts'
import { type Caller, createAuth } from './auth.ts'
import type { AppContext } from './context.ts'
import type { RemovedFiles } from './db/asset-queries.ts'
import { isUniqueViolation, isUuid, type Preset, type StoredFile } from './db/index.ts'
import type { Folder } from './db/schema.ts'
import { assertValidFilePath } from './files.ts'
import { HttpError } from './http-error.ts'
import { jsonLimit, readBody } from './json-body.ts'
import { expandStoredPresets } from './preset-expansion.ts'
import {
  booleanText,
  freeText,
  invalidQuery,
  MAX_QUERY_PARAMS,
  parseQuery,
  type QueryParams,
  wholeNumber,
} from './query.ts'

/** Where the calls live; `{orgId}` is the organisation's `_id`. */
export const ASSET_API_BASE = '/service/panel/assets/v1.0/org'
const BASE = `${ASSET_API_BASE}/:orgId`

/** Items per page of the file and preset listings when the client gives none. */
export const ASSET_PAGE_SIZE = 20
export const ASSET_MAX_PAGE_SIZE = 100
export const ASSET_MAX_PAGE_NO = 100_000
/** Longest preset name, transformation, and most `$variables` a preset may declare. */
export const PRESET_NAME_MAX = 64
export const PRESET_TRANSFORMATION_MAX = 4096
export const PRESET_MAX_VARIABLES = 20
/** Longest query value: a folder path may be as long as a file path. */
const MAX_QUERY_VALUE = 1024

// ── input ────────────────────────────────────────────────────────────────────────────────────

// An unpaired UTF-16 surrogate, or a control character (NUL cannot even be stored in text).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/
const wellFormed = (text: string) => !LONE_SURROGATE.test(text) && !CONTROL.test(text)
const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .max(max, `must be at most ${max} characters`)
    .refine(wellFormed, 'must not contain control characters')

/** Whether `name` may name a preset: what `p:<name>` accepts in a delivery URL. */
export function isPresetName(name: string): boolean {
  if (name.length === 0 || name.length > PRESET_NAME_MAX) return false
  const syntax = parseOperationSyntax(`p:${name}`)
  return (
    syntax.ok && syntax.transformation.values === undefined && syntax.transformation.name === name
  )
}

const presetName = z
  .string({ error: 'must be a string' })
  .refine(
    isPresetName,
    `must be 1 to ${PRESET_NAME_MAX} letters, digits, _ or - (as in p:name in delivery URLs)`,
  )

const scalar = z.union(
  [text(256), z.number().refine(Number.isFinite, 'must be finite'), z.boolean(), z.null()],
  { error: 'must be a string, number, boolean or null' },
)

const presetVariable = z
  .object({
    type: z.enum(PARAM_TYPES, { error: `must be one of ${PARAM_TYPES.join(', ')}` }),
    default: scalar.optional(),
    enum: z.array(text(64)).max(100, 'must list at most 100 values').optional(),
    min: z.number().refine(Number.isFinite, 'must be finite').optional(),
    max: z.number().refine(Number.isFinite, 'must be finite').optional(),
  })
  .strict()

const presetParams = z
  .record(
    z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'variable names use letters, digits and _ only'),
    presetVariable,
  )
  .refine(
    (params) => Object.keys(params).length <= PRESET_MAX_VARIABLES,
    `must declare at most ${PRESET_MAX_VARIABLES} variables`,
  )

const transformation = text(PRESET_TRANSFORMATION_MAX)
  .transform((value) => value.trim())
  .refine((value) => value !== '', 'is required')

const createPresetBody = z
  .object({
    presetName,
    transformation,
    params: presetParams.optional(),
    archived: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict()

const updatePresetBody = z
  .object({
    transformation: transformation.optional(),
    params: presetParams.optional(),
    archived: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict()

const moveBody = z.object({ name: text(255).optional(), path: text(1024).optional() }).strict()

const createFolderBody = z.object({ name: text(255), path: text(1024).optional() }).strict()

const paging = {
  pageNo: wholeNumber(1, ASSET_MAX_PAGE_NO).default(1),
  pageSize: wholeNumber(1, ASSET_MAX_PAGE_SIZE).default(ASSET_PAGE_SIZE),
}
const filesQuery = z.object({
  ...paging,
  path: z.string().optional(),
  name: freeText(255).optional(),
})
const presetsQuery = z.object({ ...paging, archived: booleanText.optional() })
const folderQuery = z.object({ path: z.string({ error: 'is required' }) })
const deleteFolderQuery = z.object({
  path: z.string({ error: 'is required' }),
  recursive: booleanText.default(false),
})

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
}

/**
 * The query parameters, checked as the public APIs check theirs (`query.ts`), but with room for
 * a folder path (1024 characters).
 */
function readAssetQuery(url: string): QueryParams {
  const params = new Map<string, string[]>()
  let total = 0
  for (const [key, value] of new URL(url).searchParams) {
    if (++total > MAX_QUERY_PARAMS) {
      throw invalidQuery(`Too many query parameters (at most ${MAX_QUERY_PARAMS})`)
    }
    if (key.length > MAX_QUERY_VALUE || value.length > MAX_QUERY_VALUE) {
      throw invalidQuery(
        `Query parameter ${shown(key)} is longer than ${MAX_QUERY_VALUE} characters`,
      )
    }
    if (!wellFormed(key) || !wellFormed(value)) {
      throw invalidQuery(`Query parameter ${shown(key)} contains control characters`)
    }
    params.set(key, [...(params.get(key) ?? []), value])
  }
  return params
}

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
const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '')
const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1)

// ── answers ──────────────────────────────────────────────────────────────────────────────────

/** The `page` object of SPEC §7.2 (clients loop while `hasNext`). */
function pageOf(current: number, size: number, itemTotal: number) {
  return { current, size, hasNext: current * size < itemTotal, itemTotal, type: 'number' as const }
}

function fileJson(app: AppContext, cloudName: string, file: StoredFile) {
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
    assetType: file.contentType.startsWith('image/') ? 'image' : 'raw',
    size: file.size,
    width: file.width,
    height: file.height,
    version: file.version,
    url: deliveryUrl(app, cloudName, file.path),
    createdAt: file.createdAt.toISOString(),
    updatedAt: file.updatedAt.toISOString(),
  }
}

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

function presetJson(preset: Preset) {
  return {
    _id: preset.id,
    orgId: preset.organisationId,
    presetName: preset.name,
    name: preset.name,
    transformation: preset.transformation,
    params: preset.params,
    archived: preset.archived,
    createdAt: preset.createdAt.toISOString(),
    updatedAt: preset.updatedAt.toISOString(),
  }
}

const fileNotFound = (id: string) =>
  new HttpError(404, 'file_not_found', `No file ${shown(id)} in this organisation`)
const folderNotFound = (path: string) =>
  new HttpError(404, 'folder_not_found', `No folder ${shown(path)} in this organisation`)
const presetNotFound = (name: string) =>
  new HttpError(404, 'preset_not_found', `No preset ${shown(name)} in this organisation`)
const invalidTransformation = (message: string) =>
  new HttpError(400, 'invalid_transformation', message)

// ── routes ───────────────────────────────────────────────────────────────────────────────────

/** Registers the file, folder and preset calls (see docs/api.md, "Files, folders and presets"). */
export function registerAssetApi(hono: Hono<AppEnv>, app: AppContext): void {
  const { repo, storage, lookups, logger } = app
  const auth = createAuth(app)

  /** The caller of a call on the path's organisation; 404 for an id that is not a UUID. */
  async function callerOf(c: Context<AppEnv>): Promise<Caller> {
    c.set('route', 'assets-api')
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
        { failed: failed.length, err: (failed[0] as PromiseRejectedResult).reason },
        'stored objects of deleted or moved files could not be removed',
      )
    }
  }

  async function removeObjects(removed: RemovedFiles): Promise<void> {
    for (const file of removed.files) lookups.forgetFile(file.organisationId, file.path)
    await deleteObjects(removed.storageKeys)
  }

  // ── files ──────────────────────────────────────────────────────────────────────────────────

  hono.get(`${BASE}/files`, async (c) => {
    const caller = await callerOf(c)
    const query = parseQuery(readAssetQuery(c.req.url), filesQuery)
    const folder = folderPath(query.path)
    const organisationId = caller.organisation.id
    if (folder !== '' && (await repo.pathKind(organisationId, folder)) !== 'folder') {
      throw folderNotFound(folder)
    }
    const level = await repo.listFolderLevel(organisationId, {
      folder,
      name: query.name,
      limit: query.pageSize,
      offset: (query.pageNo - 1) * query.pageSize,
    })
    return c.json({
      items: [
        ...level.folders.map((entry) => folderJson(organisationId, entry.path, entry.folder)),
        ...level.files.map((file) => fileJson(app, caller.organisation.cloudName, file)),
      ],
      page: pageOf(query.pageNo, query.pageSize, level.total),
    })
  })

  hono.get(`${BASE}/files/:fileId`, async (c) => {
    const caller = await callerOf(c)
    const file = await findFile(caller, c.req.param('fileId'))
    return c.json(fileJson(app, caller.organisation.cloudName, file))
  })

  hono.patch(`${BASE}/files/:fileId`, jsonLimit, async (c) => {
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
      moved = await repo.moveFile(organisationId, file.id, { path: target, name })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      throw new HttpError(409, 'already_exists', `A file already exists at ${shown(target)}`)
    }
    if (moved === undefined) throw fileNotFound(file.id)
    // This process forgets both paths at once (the new one may be remembered as missing).
    lookups.forgetFile(organisationId, file.path)
    lookups.forgetFile(organisationId, target)
    await deleteObjects(moved.derivedStorageKeys)
    return c.json(fileJson(app, caller.organisation.cloudName, moved.file))
  })

  hono.delete(`${BASE}/files/:fileId`, async (c) => {
    const caller = await callerOf(c)
    const id = c.req.param('fileId')
    const removed = isUuid(id) ? await repo.deleteFileById(caller.organisation.id, id) : undefined
    const file = removed?.files[0]
    if (removed === undefined || file === undefined) throw fileNotFound(id)
    await removeObjects(removed)
    return c.json(fileJson(app, caller.organisation.cloudName, file))
  })

  // ── folders ────────────────────────────────────────────────────────────────────────────────

  hono.post(`${BASE}/folders`, jsonLimit, async (c) => {
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
    return c.json(folderJson(organisationId, path, created), 201)
  })

  hono.patch(`${BASE}/folders`, jsonLimit, async (c) => {
    const caller = await callerOf(c)
    const organisationId = caller.organisation.id
    const from = folderPath(parseQuery(readAssetQuery(c.req.url), folderQuery).path)
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
        lookups.forgetFile(organisationId, file.from)
        lookups.forgetFile(organisationId, file.to)
      }
      await deleteObjects(moved.derivedStorageKeys)
    }
    return c.json(folderJson(organisationId, to, await repo.findFolder(organisationId, to)))
  })

  hono.delete(`${BASE}/folders`, async (c) => {
    const caller = await callerOf(c)
    const query = parseQuery(readAssetQuery(c.req.url), deleteFolderQuery)
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
    return c.json({ path, deleted: { files: result.files.length, folders: result.folders } })
  })

  // ── presets ────────────────────────────────────────────────────────────────────────────────

  /** The pattern expanded with the organisation's stored presets and `own` (being checked). */
  async function expandStored(
    organisationId: string,
    pattern: string,
    own: { name: string; definition: PresetDefinition },
  ): Promise<string> {
    const expanded = await expandStoredPresets(
      pattern,
      (name) => repo.findPreset(organisationId, name),
      new Map([[own.name, own.definition]]),
    )
    if (expanded === undefined) throw invalidTransformation(MESSAGES.presetTooDeep(own.name))
    return expanded
  }

  /**
   * Refuses a preset delivery could not use: a transformation the URL language does not accept
   * (its message), a `$variable` it does not declare, a preset it refers to that is missing or
   * archived, a cycle, or more than 15 operations once expanded. With a default for every
   * variable it is expanded whole, so the defaults are checked against the operations too.
   */
  async function checkPreset(
    organisationId: string,
    name: string,
    pattern: string,
    params: z.output<typeof presetParams>,
  ): Promise<void> {
    if (pattern === ORIGINAL_PATTERN) {
      throw invalidTransformation('A preset needs at least one operation')
    }
    const parsed = parsePattern(pattern)
    const issue = parsed.issues[0]
    if (issue !== undefined) {
      throw invalidTransformation(
        issue.code === 'invalid_syntax'
          ? `${MESSAGES.invalidPattern}: ${issue.message} in '${issue.operation.slice(0, 80)}'`
          : issue.message,
      )
    }
    const used = new Set<string>()
    for (const operation of parsed.value) {
      if (operation.presetName === name) throw invalidTransformation(MESSAGES.presetTooDeep(name))
      for (const value of Object.values(operation.params)) {
        if (typeof value === 'string' && value.startsWith('$')) used.add(value.slice(1))
      }
    }
    for (const variable of used) {
      if (!Object.hasOwn(params, variable)) {
        throw invalidTransformation(MESSAGES.variableNotDefined(variable))
      }
    }
    for (const operation of parsed.value) {
      if (operation.presetName === undefined) continue
      const other = await repo.findPreset(organisationId, operation.presetName)
      if (other === undefined)
        throw invalidTransformation(MESSAGES.presetInvalid(operation.presetName))
      if (other.archived) throw invalidTransformation(MESSAGES.presetArchived(operation.presetName))
    }
    const defaults = [...used].every((variable) => {
      const given = params[variable]?.default
      return given !== undefined && given !== null
    })
    if (!defaults) {
      if (parsed.value.length > MAX_TRANSFORMATIONS) {
        throw invalidTransformation(MESSAGES.maxTransformations)
      }
      return
    }
    let expanded: string
    try {
      expanded = await expandStored(organisationId, `p:${name}`, {
        name,
        definition: { transformation: pattern, params: params as PresetDefinition['params'] },
      })
    } catch (error) {
      if (isUrlError(error)) throw invalidTransformation(error.message)
      throw error
    }
    const whole = parsePattern(expanded)
    const problem = whole.issues[0]
    if (problem !== undefined) throw invalidTransformation(problem.message)
    if (whole.value.length > MAX_TRANSFORMATIONS) {
      throw invalidTransformation(MESSAGES.maxTransformations)
    }
  }

  async function findPreset(caller: Caller, name: string): Promise<Preset> {
    const preset = isPresetName(name)
      ? await repo.findPreset(caller.organisation.id, name)
      : undefined
    if (preset === undefined) throw presetNotFound(name)
    return preset
  }

  hono.post(`${BASE}/presets`, jsonLimit, async (c) => {
    const caller = await callerOf(c)
    const organisationId = caller.organisation.id
    const body = await readBody(c, createPresetBody)
    const params = body.params ?? {}
    if ((await repo.findPreset(organisationId, body.presetName)) !== undefined) {
      throw new HttpError(409, 'already_exists', `A preset named ${shown(body.presetName)} exists`)
    }
    await checkPreset(organisationId, body.presetName, body.transformation, params)
    const created = await repo.createPreset(organisationId, {
      name: body.presetName,
      transformation: body.transformation,
      params,
      archived: body.archived ?? false,
    })
    if (created === undefined) {
      throw new HttpError(409, 'already_exists', `A preset named ${shown(body.presetName)} exists`)
    }
    lookups.forgetPreset(organisationId, created.name)
    return c.json(presetJson(created), 201)
  })

  hono.get(`${BASE}/presets`, async (c) => {
    const caller = await callerOf(c)
    const query = parseQuery(readAssetQuery(c.req.url), presetsQuery)
    const page = await repo.listPresetPage(caller.organisation.id, {
      archived: query.archived,
      limit: query.pageSize,
      offset: (query.pageNo - 1) * query.pageSize,
    })
    return c.json({
      items: page.items.map(presetJson),
      page: pageOf(query.pageNo, query.pageSize, page.total),
    })
  })

  hono.get(`${BASE}/presets/:presetName`, async (c) => {
    const caller = await callerOf(c)
    return c.json(presetJson(await findPreset(caller, c.req.param('presetName'))))
  })

  hono.patch(`${BASE}/presets/:presetName`, jsonLimit, async (c) => {
    const caller = await callerOf(c)
    const organisationId = caller.organisation.id
    const body = await readBody(c, updatePresetBody)
    if (Object.keys(body).length === 0) {
      throw new HttpError(400, 'invalid_body', 'Give transformation, params or archived')
    }
    const preset = await findPreset(caller, c.req.param('presetName'))
    if (body.transformation !== undefined || body.params !== undefined) {
      await checkPreset(
        organisationId,
        preset.name,
        body.transformation ?? preset.transformation,
        body.params ?? (preset.params as z.output<typeof presetParams>),
      )
    }
    const updated = await repo.updatePreset(organisationId, preset.name, body)
    if (updated === undefined) throw presetNotFound(preset.name)
    lookups.forgetPreset(organisationId, preset.name)
    return c.json(presetJson(updated))
  })

  hono.delete(`${BASE}/presets/:presetName`, async (c) => {
    const caller = await callerOf(c)
    const preset = await findPreset(caller, c.req.param('presetName'))
    const deleted = await repo.deletePreset(caller.organisation.id, preset.name)
    if (deleted === undefined) throw presetNotFound(preset.name)
    lookups.forgetPreset(caller.organisation.id, preset.name)
    return c.json(presetJson(deleted))
  })
}
