// The repository: every query the server runs, composed from one query module per area.
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import { createAccountQueries } from './account-queries.ts'
import { createAccountTokenQueries } from './account-token-queries.ts'
import { createActivityQueries } from './activity-queries.ts'
import { createAssetChangeQueries } from './asset-change-queries.ts'
import { createAssetQueries, makeFolders } from './asset-queries.ts'
import { createBillingQueries } from './billing-queries.ts'
import { createCreditUsageQueries } from './credit-usage-queries.ts'
import type { Db } from './database.ts'
import { createDerivedQueries } from './derived-queries.ts'
import { createDomainQueries } from './domain-queries.ts'
import { createFileSearchQueries } from './file-search-queries.ts'
import { createIdentityQueries } from './identity-queries.ts'
import { createJobQueries, type RepositoryOptions } from './job-queries.ts'
import { createMemberQueries } from './member-queries.ts'
import { createOrganisationQueries } from './organisation-queries.ts'
import { createPaymentQueries } from './payment-queries.ts'
import { createPlanQueries } from './plan-queries.ts'
import { createPresetQueries } from './preset-queries.ts'
import { checkWholeNumber, excluded, isUuid, now, returned } from './query-helpers.ts'
import { createRateLimitQueries } from './rate-limit-queries.ts'
import {
  type DerivedImage,
  derivedImages,
  type FileAccess,
  files,
  type StoredFile,
  type VideoProperties,
} from './schema.ts'
import { createSignedUploadQueries } from './signed-upload-queries.ts'
import { createUsageQueries } from './usage-queries.ts'
import { createWebhookQueries } from './webhook-queries.ts'

export interface FileInput {
  path: string
  name: string
  size: number
  format: string
  contentType: string
  width?: number | null
  height?: number | null
  /** A PDF's page count, an animation's frames, 1 for a still image. */
  pages?: number | null
  /** sha256 of the bytes, lowercase hex. */
  hash: string
  storageKey: string
  /** `public-read` when absent. */
  access?: FileAccess | undefined
  tags?: string[] | undefined
  metadata?: Record<string, unknown> | undefined
  /** A video's properties (issue 23). */
  video?: VideoProperties | null
}

export interface ListFilesOptions {
  prefix?: string
  limit: number
  offset?: number
}

export interface DeletedFile {
  file: StoredFile
  /** Storage keys of the derived images that went with the file; the caller deletes the objects. */
  derivedStorageKeys: string[]
}

export interface DerivedInput {
  organisationId: string
  fileId: string
  fileVersion: number
  cacheKey: string
  storageKey: string
  format: string
  contentType: string
  size: number
  width?: number | null
  height?: number | null
  /** The transformation context's steps (`StepReport`s of the engine). */
  context?: Record<string, unknown>[] | null
}

export type Repository = ReturnType<typeof createRepository>

/** The columns of a file that its stored bytes decide (an upload or an overwrite sets them). */
const storedColumns = (input: FileInput) => ({
  name: input.name,
  size: input.size,
  format: input.format,
  contentType: input.contentType,
  width: input.width ?? null,
  height: input.height ?? null,
  pages: input.pages ?? null,
  hash: input.hash,
  storageKey: input.storageKey,
  video: input.video ?? null,
})

/**
 * The queries the server runs. Everything that belongs to an organisation is read and written
 * through that organisation's id, so one tenant's call can never reach another's rows.
 * Works on a database or inside a transaction (`db.transaction((tx) => createRepository(tx)…)`).
 */
