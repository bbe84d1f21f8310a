// Account recovery and settings (issue 24, decision 019): forgot and reset password, e-mail
// verification and change, change password, the user's own sessions, deleting the account, and
// the development outbox for operators. Mounted by `identity-routes.ts` under `USERS`.
//
// Recovery answers the same whether an address has an account or not (no enumeration): the mail
// is sent after the answer, so the time to answer tells nothing either.
import { type Context, Hono } from 'hono'
import type { AppContext, AppEnv } from '../context.ts'
import { isUniqueViolation, type User } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readBody } from '../http/json-body.ts'
import { clientAddress } from '../http/request.ts'
import { accountChangedMail, passwordResetMail } from '../mail/templates.ts'
import type { MailMessage } from '../platform/mail.ts'
import { limitAddress, type RateLimiter, type RateRule } from '../platform/rate-limit.ts'
import type { AccountMail } from './account-mail.ts'
import { type Auth, cookieToken, randomToken, sessionCookie, sha256 } from './auth.ts'
import {
  CONFIRM_LIMITS,
  FORGOT_ANSWER,
  OUTBOX_PAGE,
  passwordProblem,
  RECOVERY_LIMITS,
  RESET_TTL_MS,
} from './identity.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import {
  changeEmailBody,
  changePasswordBody,
  deleteAccountBody,
  forgotBody,
  resetBody,
  verifyBody,
} from './requests.ts'
import type { SessionControl } from './session-control.ts'

