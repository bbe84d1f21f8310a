// Passwords, and sign-up through the real server: the user, a session cookie and an owned
// organisation; refusals named by code.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../test-suite.ts'
import { cloudNameFor, passwordProblem } from './identity.ts'
import { HOSTILE, ORGS, PASSWORD, USERS, useIdentitySuite } from './identity-suite.ts'
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts'

describeEachDatabase('server', 'identity on %s', useIdentitySuite, (t) => {
  const { uniqueEmail, call, signup, expectError } = t

  describe('sign-up', () => {
    it('creates the user, a session cookie and an owned organisation', async () => {
      const { body, setCookie, cookie, email } = await signup({
        email: '  Mixed.Case@Example.COM ',
      })
      const user = (body as { user: Record<string, string> }).user
      expect(user).toMatchObject({
        email: 'mixed.case@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
      })
      expect(email).toBe('mixed.case@example.com')
      expect(user._id).toMatch(/^[0-9a-f-]{36}$/)
      expect(Number.isNaN(Date.parse(user.createdAt ?? ''))).toBe(false)
      expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(setCookie).toContain('HttpOnly')
      expect(setCookie).toContain('SameSite=Lax')
      expect(setCookie).toContain('Path=/')
      expect(setCookie).toContain(`Max-Age=${30 * 24 * 3600}`)
      expect(setCookie).not.toContain('Secure')

      const session = await call('GET', `${USERS}/session`, { cookie })
      expect(session.status).toBe(200)
      expect(session.body).toEqual({ session: { passport: { user } } })

      const orgs = await call('GET', ORGS, { cookie })
      expect(orgs.status).toBe(200)
      const list = orgs.body as { _id: string; name: string; cloudName: string; role: string }[]
      expect(list).toHaveLength(1)
      expect(list[0]).toMatchObject({ name: "Ada's organisation", role: 'owner' })
      expect(list[0]?.cloudName).toMatch(/^ada-[a-z0-9]{6}$/)
    })

    it('stores only the sha256 of the token', async () => {
      const { cookie } = await signup()
      const repo = t.server.services.context.repo
      const hashed = createHash('sha256').update(cookie).digest('hex')
      expect(await repo.findLiveSession(hashed)).toBeDefined()
      expect(await repo.findLiveSession(cookie)).toBeUndefined()
    })

    it('marks the cookie Secure behind HTTPS', async () => {
      const answer = await call('POST', `${USERS}/auth/signup`, {
        body: { email: uniqueEmail(), password: PASSWORD, firstName: 'Sec', lastName: 'Ure' },
        headers: { 'x-forwarded-proto': 'https' },
      })
      expect(answer.status).toBe(201)
      expect(answer.setCookie).toContain('Secure')
    })

    it('refuses a taken email, whatever its case', async () => {
      const { email } = await signup()
      const again = await call('POST', `${USERS}/auth/signup`, {
        body: { email: email.toUpperCase(), password: PASSWORD, firstName: 'B', lastName: 'C' },
      })
      await expectError(again, 409, 'email_taken')
    })

    it('refuses weak passwords with clear messages', async () => {
      const email = uniqueEmail()
      for (const [password, mention] of [
        ['short', 'at least 10'],
        ['a'.repeat(129), 'at most 128'],
        ['zzzzzzzzzzzz', 'repeated'],
        [email.toUpperCase(), 'email'],
      ] as const) {
        const answer = await call('POST', `${USERS}/auth/signup`, {
          body: { email, password, firstName: 'W', lastName: 'P' },
        })
        await expectError(answer, 400, 'weak_password', mention)
      }
    })

    it('refuses missing, empty, mistyped and malformed input', async () => {
      const good = { email: uniqueEmail(), password: PASSWORD, firstName: 'A', lastName: 'B' }
      const path = `${USERS}/auth/signup`
      for (const field of Object.keys(good)) {
        const { [field as keyof typeof good]: _, ...missing } = good
        await expectError(await call('POST', path, { body: missing }), 400, 'invalid_body', field)
        await expectError(
          await call('POST', path, {
            body: { ...good, [field]: field === 'password' ? '' : '   ' },
          }),
          400,
          'invalid_body',
          field,
        )
        for (const wrong of [42, null, true, ['x'], { a: 1 }]) {
          await expectError(
            await call('POST', path, { body: { ...good, [field]: wrong } }),
            400,
            'invalid_body',
            field,
          )
        }
      }
      await expectError(
        await call('POST', path, { body: { ...good, email: 'not-an-email' } }),
        400,
        'invalid_body',
        'email',
      )
      await expectError(
        await call('POST', path, { body: { ...good, firstName: 'a\u0000b' } }),
        400,
        'invalid_body',
        'firstName',
      )
      await expectError(await call('POST', path, { raw: '{"email":' }), 400, 'invalid_json')
      await expectError(await call('POST', path, { raw: '' }), 400, 'invalid_json')
      await expectError(await call('POST', path, { body: [good] }), 400, 'invalid_body')
      await expectError(await call('POST', path, { body: 'text' }), 400, 'invalid_body')
      await expectError(
        await call('POST', path, {
          raw: JSON.stringify(good),
          headers: { 'content-type': 'text/plain' },
        }),
        415,
        'unsupported_media_type',
      )
      await expectError(
        await call('POST', path, { body: { ...good, padding: 'x'.repeat(70 * 1024) } }),
        413,
        'too_large',
      )
    })

    it('keeps SQL-looking text in every field as data', async () => {
      for (const text of HOSTILE) {
        const password = `${text}-${PASSWORD}`
        const answer = await call('POST', `${USERS}/auth/signup`, {
          body: { email: uniqueEmail(), password, firstName: text, lastName: text },
        })
        expect(answer.status, text).toBe(201)
        const user = (
          answer.body as { user: { firstName: string; lastName: string; email: string } }
        ).user
        expect(user.firstName).toBe(text)
        expect(user.lastName).toBe(text)
        const login = await call('POST', `${USERS}/auth/login`, {
          body: { email: user.email, password },
        })
        expect(login.status, text).toBe(200)
        const asEmail = await call('POST', `${USERS}/auth/login`, {
          body: { email: text, password: text },
        })
        expect([400, 401], text).toContain(asEmail.status)
      }
      // The tables are still there and whole.
      const { cookie } = await signup()
      expect((await call('GET', `${USERS}/session`, { cookie })).status).toBe(200)
    })
  })
})

