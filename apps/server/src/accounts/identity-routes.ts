// Identity (DESIGN §6, SPEC §3, §6, §7.2): sign-up, login, logout, the session check and
// profile meta; the rules are in `identity.ts`. A session is a random 32-byte token in the
// `bg.session` cookie; the database keeps only its sha256, so a leaked sessions table opens no
// session.
import { type Context, Hono } from 'hono'
import type { AppContext, AppEnv } from '../context.ts'
import { isUniqueViolation, type NewUser, type User } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, parseBody, readJson } from '../http/json-body.ts'
import { clientAddress } from '../http/request.ts'
import { limitAddress, type RateLimiter, type RateUse } from '../platform/rate-limit.ts'
import { createAccountMail } from './account-mail.ts'
import { accountRoutes } from './account-routes.ts'
import { type Auth, cookieToken, sessionCookie } from './auth.ts'
import { createGoogleVerifier } from './google.ts'
import {
  checkMeta,
  cloudNameFor,
  LOGIN_LIMITS,
  MAX_PROFILE_META_BYTES,
  passwordProblem,
} from './identity.ts'
import { hashPassword, needsRehash, verifyNothing, verifyPassword } from './passwords.ts'
import { googleBody, loginBody, signupBody } from './requests.ts'
import { createSessionControl } from './session-control.ts'

// ── cookies and answers ──────────────────────────────────────────────────────────────────────

export function userJson(user: User) {
  return {
    _id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    emailVerified: user.emailVerifiedAt !== null,
    hasPassword: user.passwordHash !== null,
    createdAt: user.createdAt.toISOString(),
  }
}

// ── routes ───────────────────────────────────────────────────────────────────────────────────

/**
 * Sign-up, login (password or Google one-tap), logout, the session and profile meta, relative to
 * `USERS`.
 */
