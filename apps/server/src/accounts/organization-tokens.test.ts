import { describe, expect, it } from 'vitest'
import { expectError, expectOrganisationHidden } from '../test-client.ts'
import { describeEachDatabase, useTestServer } from '../test-suite.ts'
import { HOSTILE, ORG } from './organization-api-suite.ts'

describeEachDatabase('server', 'organisations on %s', useTestServer, (suite) => {
  const { call } = suite

  describe('API tokens', () => {
    it('shows a token once, lists it by prefix, and stores only its hash', async () => {
      const owner = await suite.client.signup()
      const created = await suite.client.createToken(owner, 'ci')
      expect(created.token).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/)
      const list = await call('GET', `${ORG}/${owner.organisation._id}/tokens`, {
        cookie: owner.cookie,
      })
      const tokens = list.body as Record<string, unknown>[]
      expect(tokens).toHaveLength(1)
      expect(tokens[0]).toMatchObject({
        _id: created._id,
        name: 'ci',
        prefix: created.token.slice(0, 10),
      })
      expect(JSON.stringify(tokens)).not.toContain(created.token)
      const rows = await suite.server.services.context.database.db.execute(
        'select token_hash from api_tokens',
      )
      expect(JSON.stringify(rows)).not.toContain(created.token)
    })

    it('acts for its own organisation without a session or signature, in raw or base64 form', async () => {
      const owner = await suite.client.signup()
      const { token } = await suite.client.createToken(owner)
      for (const form of [token, Buffer.from(token).toString('base64')]) {
        const answer = await call('GET', `${ORG}/${owner.organisation._id}`, {
          token: form,
          sign: false,
        })
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
        expect(answer.body).toMatchObject({ role: 'token' })
      }
      // Tokens cannot manage people or tokens.
      expectError(
        await call('GET', `${ORG}/${owner.organisation._id}/members`, { token, sign: false }),
        403,
        'forbidden',
      )
      expectError(
        await call('POST', `${ORG}/${owner.organisation._id}/tokens`, {
          token,
          sign: false,
          body: { name: 'x' },
        }),
        403,
        'forbidden',
      )
    })

    it('stops working at once when revoked', async () => {
      const owner = await suite.client.signup()
      const { token, _id } = await suite.client.createToken(owner)
      const path = `${ORG}/${owner.organisation._id}/tokens/${_id}`
      expect((await call('DELETE', path, { cookie: owner.cookie })).status).toBe(204)
      expectError(await call('DELETE', path, { cookie: owner.cookie }), 404, 'token_not_found')
      expectError(
        await call('GET', `${ORG}/${owner.organisation._id}`, { token, sign: false }),
        401,
        'invalid_token',
      )
    })

    it('refuses malformed tokens and token names', async () => {
      const owner = await suite.client.signup()
      for (const header of ['Bearer nope', 'Bearer tsk_short', 'Basic abc', 'Bearer']) {
        expectError(
          await call('GET', `${ORG}/${owner.organisation._id}`, {
            headers: { authorization: header },
          }),
          401,
          'invalid_token',
        )
      }
      for (const name of ['', '   ', 'x'.repeat(101), 'tab\there', 42]) {
        expectError(
          await call('POST', `${ORG}/${owner.organisation._id}/tokens`, {
            cookie: owner.cookie,
            body: { name },
          }),
          400,
          'invalid_body',
        )
      }
      for (const name of HOSTILE) {
        const answer = await call('POST', `${ORG}/${owner.organisation._id}/tokens`, {
          cookie: owner.cookie,
          body: { name },
        })
        expect(answer.status).toBe(201)
        expect((answer.body as { name: string }).name).toBe(name)
      }
    })
  })

  describe('hostile bodies', () => {
    it('answers malformed, oversized and mistyped JSON with clear 4xx and changes nothing', async () => {
      const owner = await suite.client.signup()
      const org = `${ORG}/${owner.organisation._id}`
      for (const path of [org, `${org}/tokens`, `${org}/invitations`]) {
        const method = path === org ? 'PATCH' : 'POST'
        expectError(
          await call(method, path, { cookie: owner.cookie, raw: '{"name":' }),
          400,
          'invalid_json',
        )
        expectError(
          await call(method, path, { cookie: owner.cookie, raw: '[1,2]' }),
          400,
          'invalid_body',
        )
        expectError(
          await call(method, path, {
            cookie: owner.cookie,
            raw: JSON.stringify({ name: 'x'.repeat(70_000) }),
          }),
          413,
          'too_large',
        )
        expectError(
          await call(method, path, {
            cookie: owner.cookie,
            raw: '{}',
            headers: { 'content-type': 'text/plain' },
          }),
          415,
          'unsupported_media_type',
        )
      }
      for (const email of HOSTILE) {
        expectError(
          await call('POST', `${org}/invitations`, { cookie: owner.cookie, body: { email } }),
          400,
          'invalid_body',
        )
      }
      const after = await call('GET', org, { cookie: owner.cookie })
      expect(after.body).toMatchObject({ name: "Ada's organisation" })
      expect((await call('GET', `${org}/tokens`, { cookie: owner.cookie })).body).toEqual([])
      expect((await call('GET', `${org}/invitations`, { cookie: owner.cookie })).body).toEqual([])
      expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
    })
  })

  describe('another organisation', () => {
    it('cannot read or change anything of it, by session or by token', async () => {
      const victim = await suite.client.signup()
      const attacker = await suite.client.signup()
      const { token: attackerToken } = await suite.client.createToken(attacker)
      const { _id: victimTokenId } = await suite.client.createToken(victim)
      const invited = await call('POST', `${ORG}/${victim.organisation._id}/invitations`, {
        cookie: victim.cookie,
        body: { email: 'friend@example.com' },
      })
      const invitationId = (invited.body as { _id: string })._id
      const org = victim.organisation._id
      const calls = [
        ['GET', `${ORG}/${org}`, undefined],
        ['PATCH', `${ORG}/${org}`, { name: 'Owned' }],
        ['GET', `${ORG}/${org}/members`, undefined],
        ['PATCH', `${ORG}/${org}/members/${victim.user._id}`, { role: 'member' }],
        ['DELETE', `${ORG}/${org}/members/${victim.user._id}`, undefined],
        ['POST', `${ORG}/${org}/invitations`, { email: attacker.email }],
        ['GET', `${ORG}/${org}/invitations`, undefined],
        ['DELETE', `${ORG}/${org}/invitations/${invitationId}`, undefined],
        ['POST', `${ORG}/${org}/tokens`, { name: 'mine' }],
        ['GET', `${ORG}/${org}/tokens`, undefined],
        ['DELETE', `${ORG}/${org}/tokens/${victimTokenId}`, undefined],
      ] as const
      await expectOrganisationHidden(call, calls, [
        { cookie: attacker.cookie },
        { token: attackerToken, sign: false },
      ])
      // Nothing changed.
      const after = await call('GET', `${ORG}/${org}`, { cookie: victim.cookie })
      expect(after.body).toMatchObject({ name: expect.not.stringMatching('Owned') })
      const tokens = await call('GET', `${ORG}/${org}/tokens`, { cookie: victim.cookie })
      expect((tokens.body as { _id: string }[]).map((t) => t._id)).toEqual([victimTokenId])
      const open = await call('GET', `${ORG}/${org}/invitations`, { cookie: victim.cookie })
      expect((open.body as { _id: string }[]).map((i) => i._id)).toEqual([invitationId])
      const members = await call('GET', `${ORG}/${org}/members`, { cookie: victim.cookie })
      expect((members.body as unknown[]).length).toBe(1)
    })
  })
})
