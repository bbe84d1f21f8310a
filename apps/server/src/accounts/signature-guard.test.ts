// The panel's request-signature rule against a real server, on PGlite and PostgreSQL: a change
// made with a session cookie needs a signature unless the call carries a live API token; any
// other Authorization header (garbage, a token-shaped string nobody issued, a revoked token)
// lifts nothing.
import { expect, it } from 'vitest'
import { expectError } from '../test-client.ts'
import { describeEachDatabase, useTestServer } from '../test-suite.ts'

const ORG = '/service/panel/organization/v1.0'
const USERS = '/service/panel/users/v1.0'
const UNISSUED = `tsk_${'A'.repeat(43)}`

describeEachDatabase('server', 'signature guard on %s', useTestServer, (suite) => {
  const unsigned = (cookie: string, authorization: string) => ({
    cookie,
    sign: false,
    headers: { authorization },
  })

  it('still demands a signature when the Authorization header holds no live token', async () => {
    const owner = await suite.client.signup()
    const created = await suite.client.call('POST', `${ORG}/${owner.organisation._id}/tokens`, {
      cookie: owner.cookie,
      body: { name: 'soon revoked' },
    })
    expect(created.status).toBe(201)
    const revoked = created.body as { token: string; _id: string }
    const gone = await suite.client.call(
      'DELETE',
      `${ORG}/${owner.organisation._id}/tokens/${revoked._id}`,
      { cookie: owner.cookie },
    )
    expect(gone.status).toBeLessThan(300)

    for (const authorization of [
      'Basic Zm9vOmJhcg==',
      'Bearer nonsense',
      `Bearer ${UNISSUED}`,
      `Bearer ${revoked.token}`,
    ]) {
      const meta = await suite.client.call('PATCH', `${USERS}/profile/meta`, {
        ...unsigned(owner.cookie, authorization),
        body: { theme: 'dark' },
      })
      expectError(meta, 400, 'signature_missing')
      const accept = await suite.client.call('POST', `${ORG}/invitations/accept`, {
        ...unsigned(owner.cookie, authorization),
        body: { token: 'x'.repeat(43) },
      })
      expectError(accept, 400, 'signature_missing')
      const logout = await suite.client.call('POST', `${USERS}/auth/logout`, {
        ...unsigned(owner.cookie, authorization),
      })
      expectError(logout, 400, 'signature_missing')
    }
    // The session survived every attempt.
    const session = await suite.client.call('GET', `${USERS}/session`, { cookie: owner.cookie })
    expect(session.status).toBe(200)
  })

  it('lets a live API token make the call unsigned', async () => {
    const owner = await suite.client.signup()
    const created = await suite.client.call('POST', `${ORG}/${owner.organisation._id}/tokens`, {
      cookie: owner.cookie,
      body: { name: 'live' },
    })
    const { token } = created.body as { token: string }
    const answer = await suite.client.call('POST', `${USERS}/auth/logout`, {
      ...unsigned(owner.cookie, `Bearer ${token}`),
    })
    expect(answer.status).toBe(204)
  })
})
