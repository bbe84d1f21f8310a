// Organisations, their members, invitations and API tokens (issue 4, DESIGN §6). Everything is
// reached through `/service/panel/organization/v1.0/{orgId}/…` and `requireOrganisation`, so a
// caller only ever touches an organisation they belong to; others answer 404.
import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from './app.ts'
import { API_TOKEN_PREFIX, createAuth, randomToken, sha256 } from './auth.ts'
import type { AppContext } from './context.ts'
import { type ApiToken, type Invitation, isUniqueViolation, isUuid } from './db/index.ts'
import { HttpError } from './http-error.ts'
import { ORGANIZATION } from './identity.ts'
import { jsonLimit, readBody } from './json-body.ts'

/** Invitations stay open for a week. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000
export const MAX_TOKENS_PER_ORGANISATION = 50
/** Cloud names: lower-case letters, digits and hyphens, 3 to 40, no hyphen at either end. */
export const CLOUD_NAME = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/

const LABEL = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'is required')
  .max(100, 'must be at most 100 characters')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'must not contain control characters')

const ROLE = z.enum(['owner', 'member'], { error: "must be 'owner' or 'member'" })

const organisationChanges = z
  .object({
    name: LABEL.optional(),
    cloudName: z
      .string({ error: 'must be a string' })
      .trim()
      .toLowerCase()
      .regex(
        CLOUD_NAME,
        'must be 3 to 40 lower-case letters, digits or hyphens, not starting or ending with a hyphen',
      )
      .optional(),
  })
  .strict()
const invitationBody = z
  .object({
    email: z
      .string({ error: 'must be a string' })
      .trim()
      .toLowerCase()
      .max(254, 'must be at most 254 characters')
      .pipe(z.email({ error: 'must be an email address' })),
    role: ROLE.default('member'),
  })
  .strict()
const roleBody = z.object({ role: ROLE }).strict()
const tokenBody = z.object({ name: LABEL }).strict()
const acceptBody = z.object({ token: z.string({ error: 'must be a string' }).max(200) }).strict()

function tokenJson(token: ApiToken) {
  return {
    _id: token.id,
    name: token.name,
    prefix: token.prefix,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
  }
}

function invitationJson(invitation: Invitation) {
  return {
    _id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  }
}

/** A path parameter that must be a uuid; anything else is as unknown as a missing row. */
function idParam(c: Context<AppEnv>, name: string, what: string): string {
  const value = c.req.param(name) ?? ''
  if (!isUuid(value)) throw new HttpError(404, `${what}_not_found`, `No ${what} ${value}`)
  return value
}

