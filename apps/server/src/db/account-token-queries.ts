// Account recovery and settings (decision 019): single-use mailed tokens, a user's own sessions,
// changing the address, deleting the account, and the development mail outbox (see
// createRepository).
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { isUuid, now, returned } from './query-helpers.ts'
import {
  type AccountToken,
  type AccountTokenKind,
  accountTokens,
  mailOutbox,
  memberships,
  type OutboxMail,
  organisations,
  type Session,
  sessions,
  type User,
  users,
} from './schema.ts'

export interface NewAccountToken {
  userId: string
  kind: AccountTokenKind
  tokenHash: string
  email: string | null
  expiresAt: Date
}

export interface NewOutboxMail {
  to: string
  subject: string
  text: string
  html: string | null
}

/** Why an account cannot be deleted yet: organisations it is the last owner of, with others. */
export type DeleteAccountResult =
  | { ok: true; deletedOrganisations: string[] }
  | { ok: false; organisations: { id: string; name: string }[] }

/** The open (unused, unexpired) token of this hash and kind. */
const openToken = (tokenHash: string, kind: AccountTokenKind) =>
  and(
    eq(accountTokens.tokenHash, tokenHash),
    eq(accountTokens.kind, kind),
    isNull(accountTokens.usedAt),
    gt(accountTokens.expiresAt, now()),
  )

