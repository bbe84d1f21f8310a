// The library's search and the file fields of issue 22: tags, metadata and access, files by
// their Pixelbin id (`folder/name` without extension), folders by id, and the folder rows that
// give every folder (made explicitly or implied by an upload) a stable id.
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { rowsOf } from './query-helpers.ts'
import { type FileAccess, type Folder, files, folders, type StoredFile } from './schema.ts'

/** The orders of a search: a field, `-` before it for descending. */
export const SEARCH_SORTS = [
  'name',
  '-name',
  'createdAt',
  '-createdAt',
  'updatedAt',
  '-updatedAt',
  'size',
  '-size',
  'format',
  '-format',
] as const
export type SearchSort = (typeof SEARCH_SORTS)[number]

/** What a library search filters on; every filter given must hold. */
export interface FileSearch {
  /** The folder searched (`''`: the whole library). */
  folder: string
  /** true: files anywhere under `folder`; false: only files directly in it. */
  recursive: boolean
  /** Name contains this text (case-insensitive, literal). */
  name?: string | undefined
  /** The file's whole path contains this text (case-insensitive, literal). */
  pathText?: string | undefined
  /** Files carrying every one of these tags. */
  tags?: readonly string[] | undefined
  /** Files whose metadata holds this object (JSON containment: `{ "sku": "A1" }`). */
  metadata?: Record<string, unknown> | undefined
  /** Files of any of these formats (`jpeg`, `png`, …). */
  formats?: readonly string[] | undefined
  access?: FileAccess | undefined
  minSize?: number | undefined
  maxSize?: number | undefined
  createdAfter?: Date | undefined
  createdBefore?: Date | undefined
  updatedAfter?: Date | undefined
  updatedBefore?: Date | undefined
  sort?: SearchSort | undefined
  limit: number
  offset: number
}

/** The fields of a file its owner may change without moving it. */
export interface FileFieldChanges {
  access?: FileAccess | undefined
  tags?: string[] | undefined
  metadata?: Record<string, unknown> | undefined
}

const containsText = (column: SQL, text: string): SQL =>
  sql`strpos(lower(${column}), lower(${text}::text)) > 0`

function searchOrder(sort: SearchSort): SQL[] {
  const descending = sort.startsWith('-')
  const field = descending ? sort.slice(1) : sort
  const direction = (column: SQL) => (descending ? sql`${column} desc` : sql`${column} asc`)
  // Ties are broken by id, so the order is total and pages never repeat or skip a file.
  const tie = descending ? desc(files.id) : asc(files.id)
  switch (field) {
    case 'createdAt':
      return [direction(sql`${files.createdAt}`), tie]
    case 'updatedAt':
      return [direction(sql`${files.updatedAt}`), tie]
    case 'size':
      return [direction(sql`${files.size}`), tie]
    case 'format':
      return [direction(sql`${files.format} collate "C"`), tie]
    default:
      return [direction(sql`lower(${files.name}) collate "C"`), tie]
  }
}

/** Organisations whose implied folders one process remembers having given rows. */
const MAX_BACKFILLED = 10_000

