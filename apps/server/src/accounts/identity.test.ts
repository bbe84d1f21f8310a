// Identity through the real server, on PGlite and PostgreSQL: sign-up, login (rotation and
// throttling), logout, the session check, profile meta and organisations, and hostile input.
import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient } from '../test-client.ts'
import {
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'
import { cloudNameFor, LOGIN_LIMITS, passwordProblem } from './identity.ts'
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts'

type TestClient = ReturnType<typeof createTestClient>

const USERS = '/service/panel/users/v1.0'
const ORGS = '/service/panel/organization/v1.0/all'
const PASSWORD = 'correct horse battery'

const HOSTILE = [
  "' OR '1'='1",
  "x'; drop table users; --",
  '" OR ""="',
  '1) OR (1=1',
  '%',
  '$1',
  '<script>alert(1)</script>',
]

interface ApiError {
  code: string
  message: string
}

/**
 * A login sent from another loopback address (127.0.0.0/8 is all this machine), so the server
 * sees a different client, as it would another user's computer. Answers the status.
 */
function loginFrom(base: string, localAddress: string, email: string, password: string) {
  const body = JSON.stringify({ email, password })
  return new Promise<number>((resolve, reject) => {
    const req = request(
      `${base}${USERS}/auth/login`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

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

describe.each<TestDatabaseKind>(testDatabases('server'))('identity on %s', (kind) => {
  let server: TestServer
  let seq = 0
  const uniqueEmail = () => `user${++seq}.${kind}@example.com`

  beforeAll(async () => {
    server = await startTestServer(kind)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const call: TestClient['call'] = (method, path, options) =>
    createTestClient(server).call(method, path, options)

  async function signup(overrides: Record<string, unknown> = {}) {
    const body = {
      email: uniqueEmail(),
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
      ...overrides,
    }
    const answer = await call('POST', `${USERS}/auth/signup`, { body })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return {
      ...answer,
      email: String(body.email).trim().toLowerCase(),
      cookie: answer.cookie ?? '',
    }
  }

  async function expectError(
    answer: { status: number; body: unknown; response: Response },
    status: number,
    code: string,
    mentions?: string,
  ) {
    expect(answer.status).toBe(status)
    const body = answer.body as ApiError
    expect(body.code).toBe(code)
    expect(typeof body.message).toBe('string')
    expect(body.message).not.toMatch(/at .*\.ts:\d+/)
    if (mentions !== undefined) expect(body.message).toContain(mentions)
    expect(answer.response.headers.get('content-type')).toContain('application/json')
  }

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
      const repo = server.services.context.repo
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
        expect(await loginFrom(server.url, '127.0.0.11', email, `wrong ${i} password`)).toBe(401)
      }
      expect(await loginFrom(server.url, '127.0.0.11', email, PASSWORD)).toBe(429)
      expect(await loginFrom(server.url, '127.0.0.12', email, PASSWORD)).toBe(200)
      // The owner's sign-in does not forgive the attacker's address.
      expect(await loginFrom(server.url, '127.0.0.11', email, PASSWORD)).toBe(429)
    })

    it('allows one failure per address once an account is under a distributed attack', async () => {
      const { email } = await signup()
      const attackers = Math.ceil(LOGIN_LIMITS.perAccount / LOGIN_LIMITS.perAccountAndAddress)
      for (let a = 0; a < attackers; a++) {
        for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) {
          expect(await loginFrom(server.url, `127.0.1.${a + 1}`, email, `wrong ${i}`)).toBe(401)
        }
      }
      // A new address gets one guess, then is refused; the owner's fresh address still gets in.
      expect(await loginFrom(server.url, '127.0.2.1', email, 'one more guess')).toBe(401)
      expect(await loginFrom(server.url, '127.0.2.1', email, 'and another')).toBe(429)
      expect(await loginFrom(server.url, '127.0.2.2', email, PASSWORD)).toBe(200)
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
      const repo = server.services.context.repo
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