describe('passwords', () => {
  it('hashes with a salt and verifies', async () => {
    const a = await hashPassword(PASSWORD)
    const b = await hashPassword(PASSWORD)
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(a).not.toBe(b)
    expect(await verifyPassword(PASSWORD, a)).toBe(true)
    expect(await verifyPassword(`${PASSWORD}x`, a)).toBe(false)
    expect(await verifyPassword(PASSWORD, 'garbage')).toBe(false)
    expect(await verifyPassword(PASSWORD, '$argon2id$broken')).toBe(false)
    expect(await verifyPassword(PASSWORD, null)).toBe(false)
    expect(needsRehash(a)).toBe(false)
    expect(needsRehash('$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(true)
  })

  it('treats canonically equal passwords as the same password', async () => {
    const composed = `Caf\u00e9-${PASSWORD}`
    const decomposed = `Cafe\u0301-${PASSWORD}`
    expect(await verifyPassword(decomposed, await hashPassword(composed))).toBe(true)
  })

  it('states the password rules', () => {
    expect(passwordProblem('short', 'a@b.co')).toContain('at least 10')
    expect(passwordProblem('x'.repeat(129), 'a@b.co')).toContain('at most 128')
    expect(passwordProblem('aaaaaaaaaaaa', 'a@b.co')).toContain('repeated')
    expect(passwordProblem('Long.Email@Example.com', 'long.email@example.com')).toContain('email')
    expect(passwordProblem(PASSWORD, 'a@b.co')).toBeUndefined()
  })

  it('derives cloud names of [a-z0-9-]', () => {
    expect(cloudNameFor('Zoë Ann')).toMatch(/^zoe-ann-[a-z0-9]{6}$/)
    expect(cloudNameFor("'; drop")).toMatch(/^drop-[a-z0-9]{6}$/)
    expect(cloudNameFor('李')).toMatch(/^user-[a-z0-9]{6}$/)
  })
})