/** The queries of the library's search and the file and folder fields of issue 22. */
export function createFileSearchQueries(db: Db) {
  const backfilled = new Set<string>()

  function searchWhere(organisationId: string, search: FileSearch): SQL | undefined {
    const prefix = search.folder === '' ? '' : `${search.folder}/`
    const conditions: (SQL | undefined)[] = [eq(files.organisationId, organisationId)]
    if (prefix !== '') conditions.push(sql`starts_with(${files.path}, ${prefix}::text)`)
    if (!search.recursive) {
      conditions.push(sql`strpos(substr(${files.path}, char_length(${prefix}::text) + 1), '/') = 0`)
    }
    if (search.name !== undefined) conditions.push(containsText(sql`${files.name}`, search.name))
    if (search.pathText !== undefined) {
      conditions.push(containsText(sql`${files.path}`, search.pathText))
    }
    if (search.tags !== undefined && search.tags.length > 0) {
      const tags = sql.join(
        search.tags.map((tag) => sql`${tag}::text`),
        sql`, `,
      )
      conditions.push(sql`${files.tags} @> array[${tags}]::text[]`)
    }
    if (search.metadata !== undefined && Object.keys(search.metadata).length > 0) {
      conditions.push(sql`${files.metadata} @> ${JSON.stringify(search.metadata)}::jsonb`)
    }
    if (search.formats !== undefined && search.formats.length > 0) {
      conditions.push(inArray(files.format, [...search.formats]))
    }
    if (search.access !== undefined) conditions.push(eq(files.access, search.access))
    if (search.minSize !== undefined) conditions.push(sql`${files.size} >= ${search.minSize}`)
    if (search.maxSize !== undefined) conditions.push(sql`${files.size} <= ${search.maxSize}`)
    const at = (date: Date) => sql`${date.toISOString()}::timestamptz`
    if (search.createdAfter !== undefined) {
      conditions.push(sql`${files.createdAt} >= ${at(search.createdAfter)}`)
    }
    if (search.createdBefore !== undefined) {
      conditions.push(sql`${files.createdAt} < ${at(search.createdBefore)}`)
    }
    if (search.updatedAfter !== undefined) {
      conditions.push(sql`${files.updatedAt} >= ${at(search.updatedAfter)}`)
    }
    if (search.updatedBefore !== undefined) {
      conditions.push(sql`${files.updatedAt} < ${at(search.updatedBefore)}`)
    }
    return and(...conditions)
  }

  /** One page of the organisation's files matching `search`, and how many match in all. */
  async function searchFiles(
    organisationId: string,
    search: FileSearch,
  ): Promise<{ files: StoredFile[]; total: number }> {
    const where = searchWhere(organisationId, search)
    const [rows, counted] = await Promise.all([
      db
        .select()
        .from(files)
        .where(where)
        .orderBy(...searchOrder(search.sort ?? 'name'))
        .limit(search.limit)
        .offset(search.offset),
      db.select({ total: sql<number>`count(*)::int` }).from(files).where(where),
    ])
    return { files: rows, total: counted[0]?.total ?? 0 }
  }

  /**
   * Folder rows in `folder` (or anywhere below it, `recursive`) whose name contains `name`, one
   * page, by name. Folders only implied by files get their rows first.
   */
  async function searchFolders(
    organisationId: string,
    options: { folder: string; name: string; recursive: boolean; limit: number; offset: number },
  ): Promise<{ folders: Folder[]; total: number }> {
    await ensureImpliedFolders(organisationId)
    const prefix = options.folder === '' ? '' : `${options.folder}/`
    const lastSegment = sql`regexp_replace(${folders.path}, '^.*/', '')`
    const where = and(
      eq(folders.organisationId, organisationId),
      sql`starts_with(${folders.path}, ${prefix}::text)`,
      sql`char_length(${folders.path}) > char_length(${prefix}::text)`,
      options.recursive
        ? undefined
        : sql`strpos(substr(${folders.path}, char_length(${prefix}::text) + 1), '/') = 0`,
      containsText(lastSegment, options.name),
    )
    const [rows, counted] = await Promise.all([
      db
        .select()
        .from(folders)
        .where(where)
        .orderBy(sql`lower(${lastSegment}) collate "C"`, asc(folders.path))
        .limit(options.limit)
        .offset(options.offset),
      db.select({ total: sql<number>`count(*)::int` }).from(folders).where(where),
    ])
    return { folders: rows, total: counted[0]?.total ?? 0 }
  }

  /**
   * A file by Pixelbin's file id: its folder and name without the extension (`dir/sub/name`),
   * or its whole path. Where two formats share a stem (`a.jpg`, `a.png`) the newest answers.
   */
  async function findFileByStem(
    organisationId: string,
    fileId: string,
  ): Promise<StoredFile | undefined> {
    const [row] = await db
      .select()
      .from(files)
      .where(
        and(
          eq(files.organisationId, organisationId),
          sql`(${files.path} = ${fileId}::text or regexp_replace(${files.path}, '\\.[^./]*$', '') = ${fileId}::text)`,
        ),
      )
      .orderBy(sql`${files.path} = ${fileId}::text desc`, desc(files.updatedAt), desc(files.id))
      .limit(1)
    return row
  }

  /** Sets a file's access, tags or metadata; undefined when there is no such file. */
  async function updateFileFields(
    organisationId: string,
    id: string,
    changes: FileFieldChanges,
  ): Promise<StoredFile | undefined> {
    const set: Partial<typeof files.$inferInsert> = {}
    if (changes.access !== undefined) set.access = changes.access
    if (changes.tags !== undefined) set.tags = changes.tags
    if (changes.metadata !== undefined) set.metadata = changes.metadata
    if (Object.keys(set).length === 0) {
      const [row] = await db
        .select()
        .from(files)
        .where(and(eq(files.organisationId, organisationId), eq(files.id, id)))
      return row
    }
    const [row] = await db
      .update(files)
      .set({ ...set, updatedAt: sql`now()` })
      .where(and(eq(files.organisationId, organisationId), eq(files.id, id)))
      .returning()
    return row
  }

  /**
   * Makes a row for every folder the organisation's files imply and none has yet (files stored
   * before uploads made folder rows), so every folder has a stable `_id`. Uploads and moves make
   * their folders' rows since, so a search runs this once per organisation and process
   * (`ensureImpliedFolders`).
   */
  async function makeImpliedFolders(organisationId: string): Promise<void> {
    await db.execute(sql`
      insert into folders (organisation_id, path)
      select distinct f.organisation_id,
             array_to_string((string_to_array(f.path, '/'))[1:n.depth], '/')
        from files f
        cross join lateral generate_series(1, array_length(string_to_array(f.path, '/'), 1) - 1)
             as n(depth)
       where f.organisation_id = ${organisationId}
      on conflict (organisation_id, path) do nothing`)
  }

  /** `makeImpliedFolders` the first time an organisation is searched in this process. */
  async function ensureImpliedFolders(organisationId: string): Promise<void> {
    if (backfilled.has(organisationId)) return
    await makeImpliedFolders(organisationId)
    // Bounded: past the bound the set starts again (a second backfill finds nothing to add).
    if (backfilled.size >= MAX_BACKFILLED) backfilled.clear()
    backfilled.add(organisationId)
  }

  /** A folder row of the organisation by id (undefined for an id that is no UUID). */
  async function findFolderById(organisationId: string, id: string): Promise<Folder | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
      return undefined
    }
    const [row] = await db
      .select()
      .from(folders)
      .where(and(eq(folders.organisationId, organisationId), eq(folders.id, id)))
    return row
  }

  /** The folder rows at `paths` (made first when missing: the folders exist by implication). */
  async function folderRows(organisationId: string, paths: readonly string[]): Promise<Folder[]> {
    if (paths.length === 0) return []
    await db
      .insert(folders)
      .values(paths.map((path) => ({ organisationId, path })))
      .onConflictDoNothing({ target: [folders.organisationId, folders.path] })
    const rows = await db
      .select()
      .from(folders)
      .where(and(eq(folders.organisationId, organisationId), inArray(folders.path, [...paths])))
    const byPath = new Map(rows.map((row) => [row.path, row]))
    return paths.flatMap((path) => byPath.get(path) ?? [])
  }

  /** The distinct tags of the organisation's files with how many files carry each, most first. */
  async function listTags(
    organisationId: string,
    limit: number,
  ): Promise<{ tag: string; files: number }[]> {
    const result = await db.execute(sql`
      select t.tag, count(*)::int as files
        from files f cross join lateral unnest(f.tags) as t(tag)
       where f.organisation_id = ${organisationId}
       group by t.tag
       order by count(*) desc, t.tag collate "C"
       limit ${limit}`)
    return rowsOf<{ tag: string; files: number }>(result)
  }

  return {
    searchFiles,
    searchFolders,
    findFileByStem,
    updateFileFields,
    makeImpliedFolders,
    findFolderById,
    folderRows,
    listTags,
  }
}
