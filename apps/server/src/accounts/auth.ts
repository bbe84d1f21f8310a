// Who is calling: a browser session (`bg.session` cookie) or an API token (`Authorization:
// Bearer …`), and which organisation the call may touch. Every organisation-owned API goes
// through `requireOrganisation`, so tenancy is checked in one place (DESIGN §6).
import { createHash, randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import type { AppContext } from '../context.ts'
import { isUuid, type MembershipRole, type Organisation, type User } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import {
  ORG_ROLES,
  type OrgAccess,
  type OrgRole,
  roleAtLeast,
  TOKEN_ROLE,
  tokensMay,
} from '../http/openapi-kit.ts'
import { isHttps } from '../http/request.ts'

export const SESSION_COOKIE = 'bg.session'
/** Sessions last 30 days, in the cookie (Max-Age) and on the server (expires_at). */
export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60
/** API tokens: a fixed prefix, then 32 random bytes in base64url. */
export const API_TOKEN_PREFIX = 'tsk_'
const API_TOKEN = /^tsk_[A-Za-z0-9_-]{43}$/
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** A new random session or API token (without prefix): 32 bytes, base64url. */
export const randomToken = () => randomBytes(32).toString('base64url')

/** The `Set-Cookie` value of a session cookie (an empty token and max-age 0 clear it). */
export function sessionCookie(c: Context, publicUrl: string, token: string, maxAge: number) {
  const secure = isHttps(c, publicUrl) ? '; Secure' : ''
  return `${SESSION_COOKIE}=${token}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`
}

/** The session token the request carries, when it has the shape of one. */
export function cookieToken(c: Context): string | undefined {
  const token = getCookie(c, SESSION_COOKIE)
  return token !== undefined && SESSION_TOKEN.test(token) ? token : undefined
}

/**
 * The API token of an `Authorization: Bearer` header: the token itself, or (as Pixelbin's SDKs
 * send it) its base64. Undefined without the header; 401 for a value that is no token.
 */
export function bearerToken(c: Context): string | undefined {
  const header = c.req.header('authorization')
  if (header === undefined) return undefined
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim())
  const value = match?.[1]
  if (value !== undefined) {
    if (API_TOKEN.test(value)) return value
    const decoded = Buffer.from(value, 'base64').toString('utf8')
    if (API_TOKEN.test(decoded)) return decoded
  }
  throw new HttpError(401, 'invalid_token', 'The Authorization header holds no valid API token')
}

/** Who made a call, for the organisation it may act on. */
export interface Caller {
  organisation: Organisation
  /** The signed-in user; undefined for API-token calls. */
  user: User | undefined
  /** The user's role in the organisation, or `token` for API-token calls. */
  role: MembershipRole | 'token'
  /** The API token's id for token calls. */
  tokenId: string | undefined
}

/**
 * Who may make a call on an organisation: the weakest role, and whether API tokens may (they act
 * as members). Every organisation call names one; its OpenAPI declaration names the same
 * (`orgRoute`), and the role × call test checks the two agree.
 */
export type OrganisationAccess = OrgAccess

/** The roles, weakest first; a user's membership role compares through `roleAtLeast`. */
export { ORG_ROLES, type OrgRole, roleAtLeast, TOKEN_ROLE, tokensMay }

export type Auth = ReturnType<typeof createAuth>

/** The session and token checks over the repository. */
export function createAuth(app: Pick<AppContext, 'repo' | 'config' | 'sessions'>) {
  const { repo, config, sessions } = app

  async function currentUser(c: Context): Promise<User | undefined> {
    const token = cookieToken(c)
    if (token === undefined) return undefined
    return (await sessions.find(sha256(token)))?.user
  }

  /** The signed-in user, or a 401 that also clears a cookie that named no live session. */
  async function requireUser(c: Context): Promise<User> {
    const user = await currentUser(c)
    if (user !== undefined) return user
    const given = getCookie(c, SESSION_COOKIE)
    throw new HttpError(401, 'unauthenticated', 'Sign in to continue', {
      headers:
        given === undefined ? {} : { 'set-cookie': sessionCookie(c, config.publicUrl, '', 0) },
    })
  }

  async function tokenCaller(token: string): Promise<Caller> {
    const found = await repo.useApiToken(sha256(token))
    if (found === undefined) {
      throw new HttpError(401, 'invalid_token', 'The API token is unknown or revoked')
    }
    return {
      organisation: found.organisation,
      user: undefined,
      role: 'token',
      tokenId: found.token.id,
    }
  }

  const noSuchOrganisation = (id: string) =>
    new HttpError(
      404,
      'organisation_not_found',
      `No organisation ${JSON.stringify(id.slice(0, 64))} of yours`,
    )

  /** Refuses an API token a call its access does not let tokens make. */
  const refuseTokens = (access: OrganisationAccess) => {
    if (!tokensMay(access)) {
      throw new HttpError(403, 'forbidden', 'API tokens cannot make this call: sign in')
    }
  }

  /** A member as the caller, when their role in the organisation is strong enough (else 403). */
  const memberCaller = (
    user: User,
    { organisation, role }: { organisation: Organisation; role: MembershipRole },
    access: OrganisationAccess,
  ): Caller => {
    if (!roleAtLeast(role, access.role)) {
      throw new HttpError(
        403,
        'forbidden',
        `This needs the ${access.role} role or above in the organisation; you are ${role}`,
      )
    }
    return { organisation, user, role, tokenId: undefined }
  }

  /**
   * The caller of a call on organisation `organisationId`: a member signed in, or an API token of
   * that organisation. Another organisation's id answers 404 as if it did not exist, so ids
   * cannot be probed; a member without the needed role gets 403.
   */
  async function requireOrganisation(
    c: Context,
    organisationId: string,
    access: OrganisationAccess,
  ): Promise<Caller> {
    const token = bearerToken(c)
    if (token !== undefined) {
      const caller = await tokenCaller(token)
      if (caller.organisation.id !== organisationId) throw noSuchOrganisation(organisationId)
      refuseTokens(access)
      return caller
    }
    const user = await requireUser(c)
    // Checked after authentication, so an anonymous caller learns nothing from the id's shape.
    if (!isUuid(organisationId)) throw noSuchOrganisation(organisationId)
    const membership = await repo.findMembership(user.id, organisationId)
    if (membership === undefined) throw noSuchOrganisation(organisationId)
    return memberCaller(user, membership, access)
  }

  /** `requireOrganisation` for the organisation named by the route's `:orgId` parameter. */
  function requirePathOrganisation(c: Context, access: OrganisationAccess): Promise<Caller> {
    return requireOrganisation(c, c.req.param('orgId') ?? '', access)
  }

  /**
   * The caller of a call that names no organisation in its path (uploads): an API token's own
   * organisation, or for a session the `orgId` query parameter's (default: the active, first
   * one).
   */
  async function requireAnyOrganisation(c: Context, access: OrganisationAccess): Promise<Caller> {
    const token = bearerToken(c)
    if (token !== undefined) {
      refuseTokens(access)
      return tokenCaller(token)
    }
    const user = await requireUser(c)
    const wanted = c.req.query('orgId')
    if (wanted !== undefined) return requireOrganisation(c, wanted, access)
    const [first] = await repo.listUserOrganisations(user.id)
    if (first === undefined) {
      throw new HttpError(404, 'organisation_not_found', 'You belong to no organisation')
    }
    return memberCaller(user, first, access)
  }

  return {
    currentUser,
    requireUser,
    requireOrganisation,
    requirePathOrganisation,
    requireAnyOrganisation,
  }
}
