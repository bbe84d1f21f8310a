// Login, logout, the session check, profile meta and the user's organisations through the real
// server.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../test-suite.ts'
import { LOGIN_LIMITS } from './identity.ts'
import {
  type ApiError,
  loginFrom,
  ORGS,
  PASSWORD,
  USERS,
  useIdentitySuite,
} from './identity-suite.ts'

describeEachDatabase('server', 'identity on %s', useIdentitySuite, (t, kind) => {
  const { call, signup, expectError } = t

  describe('login and logout', () => {
    it('logs in with a new session (rotation) and keeps others apart', async () => {
      const { email, cookie: first } = await signup()
      const login = await call('POST', `${USERS}/auth/login`, {
        body: { email: ` ${email.toUpperCase()} `, password: PASSWORD },
        cookie: first,
      })
      expect(login.status).toBe(200)
      expect((login.body as { user: { email: string } }).user.email).toBe(email)
      expect(login.cookie).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(login.cookie).not.toBe(first)
      // The session the request carried was ended.
      await expectError(
        await call('GET', `${USERS}/session`, { cookie: first }),
        401,
        'unauthenticated',
      )
      expect((await call('GET', `${USERS}/session`, { cookie: login.cookie ?? '' })).status).toBe(
        200,
      )
    })

    it('answers the same 401 for a wrong password and an unknown email', async () => {
      const { email } = await signup()
      const wrong = await call('POST', `${USERS}/auth/login`, {
        body: { email, password: 'wrong password!' },
      })
      const unknown = await call('POST', `${USERS}/auth/login`, {
        body: { email: `nobody.${email}`, password: PASSWORD },
      })
      await expectError(wrong, 401, 'invalid_credentials')
      await expectError(unknown, 401, 'invalid_credentials')
      expect((wrong.body as ApiError).message).toBe((unknown.body as ApiError).message)
      expect(wrong.setCookie).toBe('')
    })

    it('refuses bad login input', async () => {
      const path = `${USERS}/auth/login`
      await expectError(await call('POST', path, { raw: '{' }), 400, 'invalid_json')
      await expectError(await call('POST', path, { body: {} }), 400, 'invalid_body', 'email')
      await expectError(
        await call('POST', path, { body: { email: 'a@b.co' } }),
        400,
        'invalid_body',
        'password',
      )
      await expectError(
        await call('POST', path, { body: { email: 'a@b.co', password: 5 } }),
        400,
        'invalid_body',
        'password',
      )
    })

    it('logs out: 204, the session ends and the cookie is cleared', async () => {
      const { cookie } = await signup()
      const out = await call('POST', `${USERS}/auth/logout`, { cookie })
      expect(out.status).toBe(204)
      expect(out.setCookie).toContain('bg.session=;')
      expect(out.setCookie).toContain('Max-Age=0')
      // Replaying the cookie after logout gets nothing.
      await expectError(await call('GET', `${USERS}/session`, { cookie }), 401, 'unauthenticated')
      await expectError(await call('GET', ORGS, { cookie }), 401, 'unauthenticated')
      expect((await call('POST', `${USERS}/auth/logout`)).status).toBe(204)
    })

    it('throttles repeated failures on an account with 429 and Retry-After', async () => {
      const { email } = await signup()
      for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) {
        const answer = await call('POST', `${USERS}/auth/login`, {
          body: { email, password: `wrong ${i} password` },
        })
        expect(answer.status).toBe(401)
      }
      // From the failing address, even the right password is refused until the window passes.
      const blocked = await call('POST', `${USERS}/auth/login`, {
        body: { email, password: PASSWORD },
      })
      await expectError(blocked, 429, 'too_many_attempts')
      const retryAfter = Number(blocked.response.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    })

    it('lets the owner in from an address that has not been failing (no lockout)', async () => {
      const { email } = await signup()
      for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) {
        expect(await loginFrom(t.server.url, '127.0.0.11', email, `wrong ${i} password`)).toBe(401)
      }
      expect(await loginFrom(t.server.url, '127.0.0.11', email, PASSWORD)).toBe(429)
      expect(await loginFrom(t.server.url, '127.0.0.12', email, PASSWORD)).toBe(200)
      // The owner's sign-in does not forgive the attacker's address.
      expect(await loginFrom(t.server.url, '127.0.0.11', email, PASSWORD)).toBe(429)
    })

    it('allows one failure per address once an account is under a distributed attack', async () => {
      const { email } = await signup()
      const attackers = Math.ceil(LOGIN_LIMITS.perAccount / LOGIN_LIMITS.perAccountAndAddress)
      for (let a = 0; a < attackers; a++) {
        for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) {
          expect(await loginFrom(t.server.url, `127.0.1.${a + 1}`, email, `wrong ${i}`)).toBe(401)
        }
      }
      // A new address gets one guess, then is refused; the owner's fresh address still gets in.
      expect(await loginFrom(t.server.url, '127.0.2.1', email, 'one more guess')).toBe(401)
      expect(await loginFrom(t.server.url, '127.0.2.1', email, 'and another')).toBe(429)
      expect(await loginFrom(t.server.url, '127.0.2.2', email, PASSWORD)).toBe(200)
      // About twenty argon2 checks one after another: on a busy 2-core machine that takes more
      // than the file's limit, which guards against hangs, not slowness.
    }, 120_000)
  })

  describe('session check', () => {
    it('answers 401 unauthenticated without a valid session', async () => {
      const path = `${USERS}/session`
      await expectError(await call('GET', path), 401, 'unauthenticated')
      for (const forged of ['x', 'A'.repeat(43), "' OR '1'='1", `${'A'.repeat(42)}%00`]) {
        const answer = await call('GET', path, { cookie: forged })
        await expectError(answer, 401, 'unauthenticated')
        expect(answer.setCookie).toContain('Max-Age=0')
      }
    })

    it('refuses an expired session', async () => {
      const { cookie, email } = await signup()
      const repo = t.server.services.context.repo
      const user = await repo.findUserByEmail(email)
      const token = 'B'.repeat(43)
      await repo.createSession(
        createHash('sha256').update(token).digest('hex'),
        user?.id ?? '',
        new Date(Date.now() - 1000),
      )
      await expectError(
        await call('GET', `${USERS}/session`, { cookie: token }),
        401,
        'unauthenticated',
      )
      expect((await call('GET', `${USERS}/session`, { cookie })).status).toBe(200)
    })
  })

  describe('profile meta', () => {
    it('stores a JSON object and answers it', async () => {
      const { cookie } = await signup()
      const meta = {
        theme: 'dark',
        nested: { list: [1, 'two', null] },
        sql: "'; drop table users; --",
      }
      const answer = await call('PATCH', `${USERS}/profile/meta`, { cookie, body: meta })
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ meta })
    })

    it('refuses without a session, non-objects, oversized and unstorable meta', async () => {
      const path = `${USERS}/profile/meta`
      await expectError(await call('PATCH', path, { body: { a: 1 } }), 401, 'unauthenticated')
      const { cookie } = await signup()
      for (const body of [[1], 'text', 5, null]) {
        await expectError(await call('PATCH', path, { cookie, body }), 400, 'invalid_body')
      }
      await expectError(await call('PATCH', path, { cookie, raw: '{"a":' }), 400, 'invalid_json')
      await expectError(
        await call('PATCH', path, { cookie, body: { big: 'x'.repeat(17 * 1024) } }),
        413,
        'too_large',
      )
      await expectError(
        await call('PATCH', path, { cookie, body: { big: 'x'.repeat(70 * 1024) } }),
        413,
        'too_large',
      )
      await expectError(
        await call('PATCH', path, { cookie, body: { nul: 'a\u0000b' } }),
        400,
        'invalid_body',
      )
      await expectError(
        await call('PATCH', path, { cookie, raw: '{"s":"\\ud800"}' }),
        400,
        'invalid_body',
      )
      await expectError(
        await call('PATCH', path, { cookie, raw: `${'{"a":'.repeat(100)}1${'}'.repeat(100)}` }),
        400,
        'invalid_body',
      )
    })
  })

  describe('organisations', () => {
    it('answers 401 without a session', async () => {
      await expectError(await call('GET', ORGS), 401, 'unauthenticated')
    })

    it('lists only the user’s own organisations', async () => {
      const a = await signup({ firstName: 'Alice' })
      const b = await signup({ firstName: 'Bob' })
      const listA = (await call('GET', ORGS, { cookie: a.cookie })).body as { _id: string }[]
      const listB = (await call('GET', ORGS, { cookie: b.cookie })).body as { _id: string }[]
      expect(listA).toHaveLength(1)
      expect(listB).toHaveLength(1)
      expect(listA[0]?._id).not.toBe(listB[0]?._id)
    })
  })

  // Last: it spends this address's failure budget.
  it('throttles repeated failures from one address across accounts', async () => {
    let status = 0
    for (let i = 0; i <= LOGIN_LIMITS.perAddress && status !== 429; i++) {
      status = (
        await call('POST', `${USERS}/auth/login`, {
          body: { email: `spray${i}.${kind}@example.com`, password: 'wrong password' },
        })
      ).status
    }
    expect(status).toBe(429)
  })
})
