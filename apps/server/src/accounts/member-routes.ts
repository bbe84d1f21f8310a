// The members and invitations of an organisation (issue 4, DESIGN §6): roles, leaving and
// removing, invitations by email (a token shown once, kept as its hash) and accepting them.
// Mounted by `organisation-routes.ts`; every call but accepting goes through
// `requirePathOrganisation`.
import { Hono } from 'hono'
import { type ActivityEvent, actorOf, createActivityLog } from '../activity/activity.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { Invitation } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readBody } from '../http/json-body.ts'
import { pickJson } from '../http/pick-json.ts'
import { invitationMail } from '../mail/templates.ts'
import { createAccountMail } from './account-mail.ts'
import { type Auth, type Caller, randomToken, sha256 } from './auth.ts'
import { idParam, noStore } from './organisation-http.ts'
import { acceptBody, invitationBody, roleBody } from './requests.ts'

/** Invitations stay open for a week. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000

function invitationJson(invitation: Invitation) {
  return {
    _id: invitation.id,
    ...pickJson(invitation, ['email', 'role', 'createdAt', 'expiresAt']),
  }
}

/** The members and invitation calls, relative to `ORGANIZATION`. */
export function memberRoutes(
  app: Pick<AppContext, 'repo' | 'config' | 'logger' | 'sessions' | 'mail'>,
  { auth }: { auth: Auth },
): Hono<AppEnv> {
  const { repo } = app
  const accountMail = createAccountMail(app)
  const router = new Hono<AppEnv>()
  const ORG = '/:orgId'
  // Who did what, for the organisation's activity log (issue 24).
  const activity = createActivityLog(app)
  const log = (caller: Caller, event: ActivityEvent) =>
    activity.record(caller.organisation.id, actorOf(caller), event)

  // Invitations are accepted by the invited user, who is not a member yet: no orgId in the path.
  router.post('/invitations/accept', jsonLimit, async (c) => {
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
    await activity.record(result.organisation.id, actorOf({ user, role: result.role }), {
      kind: 'member.join',
      target: user.email,
      details: { role: result.role },
    })
    return c.json({
      organisation: {
        _id: result.organisation.id,
        name: result.organisation.name,
        cloudName: result.organisation.cloudName,
        role: result.role,
      },
    })
  })

  // ── members ──────────────────────────────────────────────────────────────────────────────

  router.get(`${ORG}/members`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer', tokens: false })
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

  router.patch(`${ORG}/members/:userId`, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const userId = idParam(c, 'userId', 'member')
    const { role } = await readBody(c, roleBody)
    const target = await repo.findMembership(userId, caller.organisation.id)
    if (target === undefined) throw new HttpError(404, 'member_not_found', `No member ${userId}`)
    // Owners are made and unmade by owners only (decision 019).
    if ((role === 'owner' || target.role === 'owner') && caller.role !== 'owner') {
      throw new HttpError(403, 'forbidden', 'Only owners can make or unmake owners')
    }
    if (role !== 'owner') await keepAnOwner(caller.organisation.id, userId)
    if (!(await repo.setMemberRole(caller.organisation.id, userId, role))) {
      throw new HttpError(404, 'member_not_found', `No member ${userId}`)
    }
    await log(caller, { kind: 'member.role', target: userId, details: { role } })
    return c.json({ _id: userId, role })
  })

  router.delete(`${ORG}/members/:userId`, async (c) => {
    noStore(c)
    // Anyone may leave; admins may remove members, admins and viewers; only owners remove owners.
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer', tokens: false })
    const id = caller.organisation.id
    const userId = idParam(c, 'userId', 'member')
    const target = await repo.findMembership(userId, id)
    if (target === undefined) throw new HttpError(404, 'member_not_found', `No member ${userId}`)
    if (caller.user?.id !== userId) {
      if (caller.role !== 'owner' && caller.role !== 'admin') {
        throw new HttpError(403, 'forbidden', 'Only owners and admins can remove members')
      }
      if (target.role === 'owner' && caller.role !== 'owner') {
        throw new HttpError(403, 'forbidden', 'Only owners can remove an owner')
      }
    }
    await keepAnOwner(id, userId)
    if (!(await repo.removeMember(id, userId))) {
      throw new HttpError(404, 'member_not_found', `No member ${userId}`)
    }
    await log(caller, { kind: 'member.remove', target: userId })
    return c.body(null, 204)
  })

  // ── invitations ──────────────────────────────────────────────────────────────────────────

  router.post(`${ORG}/invitations`, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const input = await readBody(c, invitationBody)
    if (input.role === 'owner' && caller.role !== 'owner') {
      throw new HttpError(403, 'forbidden', 'Only owners can invite owners')
    }
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
    const acceptUrl = `${accountMail.consoleUrl}/invitations/accept?token=${token}`
    c.get('log').info(
      { organisationId: caller.organisation.id, invitationId: invitation.id },
      'invitation created',
    )
    const inviter = caller.user
    accountMail.sendLater(
      c.get('log'),
      invitationMail({
        to: invitation.email,
        organisationName: caller.organisation.name,
        invitedBy:
          inviter === undefined
            ? undefined
            : `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.email,
        role: invitation.role,
        acceptUrl,
        expiresAt: invitation.expiresAt,
      }),
      'invitation',
    )
    await log(caller, { kind: 'member.invite', target: input.email, details: { role: input.role } })
    return c.json({ ...invitationJson(invitation), token, acceptUrl }, 201)
  })

  router.get(`${ORG}/invitations`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    return c.json((await repo.listInvitations(caller.organisation.id)).map(invitationJson))
  })

  router.delete(`${ORG}/invitations/:invitationId`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const id = idParam(c, 'invitationId', 'invitation')
    if (!(await repo.revokeInvitation(caller.organisation.id, id))) {
      throw new HttpError(404, 'invitation_not_found', `No open invitation ${id}`)
    }
    await log(caller, { kind: 'invitation.revoke', target: id })
    return c.body(null, 204)
  })

  return router
}