/** The account-token, own-session, address, account-deletion and outbox queries. */
export function createAccountTokenQueries(db: Db) {
  /** Stores a new token; the user's earlier open tokens of the same kind stop working. */
  async function createAccountToken(input: NewAccountToken): Promise<AccountToken> {
    return db.transaction(async (tx) => {
      await tx
        .update(accountTokens)
        .set({ usedAt: now() })
        .where(
          and(
            eq(accountTokens.userId, input.userId),
            eq(accountTokens.kind, input.kind),
            isNull(accountTokens.usedAt),
          ),
        )
      return returned((await tx.insert(accountTokens).values(input).returning())[0])
    })
  }

  /**
   * Uses the open, unexpired token of this kind with this hash, once: of two requests with the
   * same token only one gets it (one UPDATE … WHERE used_at IS NULL).
   */
  async function useAccountToken(
    tokenHash: string,
    kind: AccountTokenKind,
  ): Promise<{ token: AccountToken; user: User } | undefined> {
    const [token] = await db
      .update(accountTokens)
      .set({ usedAt: now() })
      .where(openToken(tokenHash, kind))
      .returning()
    if (token === undefined) return undefined
    const [user] = await db.select().from(users).where(eq(users.id, token.userId))
    return user === undefined ? undefined : { token, user }
  }

  /** The open token of this hash and kind, without using it (the reset page checks its link). */
  async function findOpenAccountToken(
    tokenHash: string,
    kind: AccountTokenKind,
  ): Promise<AccountToken | undefined> {
    const [token] = await db.select().from(accountTokens).where(openToken(tokenHash, kind))
    return token
  }

  /** Deletes used and expired tokens (housekeeping). */
  async function deleteStaleAccountTokens(): Promise<number> {
    const rows = await db
      .delete(accountTokens)
      .where(sql`${accountTokens.usedAt} is not null or ${accountTokens.expiresAt} <= now()`)
      .returning({ id: accountTokens.id })
    return rows.length
  }

  async function markEmailVerified(userId: string, email: string): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ emailVerifiedAt: now() })
      .where(and(eq(users.id, userId), eq(users.email, email)))
      .returning({ id: users.id })
    return rows.length > 0
  }

  /**
   * Moves the account to a proven address (verified from now on).
   * @throws a unique violation (`users_email_key`) when another account took it meanwhile.
   */
  async function changeEmail(userId: string, email: string): Promise<User | undefined> {
    const [row] = await db
      .update(users)
      .set({ email, emailVerifiedAt: now() })
      .where(eq(users.id, userId))
      .returning()
    return row
  }

  // ── own sessions ──────────────────────────────────────────────────────────────────────────

  async function setSessionUserAgent(id: string, userAgent: string): Promise<void> {
    await db.update(sessions).set({ userAgent }).where(eq(sessions.id, id))
  }

  /** The user's live sessions, newest first. */
  async function listUserSessions(userId: string): Promise<Session[]> {
    return db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), sql`${sessions.expiresAt} > now()`))
      .orderBy(desc(sessions.createdAt))
      .limit(200)
  }

  /** Ends one of the user's sessions; false when it is not theirs or gone. */
  async function deleteUserSession(userId: string, id: string): Promise<boolean> {
    const rows = await db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.id, id)))
      .returning({ id: sessions.id })
    return rows.length > 0
  }

  /** Ends every session of the user but `keepId` (when given); answers the ended ids. */
  async function deleteOtherSessions(
    userId: string,
    keepId: string | undefined,
  ): Promise<string[]> {
    const rows = await db
      .delete(sessions)
      .where(
        keepId === undefined
          ? eq(sessions.userId, userId)
          : and(eq(sessions.userId, userId), ne(sessions.id, keepId)),
      )
      .returning({ id: sessions.id })
    return rows.map((row) => row.id)
  }

  // ── deleting an account ───────────────────────────────────────────────────────────────────

  /**
   * Deletes the user, in one transaction with the organisations they are the only member of.
   * Refused while they are the last owner of an organisation that has other members (they must
   * make someone else owner first).
   */
  async function deleteAccount(userId: string): Promise<DeleteAccountResult> {
    if (!isUuid(userId)) return { ok: true, deletedOrganisations: [] }
    return db.transaction(async (tx) => {
      // Locks the user's memberships' organisations, so a concurrent role change waits.
      const mine = await tx
        .select({ id: organisations.id, name: organisations.name, role: memberships.role })
        .from(memberships)
        .innerJoin(organisations, eq(organisations.id, memberships.organisationId))
        .where(eq(memberships.userId, userId))
        .orderBy(asc(organisations.createdAt))
        .for('update')
      const blocking: { id: string; name: string }[] = []
      const alone: string[] = []
      for (const org of mine) {
        const [others] = await tx
          .select({ n: count() })
          .from(memberships)
          .where(and(eq(memberships.organisationId, org.id), ne(memberships.userId, userId)))
        if ((others?.n ?? 0) === 0) {
          alone.push(org.id)
          continue
        }
        if (org.role !== 'owner') continue
        const [owners] = await tx
          .select({ n: count() })
          .from(memberships)
          .where(
            and(
              eq(memberships.organisationId, org.id),
              eq(memberships.role, 'owner'),
              ne(memberships.userId, userId),
            ),
          )
        if ((owners?.n ?? 0) === 0) blocking.push({ id: org.id, name: org.name })
      }
      if (blocking.length > 0) return { ok: false, organisations: blocking }
      if (alone.length > 0) await tx.delete(organisations).where(inArray(organisations.id, alone))
      await tx.delete(users).where(eq(users.id, userId))
      return { ok: true, deletedOrganisations: alone }
    })
  }

  // ── the development outbox ────────────────────────────────────────────────────────────────

  /**
   * Keeps a mail and drops those older than the newest `keep`, in one transaction: a reader never
   * sees more than `keep` (between two statements it saw one more).
   */
  async function addOutboxMail(mail: NewOutboxMail, keep: number): Promise<OutboxMail> {
    return db.transaction(async (tx) => {
      const row = returned((await tx.insert(mailOutbox).values(mail).returning())[0])
      await tx.delete(mailOutbox).where(lt(mailOutbox.id, row.id - keep + 1))
      return row
    })
  }

  /** The newest mails first, at most `limit`; only those to `to` when given. */
  async function listOutboxMail(limit: number, to?: string): Promise<OutboxMail[]> {
    return db
      .select()
      .from(mailOutbox)
      .where(to === undefined ? undefined : eq(mailOutbox.to, to))
      .orderBy(desc(mailOutbox.id))
      .limit(limit)
  }

  return {
    createAccountToken,
    useAccountToken,
    findOpenAccountToken,
    deleteStaleAccountTokens,
    markEmailVerified,
    changeEmail,
    setSessionUserAgent,
    listUserSessions,
    deleteUserSession,
    deleteOtherSessions,
    deleteAccount,
    addOutboxMail,
    listOutboxMail,
  }
}