export function accountRoutes(
  app: Pick<AppContext, 'repo' | 'config' | 'sessions' | 'mail' | 'logger' | 'storage'>,
  {
    auth,
    limiter,
    control,
    accountMail,
    userJson,
  }: {
    auth: Auth
    limiter: RateLimiter
    control: SessionControl
    accountMail: AccountMail
    userJson: (user: User) => Record<string, unknown>
  },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo, config, mail } = app

  const { consoleUrl, sendVerification } = accountMail
  const sendLater = (c: Context<AppEnv>, message: MailMessage, what: string) =>
    accountMail.sendLater(c.get('log'), message, what)

  const takeOrRefuse = async (rules: RateRule[], message: string) => {
    const decision = await limiter.take(rules)
    if (!decision.ok) {
      throw new HttpError(429, 'too_many_requests', message, {
        headers: { 'retry-after': String(decision.retryAfter) },
      })
    }
    return decision.use
  }

  /** One more mail to `email` (a confirmation link), or 429 past its recovery limit. */
  const limitMailsTo = (email: string) =>
    takeOrRefuse(
      [
        {
          key: `recovery:email:${email}`,
          limit: RECOVERY_LIMITS.perEmail,
          windowMs: RECOVERY_LIMITS.windowMs,
        },
      ],
      'Too many mails asked for: try again later',
    )

  /** Checks the current password of an account change; failures count against the user. */
  const confirmPassword = async (user: User, given: string) => {
    const use = await takeOrRefuse(
      [
        {
          key: `confirm:user:${user.id}`,
          limit: CONFIRM_LIMITS.perUser,
          windowMs: CONFIRM_LIMITS.windowMs,
        },
      ],
      'Too many wrong passwords: try again later',
    )
    const ok =
      user.passwordHash === null ? given === '' : await verifyPassword(given, user.passwordHash)
    if (!ok) throw new HttpError(403, 'wrong_password', 'The current password is wrong')
    await use.release()
  }

  // ── forgot and reset ─────────────────────────────────────────────────────────────────────

  router.post('/auth/password/forgot', jsonLimit, async (c) => {
    c.header('cache-control', 'no-store')
    const { email } = await readBody(c, forgotBody)
    const { perAddress, perEmail, windowMs } = RECOVERY_LIMITS
    await takeOrRefuse(
      [
        { key: `recovery:address:${limitAddress(clientAddress(c))}`, limit: perAddress, windowMs },
        { key: `recovery:email:${email}`, limit: perEmail, windowMs },
      ],
      'Too many reset requests: try again later',
    )
    // Looked up, and the link made and mailed, after the answer: known and unknown addresses
    // answer alike and as fast.
    const log = c.get('log')
    void (async () => {
      const user = await repo.findUserByEmail(email)
      if (user === undefined) return
      const token = randomToken()
      await repo.createAccountToken({
        userId: user.id,
        kind: 'password_reset',
        tokenHash: sha256(token),
        email: null,
        expiresAt: new Date(Date.now() + RESET_TTL_MS),
      })
      await mail.send(
        passwordResetMail({
          to: user.email,
          resetUrl: `${consoleUrl}/auth/reset-password?token=${token}`,
          validMinutes: RESET_TTL_MS / 60_000,
        }),
      )
    })().catch((error: unknown) => {
      log.error({ err: error, what: 'password_reset' }, 'reset mail could not be sent')
    })
    return c.json(FORGOT_ANSWER, 202)
  })

  router.post('/auth/password/reset', jsonLimit, async (c) => {
    c.header('cache-control', 'no-store')
    const input = await readBody(c, resetBody)
    const hash = sha256(input.token)
    const open = await repo.findOpenAccountToken(hash, 'password_reset')
    const owner = open === undefined ? undefined : await repo.findUserById(open.userId)
    if (owner === undefined) {
      throw new HttpError(
        404,
        'invalid_token',
        'This reset link is unknown, used or expired: ask for a new one',
      )
    }
    // Checked before the token is used, so a weak password does not spend the link.
    const problem = passwordProblem(input.password, owner.email)
    if (problem !== undefined) throw new HttpError(400, 'weak_password', problem)
    const used = await repo.useAccountToken(hash, 'password_reset')
    if (used === undefined) {
      throw new HttpError(404, 'invalid_token', 'This reset link was used meanwhile')
    }
    const { user } = used
    await repo.setPasswordHash(user.id, await hashPassword(input.password))
    // Whoever opened the link reads this address's mail: it is proven.
    await repo.markEmailVerified(user.id, user.email)
    await repo.deleteOtherSessions(user.id, undefined)
    await app.sessions.forgetUser(user.id)
    sendLater(c, accountChangedMail({ to: user.email, what: 'password' }), 'password_changed')
    const fresh = (await repo.findUserById(user.id)) ?? user
    await control.startSession(c, fresh)
    return c.json({ user: userJson(fresh) })
  })

  // ── e-mail verification and change ───────────────────────────────────────────────────────

  router.post('/auth/email/verify', jsonLimit, async (c) => {
    c.header('cache-control', 'no-store')
    const { token } = await readBody(c, verifyBody)
    const used = await repo.useAccountToken(sha256(token), 'verify_email')
    const email = used?.token.email
    if (used === undefined || email == null) {
      throw new HttpError(
        404,
        'invalid_token',
        'This confirmation link is unknown, used or expired: ask for a new one',
      )
    }
    const { user } = used
    let updated: User | undefined
    if (email === user.email) {
      await repo.markEmailVerified(user.id, email)
      updated = await repo.findUserById(user.id)
    } else {
      try {
        updated = await repo.changeEmail(user.id, email)
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_key')) {
          throw new HttpError(409, 'email_taken', 'Another account uses this address now')
        }
        throw error
      }
      sendLater(
        c,
        accountChangedMail({ to: user.email, what: 'email', newEmail: email }),
        'email_changed',
      )
    }
    await app.sessions.forgetUser(user.id)
    return c.json({ user: userJson(updated ?? user) })
  })

  router.post('/account/email/verification', async (c) => {
    c.header('cache-control', 'no-store')
    const user = await auth.requireUser(c)
    if (user.emailVerifiedAt !== null) {
      throw new HttpError(409, 'already_verified', 'This address is already confirmed')
    }
    await limitMailsTo(user.email)
    await sendVerification(c.get('log'), user, user.email)
    return c.json({ message: `A confirmation link is on its way to ${user.email}.` }, 202)
  })

  router.post('/account/email', jsonLimit, async (c) => {
    c.header('cache-control', 'no-store')
    const user = await auth.requireUser(c)
    const input = await readBody(c, changeEmailBody)
    await confirmPassword(user, input.password)
    if (input.email === user.email) {
      throw new HttpError(400, 'same_email', 'This is already your address')
    }
    if ((await repo.findUserByEmail(input.email)) !== undefined) {
      throw new HttpError(409, 'email_taken', 'Another account uses this address')
    }
    await limitMailsTo(input.email)
    await sendVerification(c.get('log'), user, input.email)
    return c.json(
      {
        message: `A link is on its way to ${input.email}: your address changes when it is opened.`,
      },
      202,
    )
  })

  // ── password ─────────────────────────────────────────────────────────────────────────────

  router.post('/account/password', jsonLimit, async (c) => {
    c.header('cache-control', 'no-store')
    const user = await auth.requireUser(c)
    const input = await readBody(c, changePasswordBody)
    if (user.passwordHash === null) {
      throw new HttpError(
        409,
        'no_password',
        'This account signs in with Google: set a password through "Forgot password"',
      )
    }
    await confirmPassword(user, input.currentPassword)
    const problem = passwordProblem(input.newPassword, user.email)
    if (problem !== undefined) throw new HttpError(400, 'weak_password', problem)
    await repo.setPasswordHash(user.id, await hashPassword(input.newPassword))
    const ended = await control.endOtherSessions(c, user.id, true)
    sendLater(c, accountChangedMail({ to: user.email, what: 'password' }), 'password_changed')
    return c.json({ endedSessions: ended })
  })

  // ── own sessions ─────────────────────────────────────────────────────────────────────────

  router.get('/account/sessions', async (c) => {
    c.header('cache-control', 'no-store')
    const user = await auth.requireUser(c)
    const token = cookieToken(c)
    const current = token === undefined ? undefined : sha256(token)
    const list = await repo.listUserSessions(user.id)
    return c.json(
      list.map((session) => ({
        _id: session.id,
        current: session.id === current,
        userAgent: session.userAgent,
        createdAt: session.createdAt.toISOString(),
        lastSeenAt: session.lastSeenAt.toISOString(),
        expiresAt: session.expiresAt.toISOString(),
      })),
    )
  })

  router.delete('/account/sessions', async (c) => {
    c.header('cache-control', 'no-store')
    const user = await auth.requireUser(c)
    return c.json({ endedSessions: await control.endOtherSessions(c, user.id, true) })
  })

  router.delete('/account/sessions/:sessionId', async (c) => {
    c.header('cache-control', 'no-store')
    const user = await auth.requireUser(c)
    const id = c.req.param('sessionId')
    if (!/^[0-9a-f]{64}$/.test(id) || !(await repo.deleteUserSession(user.id, id))) {
      throw new HttpError(404, 'session_not_found', 'No such session of yours')
    }
    await app.sessions.forgetSession(id)
    const token = cookieToken(c)
    if (token !== undefined && sha256(token) === id) {
      c.header('set-cookie', sessionCookie(c, config.publicUrl, '', 0))
    }
    return c.body(null, 204)
  })

  // ── deleting the account ─────────────────────────────────────────────────────────────────

  router.delete('/account', jsonLimit, async (c) => {
    c.header('cache-control', 'no-store')
    const user = await auth.requireUser(c)
    const input = await readBody(c, deleteAccountBody)
    if (input.email !== user.email) {
      throw new HttpError(400, 'confirmation_mismatch', "Type your account's address to confirm")
    }
    await confirmPassword(user, input.password)
    const result = await repo.deleteAccount(user.id)
    if (!result.ok) {
      const names = result.organisations.map((org) => org.name).join(', ')
      return c.json(
        {
          code: 'last_owner',
          message: `You are the last owner of ${names}: make another member owner first`,
          organisations: result.organisations.map((org) => ({ _id: org.id, name: org.name })),
        },
        409,
      )
    }
    await app.sessions.forgetUser(user.id)
    // The stored files of the organisations that went with the account.
    for (const id of result.deletedOrganisations) {
      try {
        for await (const key of app.storage.list(`orgs/${id}/`)) await app.storage.delete(key)
      } catch (error) {
        c.get('log').error({ err: error, organisationId: id }, 'files of a deleted organisation')
      }
    }
    c.get('log').info(
      { userId: user.id, organisations: result.deletedOrganisations },
      'account deleted',
    )
    c.header('set-cookie', sessionCookie(c, config.publicUrl, '', 0))
    return c.body(null, 204)
  })

  // ── the development outbox ───────────────────────────────────────────────────────────────

  // Outbox mails hold other people's reset links: only the operators named in OPERATOR_EMAILS
  // read them (decision 019), and only while no SMTP server is configured.
  router.get('/mail/outbox', async (c) => {
    c.header('cache-control', 'no-store')
    const user = await auth.requireUser(c)
    if (!config.mail.operators.includes(user.email)) {
      throw new HttpError(
        403,
        'not_operator',
        'Only the operators named in OPERATOR_EMAILS can read the outbox',
      )
    }
    const items = mail.mode === 'outbox' ? await mail.outbox(OUTBOX_PAGE) : []
    return c.json({
      mode: mail.mode,
      items: items.map((item) => ({
        _id: item.id,
        to: item.to,
        subject: item.subject,
        text: item.text,
        createdAt: item.createdAt.toISOString(),
      })),
    })
  })

  return router
}