export function registerOrganizationApi(
  hono: Hono<AppEnv>,
  app: Pick<AppContext, 'repo' | 'config' | 'logger' | 'lookups'>,
): void {
  const { repo, config, lookups } = app
  const auth = createAuth(app)
  const ORG = `${ORGANIZATION}/:orgId`
  const noStore = (c: Context<AppEnv>) => {
    c.set('route', 'organization')
    c.header('cache-control', 'no-store')
  }

  // Invitations are accepted by the invited user, who is not a member yet: no orgId in the path.
  hono.post(`${ORGANIZATION}/invitations/accept`, jsonLimit, async (c) => {
    noStore(c)
    const user = await auth.requireUser(c)
    const { token } = await readBody(c, acceptBody)
    const result = await repo.acceptInvitation(sha256(token), user)
    if (!result.ok) {
      if (result.reason === 'wrong_email') {
        throw new HttpError(
          409,
          'invitation_email_mismatch',
          'This invitation is for another email address: sign in with that account',
        )
      }
      if (result.reason === 'already_member') {
        throw new HttpError(409, 'already_member', 'You are already a member of this organisation')
      }
      throw new HttpError(
        404,
        'invitation_not_found',
        'The invitation is unknown, used, revoked or expired',
      )
    }
    return c.json({
      organisation: {
        _id: result.organisation.id,
        name: result.organisation.name,
        cloudName: result.organisation.cloudName,
        role: result.role,
      },
    })
  })

  hono.get(ORG, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c)
    const organisation = caller.organisation
    return c.json({
      _id: organisation.id,
      name: organisation.name,
      cloudName: organisation.cloudName,
      role: caller.role,
      planId: organisation.planId,
      credits: organisation.credits,
      requireSignedUrls: organisation.requireSignedUrls,
      createdAt: organisation.createdAt.toISOString(),
    })
  })

  hono.patch(ORG, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { owners: true })
    const changes = await readBody(c, organisationChanges)
    let updated: Awaited<ReturnType<typeof repo.updateOrganisation>>
    try {
      updated = await repo.updateOrganisation(caller.organisation.id, changes)
    } catch (error) {
      if (isUniqueViolation(error, 'organisations_cloud_name_key')) {
        throw new HttpError(409, 'cloud_name_taken', `The cloud name ${changes.cloudName} is taken`)
      }
      throw error
    }
    if (updated === undefined)
      throw new HttpError(404, 'organisation_not_found', 'No such organisation')
    lookups.forgetOrganisation(caller.organisation)
    return c.json({ _id: updated.id, name: updated.name, cloudName: updated.cloudName })
  })

  // ── members ──────────────────────────────────────────────────────────────────────────────

  hono.get(`${ORG}/members`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { tokens: false })
    const members = await repo.listMembers(caller.organisation.id)
    return c.json(
      members.map(({ user, role, joinedAt }) => ({
        _id: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        role,
        joinedAt: joinedAt.toISOString(),
      })),
    )
  })

  /** Refuses a change that would leave the organisation without an owner. */
  const keepAnOwner = async (organisationId: string, userId: string) => {
    const member = await repo.findMembership(userId, organisationId)
    if (member === undefined) throw new HttpError(404, 'member_not_found', `No member ${userId}`)
    if (member.role === 'owner' && (await repo.countOwners(organisationId)) <= 1) {
      throw new HttpError(409, 'last_owner', 'An organisation needs at least one owner')
    }
  }

  hono.patch(`${ORG}/members/:userId`, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { owners: true })
    const userId = idParam(c, 'userId', 'member')
    const { role } = await readBody(c, roleBody)
    if (role === 'member') await keepAnOwner(caller.organisation.id, userId)
    if (!(await repo.setMemberRole(caller.organisation.id, userId, role))) {
      throw new HttpError(404, 'member_not_found', `No member ${userId}`)
    }
    return c.json({ _id: userId, role })
  })

  hono.delete(`${ORG}/members/:userId`, async (c) => {
    noStore(c)
    // Anyone may leave; only owners may remove someone else.
    const caller = await auth.requirePathOrganisation(c, { tokens: false })
    const id = caller.organisation.id
    const userId = idParam(c, 'userId', 'member')
    if (caller.user?.id !== userId && caller.role !== 'owner') {
      throw new HttpError(403, 'forbidden', 'Only owners of the organisation can remove members')
    }
    await keepAnOwner(id, userId)
    if (!(await repo.removeMember(id, userId))) {
      throw new HttpError(404, 'member_not_found', `No member ${userId}`)
    }
    return c.body(null, 204)
  })

  // ── invitations ──────────────────────────────────────────────────────────────────────────

  hono.post(`${ORG}/invitations`, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { owners: true })
    const input = await readBody(c, invitationBody)
    const members = await repo.listMembers(caller.organisation.id)
    if (members.some((member) => member.user.email === input.email)) {
      throw new HttpError(409, 'already_member', `${input.email} is already a member`)
    }
    // A new invitation to the same address replaces the open one.
    for (const open of await repo.listInvitations(caller.organisation.id)) {
      if (open.email === input.email) await repo.revokeInvitation(caller.organisation.id, open.id)
    }
    const token = randomToken()
    const invitation = await repo.createInvitation(caller.organisation.id, {
      email: input.email,
      role: input.role,
      tokenHash: sha256(token),
      invitedBy: caller.user?.id ?? null,
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    })
    const acceptUrl = `${config.publicUrl}/console/invitations/accept?token=${token}`
    c.get('log').info(
      { organisationId: caller.organisation.id, invitationId: invitation.id },
      'invitation created',
    )
    return c.json({ ...invitationJson(invitation), token, acceptUrl }, 201)
  })

  hono.get(`${ORG}/invitations`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { owners: true })
    return c.json((await repo.listInvitations(caller.organisation.id)).map(invitationJson))
  })

  hono.delete(`${ORG}/invitations/:invitationId`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { owners: true })
    const id = idParam(c, 'invitationId', 'invitation')
    if (!(await repo.revokeInvitation(caller.organisation.id, id))) {
      throw new HttpError(404, 'invitation_not_found', `No open invitation ${id}`)
    }
    return c.body(null, 204)
  })

  // ── API tokens ───────────────────────────────────────────────────────────────────────────

  hono.post(`${ORG}/tokens`, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { owners: true })
    const { name } = await readBody(c, tokenBody)
    const live = await repo.listApiTokens(caller.organisation.id)
    if (live.length >= MAX_TOKENS_PER_ORGANISATION) {
      throw new HttpError(
        409,
        'too_many_tokens',
        `An organisation can hold ${MAX_TOKENS_PER_ORGANISATION} tokens: revoke one first`,
      )
    }
    const token = `${API_TOKEN_PREFIX}${randomToken()}`
    const created = await repo.createApiToken(caller.organisation.id, {
      name,
      tokenHash: sha256(token),
      prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
      createdBy: caller.user?.id ?? null,
    })
    // The only time the token is shown: the database keeps its hash.
    return c.json({ ...tokenJson(created), token }, 201)
  })

  hono.get(`${ORG}/tokens`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { owners: true })
    return c.json((await repo.listApiTokens(caller.organisation.id)).map(tokenJson))
  })

  hono.delete(`${ORG}/tokens/:tokenId`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { owners: true })
    const id = idParam(c, 'tokenId', 'token')
    if (!(await repo.revokeApiToken(caller.organisation.id, id))) {
      throw new HttpError(404, 'token_not_found', `No live token ${id}`)
    }
    return c.body(null, 204)
  })
}
