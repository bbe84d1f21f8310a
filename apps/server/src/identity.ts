// Identity (DESIGN §6, SPEC §3, §6, §7.2): sign-up, login, logout, the session check, profile
// meta and the user's organisations. A session is a random 32-byte token in the `bg.session`
// cookie; the database keeps only its sha256, so a leaked sessions table opens no session.
import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from './app.ts'

export { SESSION_COOKIE, SESSION_TTL_SECONDS } from './auth.ts'

import {
  cookieToken,
  createAuth,
  randomToken,
  SESSION_TTL_SECONDS,
  sessionCookie,
  sha256,
} from './auth.ts'
import type { AppContext } from './context.ts'
import { isUniqueViolation, type NewUser, type User } from './db/index.ts'
import { createGoogleVerifier } from './google.ts'
import { HttpError } from './http-error.ts'
import { jsonLimit, parseBody, readJson } from './json-body.ts'
import { hashPassword, needsRehash, verifyNothing, verifyPassword } from './passwords.ts'
import { createRateLimiter } from './rate-limit.ts'

export const USERS = '/service/panel/users/v1.0'
export const ORGANIZATION = '/service/panel/organization/v1.0'
export const MAX_PROFILE_META_BYTES = 16 * 1024
export const MAX_PROFILE_META_DEPTH = 32
export const PASSWORD_MIN = 10
export const PASSWORD_MAX = 128
/** Failed logins allowed per account and per client address in the window, then 429. */
export const LOGIN_LIMITS = { perAccount: 5, perAddress: 30, windowMs: 15 * 60_000 }

// ── input ────────────────────────────────────────────────────────────────────────────────────

// An unpaired UTF-16 surrogate (what `String.prototype.isWellFormed` refuses; not in our lib).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const hasControl = (text: string) =>
  [...text].some((char) => {
    const code = char.codePointAt(0) ?? 0
    return code < 0x20 || code === 0x7f
  })
const wellFormed = (text: string) => !LONE_SURROGATE.test(text) && !hasControl(text)

const email = z
  .string({ error: 'must be a string' })
  .trim()
  .toLowerCase()
  .min(1, 'is required')
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ error: 'must be an email address' }))

const personName = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'is required')
  .max(100, 'must be at most 100 characters')
  .refine(wellFormed, 'must not contain control characters')

const password = z.string({ error: 'must be a string' }).min(1, 'is required')

const signupBody = z.object({ email, password, firstName: personName, lastName: personName })
const googleBody = z.object({
  credential: z
    .string({ error: 'must be a string' })
    .min(1, 'is required')
    .max(8192, 'is too long'),
})
const loginBody = z.object({ email, password: password.max(1024, 'is too long') })

/** The reason `candidate` is not an acceptable password for `forEmail`, or undefined. */
export function passwordProblem(candidate: string, forEmail: string): string | undefined {
  const length = [...candidate].length
  if (length < PASSWORD_MIN) return `password must be at least ${PASSWORD_MIN} characters`
  if (length > PASSWORD_MAX) return `password must be at most ${PASSWORD_MAX} characters`
  if (new Set(candidate).size === 1) return 'password must not be one character repeated'
  if (candidate.trim().toLowerCase() === forEmail) return 'password must not be the email address'
  return undefined
}

/** Checks what jsonb can store: well-formed strings without NUL, bounded nesting. */
function checkMeta(value: unknown, depth = 0): void {
  if (depth > MAX_PROFILE_META_DEPTH) {
    throw new HttpError(
      400,
      'invalid_body',
      `Profile meta nests deeper than ${MAX_PROFILE_META_DEPTH}`,
    )
  }
  const badText = (text: string) => LONE_SURROGATE.test(text) || text.includes('\u0000')
  if (typeof value === 'string' && badText(value)) {
    throw new HttpError(400, 'invalid_body', 'Profile meta holds a NUL or unpaired surrogate')
  }
  if (Array.isArray(value)) for (const item of value) checkMeta(item, depth + 1)
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      checkMeta(key, depth + 1)
      checkMeta(item, depth + 1)
    }
  }
}

// ── login throttling ─────────────────────────────────────────────────────────────────────────

function clientAddress(c: Context<AppEnv>): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  return incoming?.socket.remoteAddress ?? 'unknown'
}

// ── cookies and answers ──────────────────────────────────────────────────────────────────────