export function identityRoutes(
  app: Pick<AppContext, 'repo' | 'config' | 'sessions' | 'mail' | 'logger' | 'storage'>,
  { auth, limiter: limits }: { auth: Auth; limiter: RateLimiter },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo, config, sessions } = app
  const { windowMs } = LOGIN_LIMITS
  const signupRule = (address: string) => ({
    key: `signup:address:${limitAddress(address)}`,
    limit: config.signupLimitPerHour,
    windowMs: 60 * 60_000,
  })

  const control = createSessionControl(app)
  const { startSession, endSession } = control
  // Recovery, e-mail, password, own sessions, deleting the account, the outbox (decision 019).
  const accountMail = createAccountMail(app)
  router.route('/', accountRoutes(app, { auth, limiter: limits, control, accountMail, userJson }))

  const { requireUser } = auth

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

  /**
   * Takes a sign-up of this address (released unless an account is made), or refuses one past
   * the hour's limit.
   */
  const takeSignup = async (c: Context<AppEnv>): Promise<RateUse> => {
    const decision = await limits.take([signupRule(clientAddress(c))])
    if (!decision.ok) {
      throw new HttpError(429, 'too_many_signups', 'Too many sign-ups from here: try again later', {
        headers: { 'retry-after': String(decision.retryAfter) },
      })
    }
    return decision.use
  }

  /** Runs `create` under a sign-up taken from this address; a failed one gives it back. */
  const underSignupLimit = async <T>(c: Context<AppEnv>, create: () => Promise<T>): Promise<T> => {
    const use = await takeSignup(c)
    try {
      return await create()
    } catch (error) {
      await use.release()
      throw error
    }
  }

  const verifyGoogle =
    config.google.clientId === undefined
      ? undefined
      : createGoogleVerifier({ clientId: config.google.clientId, jwksUrl: config.google.jwksUrl })

  // Google one-tap: the ID token names the account; a known Google account signs in, a verified
  // email of an existing account is linked to it, anyone else gets a new account (201).
  router.post(`/auth/google`, jsonLimit, async (c) => {
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
        // Google has verified the address (checked above): it counts as confirmed here too.
        await repo.markEmailVerified(existing.id, existing.email)
        await sessions.forgetUser(existing.id)
        user = existing
      }
    }
    if (user !== undefined) {
      await startSession(c, user)
      return c.json({ user: userJson(user), isNewUser: false })
    }
    const firstName = identity.givenName ?? identity.email.split('@')[0] ?? 'User'
    const created = await underSignupLimit(c, () =>
      createAccount({
        email: identity.email,
        passwordHash: null,
        googleSub: identity.sub,
        // Google said the address is verified (checked above).
        emailVerifiedAt: new Date(),
        firstName: firstName.slice(0, 100),
        lastName: (identity.familyName ?? '').slice(0, 100),
      }),
    )
    await startSession(c, created)
    return c.json({ user: userJson(created), isNewUser: true }, 201)
  })

  router.post(`/auth/signup`, jsonLimit, async (c) => {
    const input = parseBody(await readJson(c), signupBody)
    const problem = passwordProblem(input.password, input.email)
    if (problem !== undefined) throw new HttpError(400, 'weak_password', problem)
    const user = await underSignupLimit(c, async () => {
      if ((await repo.findUserByEmail(input.email)) !== undefined) {
        throw new HttpError(
          409,
          'email_taken',
          'An account with this email exists: sign in instead',
        )
      }
      return createAccount({
        email: input.email,
        passwordHash: await hashPassword(input.password),
        firstName: input.firstName,
        lastName: input.lastName,
      })
    })
    await startSession(c, user)
    // The address is proven by the mailed link; until then the console asks for it (decision 019).
    try {
      await accountMail.sendVerification(c.get('log'), user, user.email)
    } catch (error) {
      c.get('log').error({ err: error, userId: user.id }, 'verification link not made')
    }
    return c.json({ user: userJson(user) }, 201)
  })

  router.post(`/auth/login`, jsonLimit, async (c) => {
    const input = parseBody(await readJson(c), loginBody)
    const address = limitAddress(clientAddress(c))
    const accountKey = `login:account:${input.email}`
    const pairKey = `login:account-address:${input.email}:${address}`
    // The attempt is taken (counted as a failure) before the password is checked, under every
    // limit at once: N attempts at once run at most the limit's password checks. A sign-in
    // gives it back.
    const decision = await limits.take([
      { key: accountKey, limit: Number.POSITIVE_INFINITY, windowMs },
      {
        key: pairKey,
        // Under a distributed attack on one account, each address gets a single failure.
        limit: (countOf) =>
          countOf(accountKey) >= LOGIN_LIMITS.perAccount ? 1 : LOGIN_LIMITS.perAccountAndAddress,
        windowMs,
      },
      { key: `login:address:${address}`, limit: LOGIN_LIMITS.perAddress, windowMs },
    ])
    if (!decision.ok) {
      throw new HttpError(429, 'too_many_attempts', 'Too many failed logins: try again later', {
        headers: { 'retry-after': String(decision.retryAfter) },
      })
    }
    let user: User | undefined
    let ok = false
    try {
      user = await repo.findUserByEmail(input.email)
      ok =
        user === undefined
          ? await verifyNothing(input.password)
          : await verifyPassword(input.password, user.passwordHash)
    } catch (error) {
      // Not an answer about the password: the attempt does not count.
      await decision.use.release()
      throw error
    }
    if (user === undefined || !ok) {
      throw new HttpError(401, 'invalid_credentials', 'The email or password is wrong')
    }
    await decision.use.release()
    // Only this address's failures on the account are forgiven: the account-wide count of a
    // distributed attack stays, so a sign-in by the owner gives the attackers no fresh budget.
    await limits.reset(pairKey)
    if (user.passwordHash !== null && needsRehash(user.passwordHash)) {
      await repo.setPasswordHash(user.id, await hashPassword(input.password))
      await sessions.forgetUser(user.id)
    }
    await startSession(c, user)
    return c.json({ user: userJson(user) })
  })

  router.post(`/auth/logout`, async (c) => {
    const token = cookieToken(c)
    if (token !== undefined) await endSession(token)
    c.header('set-cookie', sessionCookie(c, config.publicUrl, '', 0))
    c.header('cache-control', 'no-store')
    return c.body(null, 204)
  })

  router.get(`/session`, async (c) => {
    const user = await requireUser(c)
    c.header('cache-control', 'no-store')
    return c.json({ session: { passport: { user: userJson(user) } } })
  })

  router.patch(`/profile/meta`, jsonLimit, async (c) => {
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
    await sessions.forgetUser(user.id)
    c.header('cache-control', 'no-store')
    return c.json({ meta: updated?.profileMeta ?? {} })
  })

  return router
}
