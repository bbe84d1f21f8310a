// Users, sessions and memberships (see createRepository).
import { and, asc, eq, lte, sql } from 'drizzle-orm'
import { createBillingQueries } from './billing-queries.ts'
import type { Db } from './database.ts'
import type { NewOrganisation } from './organisation-queries.ts'
import { isUuid, now, returned } from './query-helpers.ts'
import {
  type Membership,
  type MembershipRole,
  memberships,
  type Organisation,
  organisations,
  plans,
  type Session,
  sessions,
  type User,
  users,
} from './schema.ts'

/** How stale a session's `last_seen_at` may be before a request writes it again. */
export const SESSION_SEEN_RESOLUTION_MS = 60_000

export interface NewUser {
  /** Stored as given: the caller trims and lower-cases it. */
  email: string
  /** Null for an account made through Google one-tap. */
  passwordHash: string | null
  /** The Google account's `sub`, for accounts made through Google one-tap. */
  googleSub?: string | null
  firstName: string
  lastName: string
  /** Set when the address is already proven (Google's verified e-mail). */
  emailVerifiedAt?: Date | null
}

/** An organisation as one of its members sees it. */
export interface MemberOrganisation {
  organisation: Organisation
  role: MembershipRole
  joinedAt: Date
}

/** The user, session and membership queries. */
export function createIdentityQueries(db: Db) {
  /**
   * Creates a user with their own organisation (as owner) in one transaction.
   * @throws a unique violation (`users_email_key` or `organisations_cloud_name_key`).
   */
  async function createUserWithOrganisation(
    input: NewUser,
    organisation: NewOrganisation,
    /** The plan the organisation starts on and the credits it grants (default: the plan row's). */
    startPlan?: { id: number; credits: number },
  ): Promise<{ user: User; organisation: Organisation }> {
    return db.transaction(async (tx) => {
      const user = returned((await tx.insert(users).values(input).returning())[0])
      const created = returned(
        (
          await tx
            .insert(organisations)
            .values({
              cloudName: organisation.cloudName,
              name: organisation.name,
              ...(startPlan === undefined ? {} : { planId: startPlan.id }),
            })
            .returning()
        )[0],
      )
      await tx
        .insert(memberships)
        .values({ userId: user.id, organisationId: created.id, role: 'owner' })
      // A new organisation starts on the free plan with its credits, as a ledger entry.
      const credits =
        startPlan?.credits ??
        (await tx.select().from(plans).where(eq(plans.id, created.planId)))[0]?.credits ??
        0
      if (credits > 0) {
        await createBillingQueries(tx).grantCredits(created.id, credits, 'free_plan', created.id)
      }
      return { user, organisation: created }
    })
  }

  async function findUserByEmail(email: string): Promise<User | undefined> {
    const [row] = await db.select().from(users).where(eq(users.email, email))
    return row
  }

  async function findUserById(id: string): Promise<User | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db.select().from(users).where(eq(users.id, id))
    return row
  }

  async function updateProfileMeta(
    userId: string,
    meta: Record<string, unknown>,
  ): Promise<User | undefined> {
    const [row] = await db
      .update(users)
      .set({ profileMeta: meta })
      .where(eq(users.id, userId))
      .returning()
    return row
  }

  /** `id` is the sha256 (hex) of the cookie token. */
  async function createSession(
    id: string,
    userId: string,
    expiresAt: Date,
    userAgent: string | null = null,
  ): Promise<Session> {
    const [row] = await db.insert(sessions).values({ id, userId, expiresAt, userAgent }).returning()
    return returned(row)
  }

  /** The unexpired session with this id and its user; marks it seen. */
  async function findLiveSession(
    id: string,
  ): Promise<{ session: Session; user: User } | undefined> {
    // One read per signed-in request; `last_seen_at` is written at most once a minute (it was an
    // UPDATE plus a SELECT on every call, the largest database cost of a signed-in page view).
    const [row] = await db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, id), sql`${sessions.expiresAt} > now()`))
    if (row === undefined) return undefined
    if (Date.now() - row.session.lastSeenAt.getTime() >= SESSION_SEEN_RESOLUTION_MS) {
      const [seen] = await db
        .update(sessions)
        .set({ lastSeenAt: now() })
        .where(eq(sessions.id, id))
        .returning()
      if (seen !== undefined) return { session: seen, user: row.user }
    }
    return row
  }

  async function deleteSession(id: string): Promise<boolean> {
    const rows = await db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id })
    return rows.length > 0
  }

  async function deleteExpiredSessions(): Promise<number> {
    const rows = await db
      .delete(sessions)
      .where(lte(sessions.expiresAt, now()))
      .returning({ id: sessions.id })
    return rows.length
  }

  /** The user's organisations, oldest membership first (the first is the active one). */
  async function listUserOrganisations(userId: string): Promise<MemberOrganisation[]> {
    const rows = await db
      .select({ organisation: organisations, membership: memberships })
      .from(memberships)
      .innerJoin(organisations, eq(organisations.id, memberships.organisationId))
      .where(eq(memberships.userId, userId))
      .orderBy(asc(memberships.createdAt), asc(organisations.createdAt), asc(organisations.id))
    return rows.map((row) => ({
      organisation: row.organisation,
      role: row.membership.role,
      joinedAt: row.membership.createdAt,
    }))
  }

  async function addMembership(
    userId: string,
    organisationId: string,
    role: MembershipRole,
  ): Promise<Membership> {
    const [row] = await db.insert(memberships).values({ userId, organisationId, role }).returning()
    return returned(row)
  }

  return {
    createUserWithOrganisation,
    findUserByEmail,
    findUserById,
    updateProfileMeta,
    createSession,
    findLiveSession,
    deleteSession,
    deleteExpiredSessions,
    listUserOrganisations,
    addMembership,
  }
}
