import { and, asc, desc, eq, isNull, lte, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { revokeLive } from './query-helpers.ts'
import {
  type ApiToken,
  apiTokens,
  type ContactMessageRow,
  contactMessages,
  type Organisation,
  organisations,
  rateLimitEvents,
  type User,
  usedSignatures,
  users,
} from './schema.ts'

export interface NewApiToken {
  name: string
  tokenHash: string
  prefix: string
  createdBy: string | null
}

/**
 * Queries of API tokens, users, organisations and request signatures (see
 * createRepository). Organisation-owned rows are always reached through the organisation's id.
 */
export function createAccountQueries(db: Db) {
  // ── API tokens ────────────────────────────────────────────────────────────────────────────

  async function createApiToken(organisationId: string, input: NewApiToken): Promise<ApiToken> {
    const [row] = await db
      .insert(apiTokens)
      .values({ organisationId, ...input })
      .returning()
    if (row === undefined) throw new Error('The database returned no token')
    return row
  }

  async function listApiTokens(organisationId: string): Promise<ApiToken[]> {
    return db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.organisationId, organisationId), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.createdAt), asc(apiTokens.id))
  }

  /** Revokes a live token of the organisation; false when there is none with this id. */
  async function revokeApiToken(organisationId: string, id: string): Promise<boolean> {
    return revokeLive(db, apiTokens, organisationId, eq(apiTokens.id, id))
  }

  /** The live token with this hash and its organisation; records that it was used. */
  async function useApiToken(
    tokenHash: string,
  ): Promise<{ token: ApiToken; organisation: Organisation } | undefined> {
    const [token] = await db
      .update(apiTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)))
      .returning()
    if (token === undefined) return undefined
    const [organisation] = await db
      .select()
      .from(organisations)
      .where(eq(organisations.id, token.organisationId))
    return organisation === undefined ? undefined : { token, organisation }
  }

  // ── users ─────────────────────────────────────────────────────────────────────────────────

  async function findUserByGoogleSub(sub: string): Promise<User | undefined> {
    const [row] = await db.select().from(users).where(eq(users.googleSub, sub))
    return row
  }

  /** Links a Google account to a user who has none linked yet; false otherwise. */
  async function linkGoogleAccount(userId: string, sub: string): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ googleSub: sub })
      .where(and(eq(users.id, userId), isNull(users.googleSub)))
      .returning({ id: users.id })
    return rows.length > 0
  }

  async function setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await db.update(users).set({ passwordHash }).where(eq(users.id, userId))
  }

  // ── organisations ─────────────────────────────────────────────────────────────────────────

  /** Renames an organisation and/or changes its cloud name; undefined when it does not exist. */
  async function updateOrganisation(
    organisationId: string,
    changes: { name?: string | undefined; cloudName?: string | undefined },
  ): Promise<Organisation | undefined> {
    const set: { name?: string; cloudName?: string } = {}
    if (changes.name !== undefined) set.name = changes.name
    if (changes.cloudName !== undefined) set.cloudName = changes.cloudName
    if (Object.keys(set).length === 0) {
      const [row] = await db
        .select()
        .from(organisations)
        .where(eq(organisations.id, organisationId))
      return row
    }
    const [row] = await db
      .update(organisations)
      .set(set)
      .where(eq(organisations.id, organisationId))
      .returning()
    return row
  }

  // ── request signatures ────────────────────────────────────────────────────────────────────

  /** Records a signature as used until `expiresAt`; false when it was already used (a replay). */
  async function useSignature(signature: string, expiresAt: Date): Promise<boolean> {
    const rows = await db
      .insert(usedSignatures)
      .values({ signature, expiresAt })
      .onConflictDoNothing()
      .returning({ signature: usedSignatures.signature })
    return rows.length > 0
  }

  // ── website ───────────────────────────────────────────────────────────────────────────────

  async function saveContactMessage(input: {
    name: string
    email: string
    company: string
    topic: string
    message: string
  }): Promise<ContactMessageRow> {
    const [row] = await db.insert(contactMessages).values(input).returning()
    if (row === undefined) throw new Error('The database returned no contact message')
    return row
  }

  async function listContactMessages(limit: number): Promise<ContactMessageRow[]> {
    return db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(limit)
  }

  // ── house-keeping ─────────────────────────────────────────────────────────────────────────

  /** Deletes rate-limit events older than `windowMs` and signatures past their window. */
  async function pruneAccountRecords(
    windowMs: number,
  ): Promise<{ events: number; signatures: number }> {
    const before = sql`now() - (${windowMs}::double precision * interval '1 millisecond')`
    const events = await db
      .delete(rateLimitEvents)
      .where(lte(rateLimitEvents.at, before))
      .returning({ id: rateLimitEvents.id })
    const signatures = await db
      .delete(usedSignatures)
      .where(lte(usedSignatures.expiresAt, sql`now()`))
      .returning({ signature: usedSignatures.signature })
    return { events: events.length, signatures: signatures.length }
  }

  return {
    saveContactMessage,
    listContactMessages,
    findUserByGoogleSub,
    linkGoogleAccount,
    setPasswordHash,
    updateOrganisation,
    createApiToken,
    listApiTokens,
    revokeApiToken,
    useApiToken,
    useSignature,
    pruneAccountRecords,
  }
}
