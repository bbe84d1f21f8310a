// The session cache (decision 011): sessions are remembered for an hour in these tests, so only
// the forgetting — in the process itself (PGlite) and through the change feed between two
// processes on one PostgreSQL database — can make a logout, a replaced session or a removed
// membership show at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, expectError } from '../test-client.ts'
import {
  type ServerPair,
  startServerPair,
  startTestServer,
  type TestServer,
} from '../test-server.ts'

const USERS = '/service/panel/users/v1.0'
const ORG = '/service/panel/organization/v1.0'
const REMEMBER = { LOOKUP_TTL_MS: '3600000' }

/** The session check as the website's pages make it: 200 with the user, or 401. */
async function sessionStatus(server: TestServer, cookie: string): Promise<number> {
  return (await createTestClient(server).call('GET', `${USERS}/session`, { cookie })).status
}

describe('the session cache on PGlite (one process)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer('pglite', REMEMBER)
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('forgets a session at once when it logs out', async () => {
    const client = createTestClient(server)
    const { cookie } = await client.signup()
    expect(await sessionStatus(server, cookie)).toBe(200)
    expect(await sessionStatus(server, cookie)).toBe(200) // now remembered
    expect((await client.call('POST', `${USERS}/auth/logout`, { cookie })).status).toBe(204)
    expectError(await client.call('GET', `${USERS}/session`, { cookie }), 401, 'unauthenticated')
  })

  it('forgets the session a login replaces', async () => {
    const client = createTestClient(server)
    const { cookie, email } = await client.signup()
    expect(await sessionStatus(server, cookie)).toBe(200)
    const login = await client.call('POST', `${USERS}/auth/login`, {
      cookie,
      body: { email, password: 'correct horse battery' },
    })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
    expect(await sessionStatus(server, cookie)).toBe(401)
    expect(await sessionStatus(server, login.cookie ?? '')).toBe(200)
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

  it('shuts a member removed through one process out of the other at once', async () => {
    const client = createTestClient(first)
    const owner = await client.signup()
    const member = await client.signup()
    const orgId = owner.organisation._id
    const invited = await client.call('POST', `${ORG}/${orgId}/invitations`, {
      cookie: owner.cookie,
      body: { email: member.email, role: 'member' },
    })
    expect(invited.status, JSON.stringify(invited.body)).toBe(201)
    const { token } = invited.body as { token: string }
    const accepted = await client.call('POST', `${ORG}/invitations/accept`, {
      cookie: member.cookie,
      body: { token },
    })
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
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
