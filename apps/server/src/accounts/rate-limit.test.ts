// Limits hold across server processes: two servers on one PostgreSQL database share the
// failed-login and sign-up counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createThrowawayDatabase } from '../db/test-database.ts'
import { type ApiError, createTestClient } from '../test-client.ts'
import { startTestServer, type TestServer } from '../test-server.ts'
import { LOGIN_LIMITS } from './identity.ts'

const USERS = '/service/panel/users/v1.0'

describe('rate limits shared by two processes on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>>
  let first: TestServer
  let second: TestServer
  let knownEmail = ''

  beforeAll(async () => {
    database = await createThrowawayDatabase()
    const env = { DATABASE_URL: database.url, SIGNUP_LIMIT_PER_HOUR: '3' }
    first = await startTestServer('pglite', env)
    second = await startTestServer('pglite', env)
  })
  afterAll(async () => {
    await first?.stop()
    await second?.stop()
    await database?.drop()
  })

  it('counts failed logins on an account whichever process answered them', async () => {
    const a = createTestClient(first)
    const b = createTestClient(second)
    const { email } = await a.signup()
    knownEmail = email
    for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) {
      const client = i % 2 === 0 ? a : b
      const answer = await client.call('POST', `${USERS}/auth/login`, {
        body: { email, password: `wrong password ${i}` },
      })
      expect(answer.status).toBe(401)
    }
    for (const client of [a, b]) {
      const blocked = await client.call('POST', `${USERS}/auth/login`, {
        body: { email, password: 'correct horse battery' },
      })
      expect(blocked.status).toBe(429)
      expect((blocked.body as ApiError).code).toBe('too_many_attempts')
      expect(Number(blocked.response.headers.get('retry-after'))).toBeGreaterThan(0)
    }
  })

  it('limits sign-ups per address per hour across processes, with a clear 429', async () => {
    const a = createTestClient(first)
    const b = createTestClient(second)
    // The first test signed up once; two more reach the limit of three.
    await b.signup()
    await a.signup()
    const refused = await b.call('POST', `${USERS}/auth/signup`, {
      body: {
        email: 'one.too.many@example.com',
        password: 'correct horse battery',
        firstName: 'Late',
        lastName: 'Comer',
      },
    })
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ code: 'too_many_signups' })
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(3000)
    // Nothing was created: the email is still free once the window allows.
    const repo = first.services.context.repo
    expect(await repo.findUserByEmail('one.too.many@example.com')).toBeUndefined()
  })

  it('forgets expired sessions, old attempts and used signatures in housekeeping', async () => {
    const repo = first.services.context.repo
    // (Sign-ups are used up by now: reuse the first test's user.)
    const user = await repo.findUserByEmail(knownEmail)
    const expired = 'e'.repeat(64)
    await repo.createSession(expired, user?.id ?? '', new Date(Date.now() - 1000))
    await repo.recordRateEvent('login:account:old@example.com')
    await repo.recordRateEvent('playground:ai:address:kept')
    await repo.useSignature('f'.repeat(64), new Date(Date.now() - 1000))
    await repo.useSignature('a'.repeat(64), new Date(Date.now() + 60_000))
    const db = first.services.context.database.db
    await db.execute(
      "update rate_limit_events set at = now() - interval '25 hours' where key = 'login:account:old@example.com'",
    )
    // Visitor AI runs count over a day, so events are kept that long (RATE_EVENT_RETENTION_MS).
    await db.execute(
      "update rate_limit_events set at = now() - interval '2 hours' where key = 'playground:ai:address:kept'",
    )
    const removed = await second.housekeeping.runOnce()
    expect(removed.sessions).toBeGreaterThanOrEqual(1)
    expect(removed.events).toBeGreaterThanOrEqual(1)
    expect(removed.signatures).toBeGreaterThanOrEqual(1)
    expect(await repo.findLiveSession(expired)).toBeUndefined()
    expect(
      (await repo.countRateEvents('login:account:old@example.com', 30 * 60 * 60_000)).count,
    ).toBe(0)
    expect((await repo.countRateEvents('playground:ai:address:kept', 24 * 60 * 60_000)).count).toBe(
      1,
    )
    // A signature still inside its window is kept: using it again is a replay.
    expect(await repo.useSignature('a'.repeat(64), new Date(Date.now() + 60_000))).toBe(false)
    expect(await repo.useSignature('f'.repeat(64), new Date(Date.now() + 60_000))).toBe(true)
  })
})
