import { and, count, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { rowsOf } from './query-helpers.ts'
import { type Folder, files, folders, type StoredFile } from './schema.ts'

/** One level of a folder: its sub-folders (by name) and files, one page of them. */
export interface FolderLevel {
  /** Sub-folders on this page, ordered by name; `folder` is the explicit row, if one exists. */
  folders: { name: string; path: string; folder: Folder | undefined }[]
  files: StoredFile[]
  /** Sub-folders and files on all pages. */
  total: number
}

/** The orders of a folder level (the console library's "Sort"); folders always come first. */
export const FILE_SORTS = ['name', '-name', '-updated', '-size', 'type'] as const
export type FileSort = (typeof FILE_SORTS)[number]

export interface FolderLevelOptions {
  /** The folder (`products/shoes`), or `''` for the top level. */
  folder: string
  /** The order of the whole level, so that every page follows it; by name when absent. */
  sort?: FileSort | undefined
  /** Only entries whose name contains this text (case-insensitive, compared literally). */
  name?: string | undefined
  limit: number
  offset: number
}

// `files.path` and `folders.path` are whole paths without leading or trailing slash. A folder
// exists when it was made explicitly (a `folders` row) or while a file or folder lies under it.
// Every prefix is compared with starts_with, never LIKE, so `%` and `_` in names are plain text.

// Names compare case-insensitively, ties broken by the exact name, so the order is total and a
// page never repeats or skips an entry. Folders have only a name: `-name` reverses them, every
// other order lists them A to Z.
const byName = (column: SQL, direction: SQL = sql`asc`): SQL[] => [
  sql`lower(${column}) collate "C" ${direction}`,
  sql`${column} collate "C" ${direction}`,
]

function fileOrder(sort: FileSort): SQL[] {
  switch (sort) {
    case '-name':
      return byName(sql`${files.name}`, sql`desc`)
    case '-updated':
      return [sql`${files.updatedAt} desc`, ...byName(sql`${files.name}`)]
    case '-size':
      return [sql`${files.size} desc`, ...byName(sql`${files.name}`)]
    case 'type':
      return [sql`${files.format} collate "C"`, ...byName(sql`${files.name}`)]
    case 'name':
      return byName(sql`${files.name}`)
  }
}

const containsText = (column: SQL, text: string | undefined): SQL | undefined =>
  text === undefined ? undefined : sql`strpos(lower(${column}), lower(${text}::text)) > 0`

/** Folder rows for `path` and each of its ancestors that has none (`mkdir -p`). */
export async function makeFolders(tx: Db, organisationId: string, path: string): Promise<void> {
  const segments = path.split('/')
  const paths = segments.map((_, index) => segments.slice(0, index + 1).join('/'))
  await tx
    .insert(folders)
    .values(paths.map((each) => ({ organisationId, path: each })))
    .onConflictDoNothing({ target: [folders.organisationId, folders.path] })
}

/**
 * The folder queries: a folder's level, lookups and making folders (see createRepository; moves
 * and deletes are in asset-change-queries.ts). Everything here is read and written through an
 * organisation's id.
 */
export function createAssetQueries(db: Db) {
  /** Distinct names of the folders directly inside `prefix` (`''` or `a/b/`), as a subquery. */
  function childFolderNames(organisationId: string, prefix: string): SQL {
    const start = sql`char_length(${prefix}::text) + 1`
    return sql`
      select split_part(substr(f.path, ${start}), '/', 1) as name
        from files f
       where f.organisation_id = ${organisationId}
         and starts_with(f.path, ${prefix}::text)
         and strpos(substr(f.path, ${start}), '/') > 0
      union
      select split_part(substr(d.path, ${start}), '/', 1) as name
        from folders d
       where d.organisation_id = ${organisationId}
         and starts_with(d.path, ${prefix}::text)
         and char_length(d.path) >= ${start}`
  }

  async function listFolderLevel(
    organisationId: string,
    options: FolderLevelOptions,
  ): Promise<FolderLevel> {
    const prefix = options.folder === '' ? '' : `${options.folder}/`
    const names = childFolderNames(organisationId, prefix)
    const nameFilter =
      options.name === undefined ? sql`true` : containsText(sql`n.name`, options.name)
    const sort = options.sort ?? 'name'
    const order = sql`order by ${sql.join(byName(sql`n.name`, sort === '-name' ? sql`desc` : sql`asc`), sql`, `)}`
    const fileWhere = and(
      eq(files.organisationId, organisationId),
      sql`starts_with(${files.path}, ${prefix}::text)`,
      sql`strpos(substr(${files.path}, char_length(${prefix}::text) + 1), '/') = 0`,
      containsText(sql`${files.name}`, options.name),
    )
    const [folderCountRows, fileCount] = await Promise.all([
      db.execute(sql`select count(*)::int as total from (${names}) n where ${nameFilter}`),
      db.select({ value: count() }).from(files).where(fileWhere),
    ])
    const folderTotal = rowsOf<{ total: number }>(folderCountRows)[0]?.total ?? 0
    const fileTotal = fileCount[0]?.value ?? 0

    // Folders come first, then files: the page is cut from that one ordered list.
    const { limit, offset } = options
    let pageNames: string[] = []
    if (offset < folderTotal) {
      const result = await db.execute(
        sql`select n.name from (${names}) n where ${nameFilter} ${order} limit ${limit} offset ${offset}`,
      )
      pageNames = rowsOf<{ name: string }>(result).map((row) => row.name)
    }
    const fileLimit = limit - pageNames.length
    const pageFiles =
      fileLimit > 0 && offset + pageNames.length - folderTotal < fileTotal
        ? await db
            .select()
            .from(files)
            .where(fileWhere)
            .orderBy(...fileOrder(sort))
            .limit(fileLimit)
            .offset(Math.max(0, offset - folderTotal))
        : []
    const paths = pageNames.map((name) => `${prefix}${name}`)
    const explicit =
      paths.length === 0
        ? []
        : await db
            .select()
            .from(folders)
            .where(and(eq(folders.organisationId, organisationId), inArray(folders.path, paths)))
    const byPath = new Map(explicit.map((row) => [row.path, row]))
    return {
      folders: paths.map((path, index) => ({
        name: pageNames[index] as string,
        path,
        folder: byPath.get(path),
      })),
      files: pageFiles,
      total: folderTotal + fileTotal,
    }
  }

  /** The explicit folder row at `path`, if one was made. */
  async function findFolder(organisationId: string, path: string): Promise<Folder | undefined> {
    const [row] = await db
      .select()
      .from(folders)
      .where(and(eq(folders.organisationId, organisationId), eq(folders.path, path)))
    return row
  }

  /** What occupies `path`: a file, a folder (made, or implied by what lies under it), or nothing. */
  async function pathKind(
    organisationId: string,
    path: string,
  ): Promise<'file' | 'folder' | undefined> {
    const under = `${path}/`
    const result = await db.execute(sql`
      select
        exists (select 1 from files where organisation_id = ${organisationId} and path = ${path}::text) as file,
        exists (select 1 from folders where organisation_id = ${organisationId}
                  and (path = ${path}::text or starts_with(path, ${under}::text))) as made,
        exists (select 1 from files where organisation_id = ${organisationId}
                  and starts_with(path, ${under}::text)) as implied`)
    const row = rowsOf<{ file: boolean; made: boolean; implied: boolean }>(result)[0]
    if (row?.file === true) return 'file'
    if (row?.made === true || row?.implied === true) return 'folder'
    return undefined
  }

  /**
   * Makes the folder at `path` and any missing ancestors; `undefined` when its row already
   * existed (the caller answers 409).
   */
  async function createFolder(organisationId: string, path: string): Promise<Folder | undefined> {
    return db.transaction(async (tx) => {
      const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : ''
      if (parent !== '') await makeFolders(tx, organisationId, parent)
      const [row] = await tx
        .insert(folders)
        .values({ organisationId, path })
        .onConflictDoNothing({ target: [folders.organisationId, folders.path] })
        .returning()
      return row
    })
  }

  return {
    listFolderLevel,
    findFolder,
    pathKind,
    createFolder,
  }
}
