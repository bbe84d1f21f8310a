// Members and invitations of organisations, and their settings and signing keys (see
// createRepository).
import { and, asc, count, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { revokeLive } from './query-helpers.ts'
import {
  type Invitation,
  invitations,
  type MembershipRole,
  memberships,
  type Organisation,
  organisations,
  type SigningKey,
  signingKeys,
  type User,
  users,
} from './schema.ts'

export interface NewInvitation {
  email: string
  role: MembershipRole
  tokenHash: string
  invitedBy: string | null
  expiresAt: Date
}

/** The settings of an organisation an owner may change (`undefined`: unchanged). */
export interface OrganisationSettingsChanges {
  requireSignedUrls?: boolean | undefined
  strictTransformations?: boolean | undefined
  allowRawFiles?: boolean | undefined
  corsOrigins?: string[] | undefined
}

export interface Member {
  user: User
  role: MembershipRole
  joinedAt: Date
}

/** The member, invitation, settings and signing-key queries. */
export function createMemberQueries(db: Db) {
  /** Changes an organisation's settings; undefined when it does not exist. */
  async function updateOrganisationSettings(
    organisationId: string,
    changes: OrganisationSettingsChanges,
  ): Promise<Organisation | undefined> {
    const set: OrganisationSettingsChanges = {}
    if (changes.requireSignedUrls !== undefined) set.requireSignedUrls = changes.requireSignedUrls
    if (changes.strictTransformations !== undefined) {
      set.strictTransformations = changes.strictTransformations
    }
    if (changes.allowRawFiles !== undefined) set.allowRawFiles = changes.allowRawFiles
    if (changes.corsOrigins !== undefined) set.corsOrigins = changes.corsOrigins
    const query =
      Object.keys(set).length === 0
        ? db.select().from(organisations).where(eq(organisations.id, organisationId))
        : db.update(organisations).set(set).where(eq(organisations.id, organisationId)).returning()
    const [row] = await query
    return row
  }

  /** The organisation's signing keys that are not revoked, oldest first. */
  async function listSigningKeys(organisationId: string): Promise<SigningKey[]> {
    return db
      .select()
      .from(signingKeys)
      .where(and(eq(signingKeys.organisationId, organisationId), isNull(signingKeys.revokedAt)))
      .orderBy(asc(signingKeys.createdAt), asc(signingKeys.id))
  }

  /** Revokes a live signing key of the organisation by id; false when there is none. */
  async function revokeSigningKeyById(organisationId: string, id: string): Promise<boolean> {
    return revokeLive(db, signingKeys, organisationId, eq(signingKeys.id, id))
  }

  async function findMembership(
    userId: string,
    organisationId: string,
  ): Promise<{ organisation: Organisation; role: MembershipRole } | undefined> {
    const [row] = await db
      .select({ organisation: organisations, role: memberships.role })
      .from(memberships)
      .innerJoin(organisations, eq(organisations.id, memberships.organisationId))
      .where(and(eq(memberships.userId, userId), eq(memberships.organisationId, organisationId)))
    return row
  }

  async function listMembers(organisationId: string): Promise<Member[]> {
    const rows = await db
      .select({ user: users, role: memberships.role, joinedAt: memberships.createdAt })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.organisationId, organisationId))
      .orderBy(asc(memberships.createdAt), asc(users.id))
    return rows
  }

  async function countOwners(organisationId: string): Promise<number> {
    const [row] = await db
      .select({ owners: count() })
      .from(memberships)
      .where(and(eq(memberships.organisationId, organisationId), eq(memberships.role, 'owner')))
    return row?.owners ?? 0
  }

  async function setMemberRole(
    organisationId: string,
    userId: string,
    role: MembershipRole,
  ): Promise<boolean> {
    const rows = await db
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.organisationId, organisationId), eq(memberships.userId, userId)))
      .returning({ userId: memberships.userId })
    return rows.length > 0
  }

  async function removeMember(organisationId: string, userId: string): Promise<boolean> {
    const rows = await db
      .delete(memberships)
      .where(and(eq(memberships.organisationId, organisationId), eq(memberships.userId, userId)))
      .returning({ userId: memberships.userId })
    return rows.length > 0
  }

  async function createInvitation(
    organisationId: string,
    input: NewInvitation,
  ): Promise<Invitation> {
    const [row] = await db
      .insert(invitations)
      .values({ organisationId, ...input })
      .returning()
    if (row === undefined) throw new Error('The database returned no invitation')
    return row
  }

  /** Open invitations: neither accepted, revoked nor expired. */
  async function listInvitations(organisationId: string): Promise<Invitation[]> {
    return db
      .select()
      .from(invitations)
      .where(
        and(
          eq(invitations.organisationId, organisationId),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(invitations.createdAt), asc(invitations.id))
  }

  async function revokeInvitation(organisationId: string, id: string): Promise<boolean> {
    const open = isNull(invitations.acceptedAt)
    return revokeLive(db, invitations, organisationId, eq(invitations.id, id), open)
  }

  /**
   * Accepts the open invitation with this token hash for `user` (whose email must be the one
   * invited): marks it accepted and adds the membership, in one transaction. Answers why not
   * otherwise.
   */
  async function acceptInvitation(
    tokenHash: string,
    user: User,
  ): Promise<
    | { ok: true; organisation: Organisation; role: MembershipRole }
    | { ok: false; reason: 'unknown' | 'wrong_email' | 'already_member' }
  > {
    return db.transaction(async (tx) => {
      const [invitation] = await tx
        .select()
        .from(invitations)
        .where(
          and(
            eq(invitations.tokenHash, tokenHash),
            isNull(invitations.acceptedAt),
            isNull(invitations.revokedAt),
            gt(invitations.expiresAt, sql`now()`),
          ),
        )
        .for('update')
      if (invitation === undefined) return { ok: false, reason: 'unknown' } as const
      if (invitation.email !== user.email) return { ok: false, reason: 'wrong_email' } as const
      const [existing] = await tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(
          and(
            eq(memberships.userId, user.id),
            eq(memberships.organisationId, invitation.organisationId),
          ),
        )
      if (existing !== undefined) return { ok: false, reason: 'already_member' } as const
      await tx
        .update(invitations)
        .set({ acceptedAt: sql`now()` })
        .where(eq(invitations.id, invitation.id))
      await tx.insert(memberships).values({
        userId: user.id,
        organisationId: invitation.organisationId,
        role: invitation.role,
      })
      const [organisation] = await tx
        .select()
        .from(organisations)
        .where(eq(organisations.id, invitation.organisationId))
      if (organisation === undefined) return { ok: false, reason: 'unknown' } as const
      return { ok: true, organisation, role: invitation.role } as const
    })
  }

  return {
    updateOrganisationSettings,
    listSigningKeys,
    revokeSigningKeyById,
    findMembership,
    listMembers,
    countOwners,
    setMemberRole,
    removeMember,
    createInvitation,
    listInvitations,
    revokeInvitation,
    acceptInvitation,
  }
}
