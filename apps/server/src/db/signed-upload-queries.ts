// Signed uploads and their parts (decision 016): every state change is one statement, so two
// requests racing on one upload (a part and its duplicate, two completions) cannot both win.
import { and, asc, eq, inArray, lt, ne, or, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { isUuid, now, returned } from './query-helpers.ts'
import {
  type SignedUpload,
  type SignedUploadPart,
  signedUploadParts,
  signedUploads,
} from './schema.ts'
import type { SignedUploadFields } from './upload-webhook-schema.ts'

export interface NewSignedUpload {
  organisationId: string
  version: number
  secretHash: string
  fields: SignedUploadFields
  expiresAt: Date
}

/** Why a part was not recorded. */
export type PartRefusal = 'duplicate' | 'over_total'

export function createSignedUploadQueries(db: Db) {
  async function createSignedUpload(input: NewSignedUpload): Promise<SignedUpload> {
    return returned((await db.insert(signedUploads).values(input).returning())[0])
  }

  async function findSignedUpload(id: string): Promise<SignedUpload | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db.select().from(signedUploads).where(eq(signedUploads.id, id))
    return row
  }

  /**
   * Records a stored part of an open upload, counting its bytes against `maxTotal`, in one
   * transaction: a part number already there, or a total over the limit, records nothing.
   */
  async function addSignedUploadPart(
    part: Omit<SignedUploadPart, 'createdAt'>,
    maxTotal: number,
  ): Promise<{ part: SignedUploadPart } | { refused: PartRefusal; existing?: SignedUploadPart }> {
    return db
      .transaction(async (tx) => {
        const [grown] = await tx
          .update(signedUploads)
          .set({
            receivedBytes: sql`${signedUploads.receivedBytes} + ${part.size}`,
            updatedAt: now(),
          })
          .where(
            and(
              eq(signedUploads.id, part.uploadId),
              eq(signedUploads.status, 'open'),
              sql`${signedUploads.receivedBytes} + ${part.size} <= ${maxTotal}`,
            ),
          )
          .returning()
        const [inserted] = await tx
          .insert(signedUploadParts)
          .values(part)
          .onConflictDoNothing()
          .returning()
        if (inserted === undefined) {
          const [existing] = await tx
            .select()
            .from(signedUploadParts)
            .where(
              and(
                eq(signedUploadParts.uploadId, part.uploadId),
                eq(signedUploadParts.partNumber, part.partNumber),
              ),
            )
          // Throwing rolls the byte count back.
          throw new PartRefused('duplicate', existing)
        }
        if (grown === undefined) throw new PartRefused('over_total')
        return { part: inserted }
      })
      .catch((error: unknown) => {
        if (error instanceof PartRefused) {
          return error.existing === undefined
            ? { refused: error.refusal }
            : { refused: error.refusal, existing: error.existing }
        }
        throw error
      })
  }

  async function listSignedUploadParts(uploadId: string): Promise<SignedUploadPart[]> {
    return db
      .select()
      .from(signedUploadParts)
      .where(eq(signedUploadParts.uploadId, uploadId))
      .orderBy(asc(signedUploadParts.partNumber))
  }

  /**
   * Moves an upload from `from` to `to` when it is in `from` (and, for `open`, not expired);
   * undefined when it was not: another request got there first, or the URL expired.
   */
  async function moveSignedUpload(
    id: string,
    from: SignedUpload['status'],
    to: SignedUpload['status'],
    fileId?: string,
  ): Promise<SignedUpload | undefined> {
    const [row] = await db
      .update(signedUploads)
      .set({ status: to, updatedAt: now(), ...(fileId === undefined ? {} : { fileId }) })
      .where(
        and(
          eq(signedUploads.id, id),
          eq(signedUploads.status, from),
          ...(from === 'open' ? [sql`${signedUploads.expiresAt} > now()`] : []),
        ),
      )
      .returning()
    return row
  }

  /** Forgets the part rows of an upload (their objects are deleted by the caller). */
  async function deleteSignedUploadParts(uploadId: string): Promise<void> {
    await db.delete(signedUploadParts).where(eq(signedUploadParts.uploadId, uploadId))
  }

  /**
   * Uploads to clean up: expired ones still open, ones whose completion died mid-way (still
   * completing an hour later), and finished ones past their expiry, with their parts' keys.
   */
  async function staleSignedUploads(
    limit: number,
  ): Promise<{ id: string; storageKeys: string[] }[]> {
    const rows = await db
      .select({ id: signedUploads.id })
      .from(signedUploads)
      .where(
        or(
          and(lt(signedUploads.expiresAt, sql`now()`), ne(signedUploads.status, 'completing')),
          and(
            eq(signedUploads.status, 'completing'),
            lt(signedUploads.updatedAt, sql`now() - interval '1 hour'`),
          ),
        ),
      )
      .limit(limit)
    if (rows.length === 0) return []
    const ids = rows.map((row) => row.id)
    const parts = await db
      .select({ uploadId: signedUploadParts.uploadId, storageKey: signedUploadParts.storageKey })
      .from(signedUploadParts)
      .where(inArray(signedUploadParts.uploadId, ids))
    return ids.map((id) => ({
      id,
      storageKeys: parts.filter((part) => part.uploadId === id).map((part) => part.storageKey),
    }))
  }

  async function deleteSignedUploads(ids: string[]): Promise<void> {
    if (ids.length === 0) return
    await db.delete(signedUploads).where(inArray(signedUploads.id, ids))
  }

  return {
    createSignedUpload,
    findSignedUpload,
    addSignedUploadPart,
    listSignedUploadParts,
    moveSignedUpload,
    deleteSignedUploadParts,
    staleSignedUploads,
    deleteSignedUploads,
  }
}

class PartRefused extends Error {
  readonly refusal: PartRefusal
  readonly existing: SignedUploadPart | undefined

  constructor(refusal: PartRefusal, existing?: SignedUploadPart) {
    super(refusal)
    this.refusal = refusal
    this.existing = existing
  }
}