export function createRepository(db: Db, options: RepositoryOptions = {}) {
  /** A file of the organisation by its id (undefined for an id that is not a UUID). */
  async function findFileById(organisationId: string, id: string): Promise<StoredFile | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db
      .select()
      .from(files)
      .where(and(eq(files.organisationId, organisationId), eq(files.id, id)))
    return row
  }

  async function findFile(organisationId: string, path: string): Promise<StoredFile | undefined> {
    const [row] = await db
      .select()
      .from(files)
      .where(and(eq(files.organisationId, organisationId), eq(files.path, path)))
    return row
  }

  /** Inserts the file, or overwrites the one at the same path and bumps its version. */
  async function upsertFile(organisationId: string, input: FileInput): Promise<StoredFile> {
    const [row] = await db
      .insert(files)
      .values({ organisationId, path: input.path, ...storedColumns(input) })
      .onConflictDoUpdate({
        target: [files.organisationId, files.path],
        set: {
          name: excluded(files.name),
          size: excluded(files.size),
          format: excluded(files.format),
          contentType: excluded(files.contentType),
          width: excluded(files.width),
          height: excluded(files.height),
          pages: excluded(files.pages),
          hash: excluded(files.hash),
          storageKey: excluded(files.storageKey),
          video: excluded(files.video),
          version: sql`${files.version} + 1`,
          updatedAt: now(),
        },
      })
      .returning()
    return returned(row)
  }

  /**
   * Records an upload at `input.path`: a new row, or with `overwrite` the next version of the
   * row there, answering the row it replaced (whose stored object the caller deletes). The row
   * is locked while it is replaced, so two uploads to one path at once each learn exactly which
   * object they replaced and none is left unreferenced. `'exists'` when a file is there and
   * `overwrite` is false.
   */
  async function storeFile(
    organisationId: string,
    input: FileInput,
    overwrite: boolean,
  ): Promise<{ file: StoredFile; replaced: StoredFile | undefined } | 'exists'> {
    const values = {
      ...storedColumns(input),
      access: input.access ?? 'public-read',
      tags: input.tags ?? [],
      metadata: input.metadata ?? {},
    }
    // A first upload racing another one to a new path finds the row there on its next try.
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = await db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(files)
          .where(and(eq(files.organisationId, organisationId), eq(files.path, input.path)))
          .for('update')
        if (current === undefined) {
          // The folders it lies in get rows, so each has a stable id (issue 22).
          if (input.path.includes('/')) {
            await makeFolders(tx, organisationId, input.path.slice(0, input.path.lastIndexOf('/')))
          }
          const [row] = await tx
            .insert(files)
            .values({ organisationId, path: input.path, ...values })
            .onConflictDoNothing({ target: [files.organisationId, files.path] })
            .returning()
          return row === undefined ? ('retry' as const) : { file: row, replaced: undefined }
        }
        if (!overwrite) return 'exists' as const
        const [row] = await tx
          .update(files)
          .set({ ...values, version: sql`${files.version} + 1`, updatedAt: now() })
          .where(eq(files.id, current.id))
          .returning()
        return { file: returned(row), replaced: current }
      })
      if (result !== 'retry') return result
    }
    return 'exists'
  }

  /** Files ordered by path; `prefix` matches literally (no wildcards). */
  async function listFiles(
    organisationId: string,
    { prefix, limit, offset = 0 }: ListFilesOptions,
  ): Promise<StoredFile[]> {
    checkWholeNumber('limit', limit)
    checkWholeNumber('offset', offset)
    return db
      .select()
      .from(files)
      .where(
        and(
          eq(files.organisationId, organisationId),
          prefix ? sql`starts_with(${files.path}, ${prefix})` : undefined,
        ),
      )
      .orderBy(asc(files.path))
      .limit(limit)
      .offset(offset)
  }

  /**
   * Deletes the file and its derived-image rows. Returns what was deleted so the caller can
   * remove the stored objects, or `undefined` when there was no such file.
   */
  async function deleteFile(
    organisationId: string,
    path: string,
  ): Promise<DeletedFile | undefined> {
    return db.transaction(async (tx) => {
      const [file] = await tx
        .select()
        .from(files)
        .where(and(eq(files.organisationId, organisationId), eq(files.path, path)))
        .for('update')
      if (!file) return undefined
      // The foreign key would cascade to these rows too, but would not say which objects to delete.
      const derived = await tx
        .delete(derivedImages)
        .where(eq(derivedImages.fileId, file.id))
        .returning({ storageKey: derivedImages.storageKey })
      await tx.delete(files).where(eq(files.id, file.id))
      return { file, derivedStorageKeys: derived.map((row) => row.storageKey) }
    })
  }

  async function findDerived(cacheKey: string): Promise<DerivedImage | undefined> {
    const [row] = await db.select().from(derivedImages).where(eq(derivedImages.cacheKey, cacheKey))
    return row
  }

  /**
   * Records a rendered image. When another process recorded the same cache key first, its row
   * wins and is returned: compare `storageKey` to know whether your object is redundant.
   */
  async function recordDerived(input: DerivedInput): Promise<DerivedImage> {
    const [row] = await insertDerived([input]).returning()
    return row ?? returned(await findDerived(input.cacheKey))
  }

  /**
   * Records several rendered images in one statement, with `recordDerived`'s rule for a cache
   * key recorded before. All or none: on an error the caller may record them one by one.
   */
  async function recordDerivedMany(inputs: readonly DerivedInput[]): Promise<void> {
    if (inputs.length > 0) await insertDerived(inputs)
  }

  // The first row of a cache key wins; a row stored before contexts were kept gets the context
  // when the image is made again.
  function insertDerived(inputs: readonly DerivedInput[]) {
    return db
      .insert(derivedImages)
      .values(
        inputs.map((input) => ({
          ...input,
          width: input.width ?? null,
          height: input.height ?? null,
          context: input.context ?? null,
        })),
      )
      .onConflictDoUpdate({
        target: derivedImages.cacheKey,
        set: { context: excluded(derivedImages.context) },
        setWhere: isNull(derivedImages.context),
      })
  }

  async function touchDerived(id: string): Promise<void> {
    await db.update(derivedImages).set({ lastAccessedAt: now() }).where(eq(derivedImages.id, id))
  }

  /** Forgets every derived image of a file (e.g. after an overwrite); returns their storage keys. */
  async function deleteDerivedForFile(fileId: string): Promise<string[]> {
    const rows = await db
      .delete(derivedImages)
      .where(eq(derivedImages.fileId, fileId))
      .returning({ storageKey: derivedImages.storageKey })
    return rows.map((row) => row.storageKey)
  }

  // ── identity ──────────────────────────────────────────────────────────────────────────────

  return {
    ...createAccountQueries(db),
    ...createAccountTokenQueries(db),
    ...createRateLimitQueries(db),
    ...createBillingQueries(db),
    ...createPaymentQueries(db),
    ...createMemberQueries(db),
    ...createAssetQueries(db),
    ...createAssetChangeQueries(db),
    ...createFileSearchQueries(db),
    ...createCreditUsageQueries(db),
    ...createDerivedQueries(db),
    ...createOrganisationQueries(db),
    ...createJobQueries(db, options),
    ...createPlanQueries(db),
    ...createIdentityQueries(db),
    ...createPresetQueries(db),
    ...createUsageQueries(db),
    ...createSignedUploadQueries(db),
    ...createWebhookQueries(db),
    ...createDomainQueries(db),
    ...createActivityQueries(db),
    findFile,
    findFileById,
    upsertFile,
    storeFile,
    listFiles,
    deleteFile,
    findDerived,
    recordDerived,
    recordDerivedMany,
    touchDerived,
    deleteDerivedForFile,
  }
}
