// The session cache (decision 011): sessions are remembered for an hour in these tests, so only
// the forgetting — in the process itself (PGlite) and through the change feed between two
// processes on one PostgreSQL database — can make a logout, a replaced session, a changed user or
// a removed membership show at once.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions, users } from '../db/schema.ts'
import { createTestClient, expectError } from '../test-client.ts'
import { type ServerPair, startServerPair, type TestServer } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { createSessionCache, type LiveSession } from './session-cache.ts'

const USERS = '/service/panel/users/v1.0'
const ORG = '/service/panel/organization/v1.0'
const REMEMBER = { LOOKUP_TTL_MS: '3600000' }

/** The session check as the website's pages make it: 200 with the user, or 401. */
async function sessionStatus(server: TestServer, cookie: string): Promise<number> {
  return (await createTestClient(server).call('GET', `${USERS}/session`, { cookie })).status
}

/** The first name the session check answers with, or its status when it is not 200. */
async function sessionName(server: TestServer, cookie: string): Promise<string | number> {
  const answer = await createTestClient(server).call('GET', `${USERS}/session`, { cookie })
  if (answer.status !== 200) return answer.status
  return (answer.body as { session: { passport: { user: { firstName: string } } } }).session
    .passport.user.firstName
}

/**
 * Two users signed in, both sessions remembered by every server; then, behind the caches' backs,
 * the other user's session row is deleted and the changed user's first name edited. A profile
 * change of the changed user through the first server must make every server read that user
 * again (the edited name shows) while the other user's session stays remembered (still accepted
 * though its row is gone): a change to one user forgets that user's sessions only.
 */
async function expectOnlyTheChangedUserForgotten(servers: [TestServer, ...TestServer[]]) {
  const client = createTestClient(servers[0])
  const changed = await client.signup({ firstName: 'Ada' })
  const other = await client.signup({ firstName: 'Grace' })
  for (const server of servers) {
    expect(await sessionName(server, changed.cookie)).toBe('Ada')
    expect(await sessionName(server, other.cookie)).toBe('Grace')
  }
  const { db } = servers[0].services.context.database
  await db.delete(sessions).where(eq(sessions.userId, other.user._id))
  await db.update(users).set({ firstName: 'Edited' }).where(eq(users.id, changed.user._id))
  for (const server of servers) {
    expect(await sessionName(server, changed.cookie)).toBe('Ada') // remembered
  }

  const meta = await client.call('PATCH', `${USERS}/profile/meta`, {
    cookie: changed.cookie,
    body: { theme: 'dark' },
  })
  expect(meta.status, JSON.stringify(meta.body)).toBe(200)
  for (const server of servers) {
    expect(await sessionName(server, changed.cookie)).toBe('Edited')
    expect(await sessionName(server, other.cookie)).toBe('Grace')
  }
}

describe('the session cache on its own', () => {
  const userOf = (id: string) => ({ id }) as LiveSession['user']
  const liveSession = (id: string, userId: string): LiveSession => ({
    session: {
      id,
      userId,
      expiresAt: new Date(Date.now() + 3_600_000),
      lastSeenAt: new Date(),
    } as LiveSession['session'],
    user: userOf(userId),
  })
  // Session id → its user; every database read is counted.
  const owners: Record<string, string> = { a1: 'a', a2: 'a', b1: 'b', c1: 'c' }
  const reads: string[] = []
  const repo = {
    findLiveSession: async (id: string) => {
      reads.push(id)
      const owner = owners[id]
      return owner === undefined ? undefined : liveSession(id, owner)
    },
  }

  it('forgets the sessions of the changed user only, and stays within maxEntries', async () => {
    const cache = createSessionCache(repo, { ttlMs: 3_600_000, maxEntries: 3 })
    for (const id of ['a1', 'a2', 'b1', 'a1', 'a2', 'b1']) await cache.find(id)
    expect(reads).toEqual(['a1', 'a2', 'b1'])

    await cache.forgetUser('a')
    for (const id of ['b1', 'a1', 'a2']) await cache.find(id)
    expect(reads).toEqual(['a1', 'a2', 'b1', 'a1', 'a2'])

    // A fourth session pushes out the least recently used (b1); forgetting b then forgets none of
    // the three kept.
    await cache.find('c1')
    await cache.forgetUser('b')
    for (const id of ['a1', 'a2', 'c1', 'b1']) await cache.find(id)
    expect(reads).toEqual(['a1', 'a2', 'b1', 'a1', 'a2', 'c1', 'b1'])
  })
})

