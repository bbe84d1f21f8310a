// Mail and account recovery through the real server, which sends to a real SMTP server running in
// this process (decision 019): sign-up verification, forgot and reset password (single use, no
// enumeration, rate-limited), change password and e-mail, own sessions, deleting the account with
// the last-owner rule, invitations by mail, and the development outbox when no SMTP is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { linkIn, startTestSmtp, type TestSmtp } from '../mail/test-smtp.ts'
import { expectError } from '../test-client.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { FORGOT_ANSWER, RECOVERY_LIMITS } from './identity.ts'

const USERS = '/service/panel/users/v1.0'
const ORG = '/service/panel/organization/v1.0'
const PASSWORD = 'correct horse battery'

const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? ''

describe.each<TestDatabaseKind>(testDatabases('server'))('mail and recovery on %s', (kind) => {
  let smtp: TestSmtp

  beforeAll(async () => {
    smtp = await startTestSmtp()
  })
  afterAll(async () => {
    await smtp?.stop()
  })
  const suite = useTestServer(kind, () => ({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Tessera <mail@test>',
  }))
  const { call } = suite
  const login = (email: string, password: string) =>
    call('POST', `${USERS}/auth/login`, { body: { email, password } })

  it('mails a confirmation link on sign-up; opening it verifies the address once', async () => {
    const account = await suite.client.signup()
    const session = await call('GET', `${USERS}/session`, { cookie: account.cookie })
    expect(session.body).toMatchObject({
      session: { passport: { user: { emailVerified: false } } },
    })
    const mail = await smtp.waitFor(account.email, /Confirm your Tessera e-mail/)
    expect(mail.from).toBe('mail@test')
    const link = linkIn(mail, '/auth/verify-email')
    expect(
      link.startsWith(`${suite.server.config.publicUrl}/console/auth/verify-email?token=`),
    ).toBe(true)
    const verified = await call('POST', `${USERS}/auth/email/verify`, {
      body: { token: tokenOf(link) },
    })
    expect(verified.status, JSON.stringify(verified.body)).toBe(200)
    expect(verified.body).toMatchObject({ user: { email: account.email, emailVerified: true } })
    const again = await call('POST', `${USERS}/auth/email/verify`, {
      body: { token: tokenOf(link) },
    })
    expectError(again, 404, 'invalid_token')
  })

  it('resets a forgotten password by a mailed single-use link and ends every session', async () => {
    const account = await suite.client.signup()
    const other = await login(account.email, PASSWORD)
    expect(other.status).toBe(200)
    const asked = await call('POST', `${USERS}/auth/password/forgot`, {
      body: { email: account.email.toUpperCase() },
    })
    expect(asked.status).toBe(202)
    expect(asked.body).toEqual(FORGOT_ANSWER)
    const mail = await smtp.waitFor(account.email, /Reset your Tessera password/)
    const token = tokenOf(linkIn(mail, '/auth/reset-password'))
    // A weak password is refused without spending the link.
    const weak = await call('POST', `${USERS}/auth/password/reset`, {
      body: { token, password: 'short' },
    })
    expectError(weak, 400, 'weak_password')
    const reset = await call('POST', `${USERS}/auth/password/reset`, {
      body: { token, password: 'a brand new passphrase' },
    })
    expect(reset.status, JSON.stringify(reset.body)).toBe(200)
    expect(reset.cookie).toBeDefined()
    expect(reset.body).toMatchObject({ user: { emailVerified: true } })
    // The old sessions are gone, the old password too; the new one works.
    for (const cookie of [account.cookie, other.cookie ?? '']) {
      expect((await call('GET', `${USERS}/session`, { cookie })).status).toBe(401)
    }
    expectError(await login(account.email, PASSWORD), 401, 'invalid_credentials')
    expect((await login(account.email, 'a brand new passphrase')).status).toBe(200)
    // Single use.
    const reused = await call('POST', `${USERS}/auth/password/reset`, {
      body: { token, password: 'yet another passphrase' },
    })
    expectError(reused, 404, 'invalid_token')
    await smtp.waitFor(account.email, /password changed/)
  })

  it('answers a forgot-password request for an unknown address exactly as for a known one', async () => {
    const unknown = `nobody.${Date.now().toString(36)}@example.com`
    const answer = await call('POST', `${USERS}/auth/password/forgot`, { body: { email: unknown } })
    expect(answer.status).toBe(202)
    expect(answer.body).toEqual(FORGOT_ANSWER)
    const known = await suite.client.signup()
    const knownAnswer = await call('POST', `${USERS}/auth/password/forgot`, {
      body: { email: known.email },
    })
    expect(knownAnswer.status).toBe(answer.status)
    expect(knownAnswer.body).toEqual(answer.body)
    await smtp.waitFor(known.email, /Reset/)
    expect(smtp.received.some((mail) => mail.to.includes(unknown))).toBe(false)
  })

  it('limits reset requests per address with a 429 and Retry-After, known or not', async () => {
    const email = `limited.${Date.now().toString(36)}@example.com`
    for (let i = 0; i < RECOVERY_LIMITS.perEmail; i++) {
      const ok = await call('POST', `${USERS}/auth/password/forgot`, { body: { email } })
      expect(ok.status).toBe(202)
    }
    const refused = await call('POST', `${USERS}/auth/password/forgot`, { body: { email } })
    expectError(refused, 429, 'too_many_requests')
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('refuses a malformed or unknown reset token with a clear 4xx', async () => {
    expectError(
      await call('POST', `${USERS}/auth/password/reset`, {
        body: { token: 'nope', password: 'x' },
      }),
      404,
      'invalid_token',
    )
    expectError(
      await call('POST', `${USERS}/auth/password/reset`, { body: { password: 'x' } }),
      400,
      'invalid_body',
    )
  })

  it('changes the password with the current one and ends the other sessions only', async () => {
    const account = await suite.client.signup()
    const other = await login(account.email, PASSWORD)
    const wrong = await call('POST', `${USERS}/account/password`, {
      cookie: account.cookie,
      body: { currentPassword: 'not it at all', newPassword: 'another fine phrase' },
    })
    expectError(wrong, 403, 'wrong_password')
    const changed = await call('POST', `${USERS}/account/password`, {
      cookie: account.cookie,
      body: { currentPassword: PASSWORD, newPassword: 'another fine phrase' },
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body).toEqual({ endedSessions: 1 })
    expect((await call('GET', `${USERS}/session`, { cookie: account.cookie })).status).toBe(200)
    expect((await call('GET', `${USERS}/session`, { cookie: other.cookie ?? '' })).status).toBe(401)
  })

  it('changes the e-mail only when the link mailed to the new address is opened', async () => {
    const account = await suite.client.signup()
    const taken = await suite.client.signup()
    expectError(
      await call('POST', `${USERS}/account/email`, {
        cookie: account.cookie,
        body: { email: taken.email, password: PASSWORD },
      }),
      409,
      'email_taken',
    )
    const next = `moved.${Date.now().toString(36)}@example.com`
    const asked = await call('POST', `${USERS}/account/email`, {
      cookie: account.cookie,
      body: { email: next, password: PASSWORD },
    })
    expect(asked.status, JSON.stringify(asked.body)).toBe(202)
    // Not moved yet.
    expect((await login(account.email, PASSWORD)).status).toBe(200)
    const mail = await smtp.waitFor(next, /new Tessera e-mail/)
    const done = await call('POST', `${USERS}/auth/email/verify`, {
      body: { token: tokenOf(linkIn(mail, '/auth/verify-email')) },
    })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body).toMatchObject({ user: { email: next, emailVerified: true } })
    expect((await login(next, PASSWORD)).status).toBe(200)
    expectError(await login(account.email, PASSWORD), 401, 'invalid_credentials')
    await smtp.waitFor(account.email, /e-mail changed/)
  })

  it('lists the own sessions and revokes one of them', async () => {
    const account = await suite.client.signup()
    const other = await call('POST', `${USERS}/auth/login`, {
      body: { email: account.email, password: PASSWORD },
      headers: { 'user-agent': 'Phone browser 1.0' },
    })
    const list = await call('GET', `${USERS}/account/sessions`, { cookie: account.cookie })
    expect(list.status).toBe(200)
    const sessions = list.body as { _id: string; current: boolean; userAgent: string | null }[]
    expect(sessions).toHaveLength(2)
    expect(sessions.filter((s) => s.current)).toHaveLength(1)
    const phone = sessions.find((s) => s.userAgent === 'Phone browser 1.0')
    expect(phone?.current).toBe(false)
    const revoked = await call('DELETE', `${USERS}/account/sessions/${phone?._id}`, {
      cookie: account.cookie,
    })
    expect(revoked.status).toBe(204)
    expect((await call('GET', `${USERS}/session`, { cookie: other.cookie ?? '' })).status).toBe(401)
    // Another user's session id is not found, whatever its shape.
    const stranger = await suite.client.signup()
    const theirs = await call('GET', `${USERS}/account/sessions`, { cookie: stranger.cookie })
    const theirId = (theirs.body as { _id: string }[])[0]?._id
    expectError(
      await call('DELETE', `${USERS}/account/sessions/${theirId}`, { cookie: account.cookie }),
      404,
      'session_not_found',
    )
    expectError(
      await call('DELETE', `${USERS}/account/sessions/x'--`, { cookie: account.cookie }),
      404,
      'session_not_found',
    )
  })

  it('mails the owners when a payment goes through, with a link to billing', async () => {
    const owner = await suite.client.signup()
    const started = await call(
      'POST',
      `/service/panel/billing/v1.0/org/${owner.organisation._id}/checkout`,
      {
        cookie: owner.cookie,
        body: { kind: 'topup', addonId: 101 },
      },
    )
    expect(started.status, JSON.stringify(started.body)).toBe(201)
    const { checkoutUrl } = started.body as { checkoutUrl: string }
    const paid = await fetch(
      `${checkoutUrl.replace(suite.server.config.publicUrl, suite.server.url)}/pay`,
      {
        method: 'POST',
        redirect: 'manual',
      },
    )
    expect(paid.status).toBeLessThan(400)
    const mail = await smtp.waitFor(owner.email, /Payment received/)
    expect(mail.text).toMatch(/credits were added/)
    expect(linkIn(mail, `/organization/${owner.organisation._id}/billing`)).toMatch(/^http/)
  })

  it('invites by mail, and deletes an account only once no organisation is left without owner', async () => {
    const owner = await suite.client.signup()
    const invitee = await suite.client.signup()
    const invited = await call('POST', `${ORG}/${owner.organisation._id}/invitations`, {
      cookie: owner.cookie,
      body: { email: invitee.email, role: 'admin' },
    })
    expect(invited.status, JSON.stringify(invited.body)).toBe(201)
    const mail = await smtp.waitFor(invitee.email, /invited/)
    expect(mail.text).toContain('as admin')
    const accepted = await call('POST', `${ORG}/invitations/accept`, {
      cookie: invitee.cookie,
      body: { token: tokenOf(linkIn(mail, '/invitations/accept')) },
    })
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
    expect(accepted.body).toMatchObject({ organisation: { role: 'admin' } })

    const confirm = { email: owner.email, password: PASSWORD }
    const refused = await call('DELETE', `${USERS}/account`, {
      cookie: owner.cookie,
      body: confirm,
    })
    expectError(refused, 409, 'last_owner')
    expect(refused.body).toMatchObject({ organisations: [{ _id: owner.organisation._id }] })
    expectError(
      await call('DELETE', `${USERS}/account`, {
        cookie: owner.cookie,
        body: { email: 'someone@else.example', password: PASSWORD },
      }),
      400,
      'confirmation_mismatch',
    )
    // The invitee (not an owner) may go; their own one-person organisation goes with them.
    const gone = await call('DELETE', `${USERS}/account`, {
      cookie: invitee.cookie,
      body: { email: invitee.email, password: PASSWORD },
    })
    expect(gone.status, JSON.stringify(gone.body)).toBe(204)
    expect((await login(invitee.email, PASSWORD)).status).toBe(401)
    // Now the owner is alone in the organisation: it is deleted with the account.
    const deleted = await call('DELETE', `${USERS}/account`, {
      cookie: owner.cookie,
      body: confirm,
    })
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204)
    expect(deleted.setCookie).toContain('Max-Age=0')
    expect(
      await suite.server.services.context.repo.findOrganisationById(owner.organisation._id),
    ).toBe(undefined)
  })

  it('keeps the outbox closed to everyone but operators', async () => {
    const account = await suite.client.signup()
    expectError(
      await call('GET', `${USERS}/mail/outbox`, { cookie: account.cookie }),
      403,
      'not_operator',
    )
    expectError(await call('GET', `${USERS}/mail/outbox`), 401, 'unauthenticated')
  })
})

describe.each<TestDatabaseKind>(testDatabases('server'))('the development outbox on %s', (kind) => {
  const operator = `operator.${Date.now().toString(36)}@example.com`

  const suite = useTestServer(kind, { OPERATOR_EMAILS: operator, MAIL_OUTBOX_KEEP: '3' })

  it('keeps mail in the database without SMTP, the newest few, for operators to read', async () => {
    const op = await suite.client.signup({ email: operator })
    let outbox: { mode: string; items: { to: string; subject: string; text: string }[] } = {
      mode: '',
      items: [],
    }
    // Sign-up mail is sent after the answer: wait until each one is kept before the next sign-up,
    // so the outbox's order is the order of the sign-ups whatever the machine's load.
    const waitKept = async (email: string) => {
      for (let i = 0; i < 50; i++) {
        const answer = await suite.call('GET', `${USERS}/mail/outbox`, { cookie: op.cookie })
        expect(answer.status).toBe(200)
        outbox = answer.body as typeof outbox
        if (outbox.items.some((m) => m.to === email)) return
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    await waitKept(operator)
    const people = []
    for (let i = 0; i < 3; i++) {
      const person = await suite.client.signup()
      people.push(person)
      await waitKept(person.email)
    }
    expect(outbox.mode).toBe('outbox')
    expect(outbox.items.map((m) => m.to)).toEqual(people.map((p) => p.email).reverse())
    expect(outbox.items[0]?.text).toContain('/console/auth/verify-email?token=')
  })
})

describe.each<TestDatabaseKind>(testDatabases('server'))(
  'an SMTP server that is down on %s',
  (kind) => {
    const suite = useTestServer(kind, { SMTP_URL: 'smtp://127.0.0.1:1' })

    it('still signs up, invites and answers reset requests; the process stays up', async () => {
      const account = await suite.client.signup()
      const forgot = await suite.call('POST', `${USERS}/auth/password/forgot`, {
        body: { email: account.email },
      })
      expect(forgot.status).toBe(202)
      const invited = await suite.call('POST', `${ORG}/${account.organisation._id}/invitations`, {
        cookie: account.cookie,
        body: { email: 'someone@example.com', role: 'viewer' },
      })
      expect(invited.status, JSON.stringify(invited.body)).toBe(201)
      // The link is still in the answer, for the inviter to pass on.
      expect(invited.body).toMatchObject({ role: 'viewer' })
      expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
    })
  },
)