export function userJson(user: User) {
  return {
    _id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    createdAt: user.createdAt.toISOString(),
  }
}

/** A cloud name from the first name: `[a-z0-9-]`, at most 20 characters, then `-` and 6 random. */
export function cloudNameFor(firstName: string): string {
  const base =
    firstName
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 20)
      .replace(/-+$/, '') || 'user'
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
  const suffix = [...randomBytes(6)].map((byte) => alphabet[byte % alphabet.length]).join('')
  return `${base}-${suffix}`
}

// ── routes ───────────────────────────────────────────────────────────────────────────────────

export function registerIdentityApi(
  hono: Hono<AppEnv>,
  app: Pick<AppContext, 'repo' | 'config'>,
): void {
  const { repo, config } = app
  const byAccount = createRateLimiter(repo, {
    limit: LOGIN_LIMITS.perAccount,
    windowMs: LOGIN_LIMITS.windowMs,
  })
  const byAddress = createRateLimiter(repo, {
    limit: LOGIN_LIMITS.perAddress,
    windowMs: LOGIN_LIMITS.windowMs,
  })
  const signups = createRateLimiter(repo, {
    limit: config.signupLimitPerHour,
    windowMs: 60 * 60_000,
  })

  /** Starts a session (ending the one the request carried: rotation) and sets its cookie. */
  const startSession = async (c: Context<AppEnv>, user: User) => {
    const previous = cookieToken(c)
    if (previous !== undefined) await repo.deleteSession(sha256(previous))
    const token = randomToken()
    await repo.createSession(
      sha256(token),
      user.id,
      new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
    )
    c.header('set-cookie', sessionCookie(c, config.publicUrl, token, SESSION_TTL_SECONDS))
    c.header('cache-control', 'no-store')
  }

  const { requireUser } = createAuth(app)

  /** Creates a user with their own organisation, retrying if the random cloud name is taken. */
  const createAccount = async (input: NewUser): Promise<User> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const { user } = await repo.createUserWithOrganisation(
          input,
          { cloudName: cloudNameFor(input.firstName), name: `${input.firstName}'s organisation` },
          config.freePlan,
        )
        return user
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_key')) {
          throw new HttpError(
            409,
            'email_taken',
            'An account with this email exists: sign in instead',
          )
        }
        if (!isUniqueViolation(error, 'organisations_cloud_name_key') || attempt >= 5) throw error
      }
    }
  }

  /** Refuses a sign-up from an address that made too many this hour. */
  const checkSignupRate = async (key: string) => {
    const wait = await signups.retryAfter(key)
    if (wait > 0) {
      throw new HttpError(429, 'too_many_signups', 'Too many sign-ups from here: try again later', {
        headers: { 'retry-after': String(wait) },
      })
    }
  }

  const verifyGoogle =
    config.google.clientId === undefined
      ? undefined
      : createGoogleVerifier({ clientId: config.google.clientId, jwksUrl: config.google.jwksUrl })

  // Google one-tap: the ID token names the account; a known Google account signs in, a verified
  // email of an existing account is linked to it, anyone else gets a new account (201).
  hono.post(`${USERS}/auth/google`, jsonLimit, async (c) => {
    c.set('route', 'identity')
    if (verifyGoogle === undefined) {
      throw new HttpError(
        404,
        'google_sign_in_off',
        'Google sign-in is not configured on this server',
      )
    }
    const { credential } = parseBody(await readJson(c), googleBody)
    const identity = await verifyGoogle(credential)
    let user = await repo.findUserByGoogleSub(identity.sub)
    if (user === undefined) {
      if (!identity.emailVerified) {
        throw new HttpError(403, 'email_not_verified', 'Google has not verified this email address')
      }
      const existing = await repo.findUserByEmail(identity.email)
      if (existing !== undefined) {
        if (!(await repo.linkGoogleAccount(existing.id, identity.sub))) {
          throw new HttpError(
            409,
            'google_account_conflict',
            'This account is linked to another Google account',
          )
        }
        user = existing
      }
    }
    if (user !== undefined) {
      await startSession(c, user)
      return c.json({ user: userJson(user), isNewUser: false })
    }
    const signupKey = `signup:address:${clientAddress(c)}`
    await checkSignupRate(signupKey)
    const firstName = identity.givenName ?? identity.email.split('@')[0] ?? 'User'
    const created = await createAccount({
      email: identity.email,
      passwordHash: null,
      googleSub: identity.sub,
      firstName: firstName.slice(0, 100),
      lastName: (identity.familyName ?? '').slice(0, 100),
    })
    await signups.hit(signupKey)
    await startSession(c, created)
    return c.json({ user: userJson(created), isNewUser: true }, 201)
  })

  hono.post(`${USERS}/auth/signup`, jsonLimit, async (c) => {
    c.set('route', 'identity')
    const input = parseBody(await readJson(c), signupBody)
    const problem = passwordProblem(input.password, input.email)
    if (problem !== undefined) throw new HttpError(400, 'weak_password', problem)
    const signupKey = `signup:address:${clientAddress(c)}`
    await checkSignupRate(signupKey)
    if ((await repo.findUserByEmail(input.email)) !== undefined) {
      throw new HttpError(409, 'email_taken', 'An account with this email exists: sign in instead')
    }
    const user = await createAccount({
      email: input.email,
      passwordHash: await hashPassword(input.password),
      firstName: input.firstName,
      lastName: input.lastName,
    })
    await signups.hit(signupKey)
    await startSession(c, user)
    return c.json({ user: userJson(user) }, 201)
  })

  hono.post(`${USERS}/auth/login`, jsonLimit, async (c) => {
    c.set('route', 'identity')
    const input = parseBody(await readJson(c), loginBody)
    const accountKey = `login:account:${input.email}`
    const addressKey = `login:address:${clientAddress(c)}`
    const wait = Math.max(
      await byAccount.retryAfter(accountKey),
      await byAddress.retryAfter(addressKey),
    )
    if (wait > 0) {
      throw new HttpError(429, 'too_many_attempts', 'Too many failed logins: try again later', {
        headers: { 'retry-after': String(wait) },
      })
    }
    const user = await repo.findUserByEmail(input.email)
    const ok =
      user === undefined
        ? await verifyNothing(input.password)
        : await verifyPassword(input.password, user.passwordHash)
    if (user === undefined || !ok) {
      await byAccount.hit(accountKey)
      await byAddress.hit(addressKey)
      throw new HttpError(401, 'invalid_credentials', 'The email or password is wrong')
    }
    await byAccount.reset(accountKey)
    if (user.passwordHash !== null && needsRehash(user.passwordHash)) {
      await repo.setPasswordHash(user.id, await hashPassword(input.password))
    }
    await startSession(c, user)
    return c.json({ user: userJson(user) })
  })

  hono.post(`${USERS}/auth/logout`, async (c) => {
    c.set('route', 'identity')
    const token = cookieToken(c)
    if (token !== undefined) await repo.deleteSession(sha256(token))
    c.header('set-cookie', sessionCookie(c, config.publicUrl, '', 0))
    c.header('cache-control', 'no-store')
    return c.body(null, 204)
  })

  hono.get(`${USERS}/session`, async (c) => {
    c.set('route', 'identity')
    const user = await requireUser(c)
    c.header('cache-control', 'no-store')
    return c.json({ session: { passport: { user: userJson(user) } } })
  })

  hono.patch(`${USERS}/profile/meta`, jsonLimit, async (c) => {
    c.set('route', 'identity')
    const user = await requireUser(c)
    const raw = await readJson(c)
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new HttpError(400, 'invalid_body', 'Profile meta must be a JSON object')
    }
    checkMeta(raw)
    if (Buffer.byteLength(JSON.stringify(raw)) > MAX_PROFILE_META_BYTES) {
      throw new HttpError(413, 'too_large', 'Profile meta is larger than 16 KB')
    }
    const updated = await repo.updateProfileMeta(user.id, raw as Record<string, unknown>)
    c.header('cache-control', 'no-store')
    return c.json({ meta: updated?.profileMeta ?? {} })
  })

  hono.get(`${ORGANIZATION}/all`, async (c) => {
    c.set('route', 'identity')
    const user = await requireUser(c)
    const list = await repo.listUserOrganisations(user.id)
    c.header('cache-control', 'no-store')
    return c.json(
      list.map(({ organisation, role, joinedAt }) => ({
        _id: organisation.id,
        name: organisation.name,
        cloudName: organisation.cloudName,
        role,
        createdAt: organisation.createdAt.toISOString(),
        joinedAt: joinedAt.toISOString(),
      })),
    )
  })
}
