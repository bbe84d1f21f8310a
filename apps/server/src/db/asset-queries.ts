import { and, asc, count, eq, inArray, lt, type SQL, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { rowsOf } from './query-helpers.ts'
import { derivedImages, type Folder, files, folders, type StoredFile } from './schema.ts'

/** One level of a folder: its sub-folders (by name) and files, one page of them. */
export interface FolderLevel {
  /** Sub-folders on this page, ordered by name; `folder` is the explicit row, if one exists. */
  folders: { name: string; path: string; folder: Folder | undefined }[]
  files: StoredFile[]
  /** Sub-folders and files on all pages. */
  total: number
}

export interface FolderLevelOptions {
  /** The folder (`products/shoes`), or `''` for the top level. */
  folder: string
  /** Only entries whose name contains this text (case-insensitive, compared literally). */
  name?: string | undefined
  limit: number
  offset: number
}

/** What a delete took away: the caller removes the stored objects and forgets cached rows. */
export interface RemovedFiles {
  files: StoredFile[]
  /** Storage keys of the originals and of their derived images. */
  storageKeys: string[]
}

export interface MovedFile {
  id: string
  from: string
  to: string
}

// `files.path` and `folders.path` are whole paths without leading or trailing slash. A folder
// exists when it was made explicitly (a `folders` row) or while a file or folder lies under it.
// Every prefix is compared with starts_with, never LIKE, so `%` and `_` in names are plain text.

/** The rows of a raw query on PGlite (`{ rows }`) and node-postgres (`QueryResult`) alike. */
const containsText = (column: SQL, text: string | undefined): SQL | undefined =>
  text === undefined ? undefined : sql`strpos(lower(${column}), lower(${text}::text)) > 0`

/**
 * The file and folder queries (see createRepository). Everything here is read and
 * written through an organisation's id.
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
    const order = sql`order by lower(n.name) collate "C", n.name collate "C"`
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
            .orderBy(sql`lower(${files.name}) collate "C"`, sql`${files.name} collate "C"`)
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

  /** Folder rows for `path` and each of its ancestors that has none (`mkdir -p`). */
  async function makeFolders(tx: Db, organisationId: string, path: string): Promise<void> {
    const segments = path.split('/')
    const paths = segments.map((_, index) => segments.slice(0, index + 1).join('/'))
    await tx
      .insert(folders)
      .values(paths.map((each) => ({ organisationId, path: each })))
      .onConflictDoNothing({ target: [folders.organisationId, folders.path] })
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

  /** Removes derived rows and file rows of `fileRows` in `tx`; returns every storage key. */
  async function removeFiles(tx: Db, fileRows: StoredFile[]): Promise<RemovedFiles> {
    if (fileRows.length === 0) return { files: [], storageKeys: [] }
    const ids = fileRows.map((file) => file.id)
    // The foreign key would cascade to these rows too, but would not say which objects to delete.
    const derived = await tx
      .delete(derivedImages)
      .where(inArray(derivedImages.fileId, ids))
      .returning({ storageKey: derivedImages.storageKey })
    await tx.delete(files).where(inArray(files.id, ids))
    return {
      files: fileRows,
      storageKeys: [
        ...fileRows.map((file) => file.storageKey),
        ...derived.map((d) => d.storageKey),
      ],
    }
  }

  /** Deletes a file of the organisation by id with its derived rows; undefined when none. */
  async function deleteFileById(
    organisationId: string,
    id: string,
  ): Promise<RemovedFiles | undefined> {
    return db.transaction(async (tx) => {
      const [file] = await tx
        .select()
        .from(files)
        .where(and(eq(files.organisationId, organisationId), eq(files.id, id)))
        .for('update')
      return file === undefined ? undefined : removeFiles(tx, [file])
    })
  }

  /**
   * Deletes up to `limit` files under `folder` (and their derived rows) stored before `before`,
   * oldest first: the expiry of short-lived uploads. The caller deletes the storage keys.
   */
  async function deleteFilesUnderBefore(
    organisationId: string,
    folder: string,
    before: Date,
    limit: number,
  ): Promise<RemovedFiles> {
    return db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(files)
        .where(
          and(
            eq(files.organisationId, organisationId),
            sql`starts_with(${files.path}, ${`${folder}/`}::text)`,
            lt(files.createdAt, before),
          ),
        )
        .orderBy(asc(files.createdAt))
        .limit(limit)
        .for('update')
      return removeFiles(tx, rows)
    })
  }

  // A move bumps the version and forgets the derived images: their pixels would still be right,
  // but a queued derive job names the file by its old path and would fail, and a failed job
  // answers for its cache key (file id and version) for good.

  /**
   * Gives a file a new path and name and a new version, and forgets its derived images (the
   * caller deletes their objects). Undefined when there is no such file.
   * @throws a unique violation (`files_organisation_path_key`) when the path is taken.
   */
  async function moveFile(
    organisationId: string,
    id: string,
    to: { path: string; name: string },
  ): Promise<{ file: StoredFile; derivedStorageKeys: string[] } | undefined> {
    return db.transaction(async (tx) => {
      const [file] = await tx
        .update(files)
        .set({
          path: to.path,
          name: to.name,
          version: sql`${files.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(files.organisationId, organisationId), eq(files.id, id)))
        .returning()
      if (file === undefined) return undefined
      const derived = await tx
        .delete(derivedImages)
        .where(eq(derivedImages.fileId, file.id))
        .returning({ storageKey: derivedImages.storageKey })
      return { file, derivedStorageKeys: derived.map((row) => row.storageKey) }
    })
  }

  /**
   * Moves the folder `from` (its row, sub-folders and every file under it) to `to`, making
   * `to`'s ancestors; each file gets a new version and loses its derived images (the caller
   * deletes their objects). Answers the files that moved. The caller checked that nothing is at
   * `to`.
   * @throws a unique violation when something at the destination is in the way.
   */
  async function moveFolder(organisationId: string, from: string, to: string) {
    return db.transaction(async (tx) => {
      const under = `${from}/`
      const rest = (column: SQL) => sql`substr(${column}, char_length(${from}::text) + 1)`
      const moved = await tx
        .update(files)
        .set({
          path: sql`${to}::text || ${rest(sql`${files.path}`)}`,
          version: sql`${files.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(files.organisationId, organisationId),
            sql`starts_with(${files.path}, ${under}::text)`,
          ),
        )
        .returning({ id: files.id, path: files.path })
      const derived = await tx
        .delete(derivedImages)
        .where(
          inArray(
            derivedImages.fileId,
            tx
              .select({ id: files.id })
              .from(files)
              .where(
                and(
                  eq(files.organisationId, organisationId),
                  sql`starts_with(${files.path}, ${`${to}/`}::text)`,
                ),
              ),
          ),
        )
        .returning({ storageKey: derivedImages.storageKey })
      await tx
        .update(folders)
        .set({ path: sql`${to}::text || ${rest(sql`${folders.path}`)}` })
        .where(
          and(
            eq(folders.organisationId, organisationId),
            sql`(${folders.path} = ${from}::text or starts_with(${folders.path}, ${under}::text))`,
          ),
        )
      await makeFolders(tx, organisationId, to)
      return {
        files: moved.map(
          (file): MovedFile => ({
            id: file.id,
            from: `${from}${file.path.slice(to.length)}`,
            to: file.path,
          }),
        ),
        derivedStorageKeys: derived.map((row) => row.storageKey),
      }
    })
  }

  /**
   * Deletes the folder at `path`. Without `recursive`, only an empty folder goes ('not_empty'
   * otherwise); with it, every file and folder under it goes too. 'not_found' when nothing is
   * there.
   */
  async function deleteFolder(
    organisationId: string,
    path: string,
    recursive: boolean,
  ): Promise<(RemovedFiles & { folders: number }) | 'not_found' | 'not_empty'> {
    return db.transaction(async (tx) => {
      const under = `${path}/`
      // Conditions rather than lists of ids: a folder may hold more files than a query can
      // carry parameters.
      const filesUnder = and(
        eq(files.organisationId, organisationId),
        sql`starts_with(${files.path}, ${under}::text)`,
      )
      const foldersHere = and(
        eq(folders.organisationId, organisationId),
        sql`(${folders.path} = ${path}::text or starts_with(${folders.path}, ${under}::text))`,
      )
      const [anyFile] = await tx.select({ id: files.id }).from(files).where(filesUnder).limit(1)
      const folderRows = await tx
        .select({ path: folders.path })
        .from(folders)
        .where(foldersHere)
        .orderBy(asc(folders.path))
        .limit(2)
      if (anyFile === undefined && folderRows.length === 0) return 'not_found'
      const empty = anyFile === undefined && folderRows.every((row) => row.path === path)
      if (!recursive && !empty) return 'not_empty'
      // The foreign key would cascade to these rows too, but would not say which objects to delete.
      const derived = await tx
        .delete(derivedImages)
        .where(
          inArray(derivedImages.fileId, tx.select({ id: files.id }).from(files).where(filesUnder)),
        )
        .returning({ storageKey: derivedImages.storageKey })
      const gone = await tx.delete(files).where(filesUnder).returning()
      const goneFolders = await tx.delete(folders).where(foldersHere).returning({ id: folders.id })
      return {
        files: gone,
        storageKeys: [...gone.map((file) => file.storageKey), ...derived.map((d) => d.storageKey)],
        folders: goneFolders.length,
      }
    })
  }

  return {
    listFolderLevel,
    findFolder,
    pathKind,
    createFolder,
    deleteFileById,
    deleteFilesUnderBefore,
    moveFile,
    moveFolder,
    deleteFolder,
  }
}
