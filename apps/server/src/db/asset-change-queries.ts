// Moves and deletes of files and folders (see createRepository): each runs in one transaction,
// forgets the derived rows that went with the files, and answers the storage keys for the caller
// to delete. Everything here is read and written through an organisation's id.
import { and, asc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm'
import { makeFolders } from './asset-queries.ts'
import type { Db } from './database.ts'
import { derivedImages, files, folders, type StoredFile } from './schema.ts'

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

export function createAssetChangeQueries(db: Db) {
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
      // The folder it lands in gets a row (and so a stable id), as uploads give one.
      if (to.path.includes('/')) {
        await makeFolders(tx, organisationId, to.path.slice(0, to.path.lastIndexOf('/')))
      }
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
    deleteFileById,
    deleteFilesUnderBefore,
    moveFile,
    moveFolder,
    deleteFolder,
  }
}