describe('the session cache on PGlite (one process)', () => {
  const suite = useTestServer('pglite', REMEMBER)

  it('forgets a session at once when it logs out', async () => {
    const client = createTestClient(suite.server)
    const { cookie } = await client.signup()
    expect(await sessionStatus(suite.server, cookie)).toBe(200)
    expect(await sessionStatus(suite.server, cookie)).toBe(200) // now remembered
    expect((await client.call('POST', `${USERS}/auth/logout`, { cookie })).status).toBe(204)
    expectError(await client.call('GET', `${USERS}/session`, { cookie }), 401, 'unauthenticated')
  })

  it('forgets the session a login replaces', async () => {
    const client = createTestClient(suite.server)
    const { cookie, email } = await client.signup()
    expect(await sessionStatus(suite.server, cookie)).toBe(200)
    const login = await client.call('POST', `${USERS}/auth/login`, {
      cookie,
      body: { email, password: 'correct horse battery' },
    })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
    expect(await sessionStatus(suite.server, cookie)).toBe(401)
    expect(await sessionStatus(suite.server, login.cookie ?? '')).toBe(200)
  })

  it('forgets the sessions of a changed user and keeps the other users’', async () => {
    await expectOnlyTheChangedUserForgotten([suite.server])
  })
})

describe('the session cache across two processes on one PostgreSQL', () => {
  let pair: ServerPair
  let first: TestServer
  let second: TestServer

  beforeAll(async () => {
    pair = await startServerPair(REMEMBER)
    ;({ first, second } = pair)
  }, 60_000)
  afterAll(async () => {
    await pair?.stop()
  })

  it('refuses a session logged out through the other process at once', async () => {
    const client = createTestClient(first)
    const { cookie } = await client.signup()
    for (const server of [first, second, second])
      expect(await sessionStatus(server, cookie)).toBe(200)
    expect((await client.call('POST', `${USERS}/auth/logout`, { cookie })).status).toBe(204)
    expect(await sessionStatus(second, cookie)).toBe(401)
    expect(await sessionStatus(first, cookie)).toBe(401)
  })

  it('refuses a session replaced by a login through the other process at once', async () => {
    const { cookie, email } = await createTestClient(first).signup()
    expect(await sessionStatus(second, cookie)).toBe(200)
    const login = await createTestClient(first).call('POST', `${USERS}/auth/login`, {
      cookie,
      body: { email, password: 'correct horse battery' },
    })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
    expect(await sessionStatus(second, cookie)).toBe(401)
    expect(await sessionStatus(second, login.cookie ?? '')).toBe(200)
  })

  it('forgets a user changed through one process in both, and keeps the other users’', async () => {
    await expectOnlyTheChangedUserForgotten([first, second])
  })

  it('shuts a member removed through one process out of the other at once', async () => {
    const client = createTestClient(first)
    const owner = await client.signup()
    const { member } = await client.join(owner, { role: 'member' })
    const orgId = owner.organisation._id
    const other = createTestClient(second)
    const members = () => other.call('GET', `${ORG}/${orgId}/members`, { cookie: member.cookie })
    expect((await members()).status).toBe(200)
    const removed = await client.call('DELETE', `${ORG}/${orgId}/members/${member.user._id}`, {
      cookie: owner.cookie,
    })
    expect(removed.status, JSON.stringify(removed.body)).toBe(204)
    expectError(await members(), 404, 'organisation_not_found')
    // Still signed in: only the membership ended.
    expect(await sessionStatus(second, member.cookie)).toBe(200)
  })
})
