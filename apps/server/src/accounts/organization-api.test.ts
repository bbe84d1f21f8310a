// Organisations, members, invitations, API tokens and panel request signatures through the real
// server, on PGlite and PostgreSQL — including every call made from another organisation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiError, createTestClient, expectError } from '../test-client.ts'
import {
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'

const ORG = '/service/panel/organization/v1.0'
const USERS = '/service/panel/users/v1.0'
const ABSENT = '00000000-0000-4000-8000-000000000000'
const HOSTILE = ["' OR '1'='1", "x'; drop table organisations; --", '<script>x</script>', '%', '$1']

describe.each<TestDatabaseKind>(testDatabases('server'))('organisations on %s', (kind) => {
  let server: TestServer
  let client: ReturnType<typeof createTestClient>

  beforeAll(async () => {
    server = await startTestServer(kind)
    client = createTestClient(server)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const call: ReturnType<typeof createTestClient>['call'] = (...args) => client.call(...args)

  describe('details', () => {
    it('answers the organisation with role, plan and credits', async () => {
      const owner = await client.signup()
      const answer = await call('GET', `${ORG}/${owner.organisation._id}`, { cookie: owner.cookie })
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({
        _id: owner.organisation._id,
        cloudName: owner.organisation.cloudName,
        role: 'owner',
        planId: -994,
        credits: 50,
      })
      expect(answer.response.headers.get('cache-control')).toBe('no-store')
    })

    it('lets an owner rename the organisation and change its cloud name', async () => {
      const owner = await client.signup()
      const cloudName = `acme-${kind}-${Date.now().toString(36)}`
      const answer = await call('PATCH', `${ORG}/${owner.organisation._id}`, {
        cookie: owner.cookie,
        body: { name: 'Acme Images', cloudName: cloudName.toUpperCase() },
      })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      expect(answer.body).toMatchObject({ name: 'Acme Images', cloudName })
      const list = await call('GET', `${ORG}/all`, { cookie: owner.cookie })
      expect((list.body as { cloudName: string }[])[0]?.cloudName).toBe(cloudName)
    })

    it('refuses a cloud name that is taken, too short or badly formed', async () => {
      const a = await client.signup()
      const b = await client.signup()
      const path = `${ORG}/${b.organisation._id}`
      expectError(
        await call('PATCH', path, {
          cookie: b.cookie,
          body: { cloudName: a.organisation.cloudName },
        }),
        409,
        'cloud_name_taken',
      )
      for (const cloudName of [
        'ab',
        '-abc',
        'abc-',
        'a b c',
        'a'.repeat(41),
        'ümlaut',
        ...HOSTILE,
      ]) {
        expectError(
          await call('PATCH', path, { cookie: b.cookie, body: { cloudName } }),
          400,
          'invalid_body',
        )
      }
      expectError(
        await call('PATCH', path, { cookie: b.cookie, body: { colour: 'red' } }),
        400,
        'invalid_body',
      )
      const after = await call('GET', path, { cookie: b.cookie })
      expect((after.body as { cloudName: string }).cloudName).toBe(b.organisation.cloudName)
    })

    it('answers 401 without a session and 404 for unknown or malformed ids', async () => {
      const owner = await client.signup()
      expectError(await call('GET', `${ORG}/${owner.organisation._id}`), 401, 'unauthenticated')
      for (const id of [ABSENT, 'not-a-uuid', "1' OR '1'='1"]) {
        expectError(
          await call('GET', `${ORG}/${encodeURIComponent(id)}`, { cookie: owner.cookie }),
          404,
          'organisation_not_found',
        )
      }
    })
  })

  describe('members and invitations', () => {
    it('invites by email; the invited user joins with the token and sees both organisations', async () => {
      const owner = await client.signup()
      // Invited by the email in capitals: invitations match emails without regard to case.
      const { member, token, acceptUrl } = await client.join(owner, {
        inviteAs: (email) => email.toUpperCase(),
      })
      expect(acceptUrl).toContain(token)
      const orgs = await call('GET', `${ORG}/all`, { cookie: member.cookie })
      const list = orgs.body as { _id: string; role: string }[]
      // Their own organisation stays first (the active one); the joined one follows.
      expect(list.map((o) => o._id)).toEqual([member.organisation._id, owner.organisation._id])
      expect(list[1]?.role).toBe('member')
      const members = await call('GET', `${ORG}/${owner.organisation._id}/members`, {
        cookie: member.cookie,
      })
      expect(
        (members.body as { email: string; role: string }[]).map((m) => [m.email, m.role]),
      ).toEqual([
        [owner.email, 'owner'],
        [member.email, 'member'],
      ])
      // The token works once.
      expectError(
        await call('POST', `${ORG}/invitations/accept`, { cookie: member.cookie, body: { token } }),
        404,
        'invitation_not_found',
      )
    })

    it('keeps an invitation to its email address', async () => {
      const owner = await client.signup()
      const invited = await call('POST', `${ORG}/${owner.organisation._id}/invitations`, {
        cookie: owner.cookie,
        body: { email: 'someone.else@example.com' },
      })
      const stranger = await client.signup()
      expectError(
        await call('POST', `${ORG}/invitations/accept`, {
          cookie: stranger.cookie,
          body: { token: (invited.body as { token: string }).token },
        }),
        409,
        'invitation_email_mismatch',
      )
      const open = await call('GET', `${ORG}/${owner.organisation._id}/invitations`, {
        cookie: owner.cookie,
      })
      expect((open.body as { email: string }[]).map((i) => i.email)).toEqual([
        'someone.else@example.com',
      ])
    })

    it('revokes invitations and refuses members who are already in', async () => {
      const owner = await client.signup()
      const invited = await call('POST', `${ORG}/${owner.organisation._id}/invitations`, {
        cookie: owner.cookie,
        body: { email: 'later@example.com' },
      })
      const { _id, token } = invited.body as { _id: string; token: string }
      expect(
        (
          await call('DELETE', `${ORG}/${owner.organisation._id}/invitations/${_id}`, {
            cookie: owner.cookie,
          })
        ).status,
      ).toBe(204)
      expectError(
        await call('DELETE', `${ORG}/${owner.organisation._id}/invitations/${_id}`, {
          cookie: owner.cookie,
        }),
        404,
        'invitation_not_found',
      )
      const later = await client.signup({ email: `later.${kind}.${Date.now()}@example.com` })
      expectError(
        await call('POST', `${ORG}/invitations/accept`, { cookie: later.cookie, body: { token } }),
        404,
        'invitation_not_found',
      )
      expectError(
        await call('POST', `${ORG}/${owner.organisation._id}/invitations`, {
          cookie: owner.cookie,
          body: { email: owner.email },
        }),
        409,
        'already_member',
      )
    })

    it('lets members read but not manage; owners manage roles; the last owner stays', async () => {
      const owner = await client.signup()
      const { member } = await client.join(owner)
      const org = owner.organisation._id
      const asMember = { cookie: member.cookie }
      expect((await call('GET', `${ORG}/${org}`, asMember)).body).toMatchObject({ role: 'member' })
      for (const [method, path, body] of [
        ['PATCH', `${ORG}/${org}`, { name: 'Mine now' }],
        ['POST', `${ORG}/${org}/invitations`, { email: 'x@example.com' }],
        ['GET', `${ORG}/${org}/invitations`, undefined],
        ['POST', `${ORG}/${org}/tokens`, { name: 'sneaky' }],
        ['GET', `${ORG}/${org}/tokens`, undefined],
        ['PATCH', `${ORG}/${org}/members/${owner.user._id}`, { role: 'member' }],
        ['DELETE', `${ORG}/${org}/members/${owner.user._id}`, undefined],
      ] as const) {
        expectError(await call(method, path, { ...asMember, body }), 403, 'forbidden')
      }
      // The sole owner can neither step down nor leave.
      expectError(
        await call('PATCH', `${ORG}/${org}/members/${owner.user._id}`, {
          cookie: owner.cookie,
          body: { role: 'member' },
        }),
        409,
        'last_owner',
      )
      expectError(
        await call('DELETE', `${ORG}/${org}/members/${owner.user._id}`, { cookie: owner.cookie }),
        409,
        'last_owner',
      )
      // Promoted, the member can manage; then the first owner may step down.
      const promoted = await call('PATCH', `${ORG}/${org}/members/${member.user._id}`, {
        cookie: owner.cookie,
        body: { role: 'owner' },
      })
      expect(promoted.body).toEqual({ _id: member.user._id, role: 'owner' })
      expect((await call('GET', `${ORG}/${org}/tokens`, { cookie: member.cookie })).status).toBe(
        200,
      )
      expect(
        (
          await call('PATCH', `${ORG}/${org}/members/${owner.user._id}`, {
            cookie: owner.cookie,
            body: { role: 'member' },
          })
        ).status,
      ).toBe(200)
    })

    it('lets a member leave, after which the organisation is gone for them', async () => {
      const owner = await client.signup()
      const { member } = await client.join(owner)
      const org = owner.organisation._id
      expect(
        (
          await call('DELETE', `${ORG}/${org}/members/${member.user._id}`, {
            cookie: member.cookie,
          })
        ).status,
      ).toBe(204)
      expectError(
        await call('GET', `${ORG}/${org}`, { cookie: member.cookie }),
        404,
        'organisation_not_found',
      )
      expectError(
        await call('DELETE', `${ORG}/${org}/members/${member.user._id}`, { cookie: owner.cookie }),
        404,
        'member_not_found',
      )
    })
  })

  describe('API tokens', () => {
    it('shows a token once, lists it by prefix, and stores only its hash', async () => {
      const owner = await client.signup()
      const created = await client.createToken(owner, 'ci')
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
      const rows = await server.services.context.database.db.execute(
        'select token_hash from api_tokens',
      )
      expect(JSON.stringify(rows)).not.toContain(created.token)
    })

    it('acts for its own organisation without a session or signature, in raw or base64 form', async () => {
      const owner = await client.signup()
      const { token } = await client.createToken(owner)
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
      const owner = await client.signup()
      const { token, _id } = await client.createToken(owner)
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
      const owner = await client.signup()
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
      const owner = await client.signup()
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
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    })
  })

  describe('another organisation', () => {
    it('cannot read or change anything of it, by session or by token', async () => {
      const victim = await client.signup()
      const attacker = await client.signup()
      const { token: attackerToken } = await client.createToken(attacker)
      const { _id: victimTokenId } = await client.createToken(victim)
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
      for (const [method, path, body] of calls) {
        expectError(
          await call(method, path, { cookie: attacker.cookie, body }),
          404,
          'organisation_not_found',
        )
        expectError(
          await call(method, path, { token: attackerToken, sign: false, body }),
          404,
          'organisation_not_found',
        )
      }
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

  describe('request signatures', () => {
    it('requires a signature on changes made with a session cookie', async () => {
      const owner = await client.signup()
      const answer = await call('PATCH', `${USERS}/profile/meta`, {
        cookie: owner.cookie,
        body: { theme: 'dark' },
        sign: false,
      })
      expectError(answer, 400, 'signature_missing')
      // Reads and cookie-less calls need none.
      expect(
        (await call('GET', `${USERS}/session`, { cookie: owner.cookie, sign: false })).status,
      ).toBe(200)
    })

    it('refuses a tampered body, a stale time and a replay', async () => {
      const owner = await client.signup()
      const url = `${server.url}${USERS}/profile/meta`
      const { signRequest } = await import('@tessera/url')
      const body = JSON.stringify({ theme: 'dark' })
      const headers = await signRequest({ method: 'PATCH', url, body }, server.config.signing.key)
      const send = (
        text: string,
        extra: Record<string, string> = headers as unknown as Record<string, string>,
      ) =>
        fetch(url, {
          method: 'PATCH',
          headers: {
            ...extra,
            'content-type': 'application/json',
            cookie: `bg.session=${owner.cookie}`,
          },
          body: text,
        })
      const tampered = await send(JSON.stringify({ theme: 'evil' }))
      expect(tampered.status).toBe(400)
      expect(((await tampered.json()) as ApiError).code).toBe('signature_invalid')
      const first = await send(body)
      expect(first.status).toBe(200)
      const replay = await send(body)
      expect(replay.status).toBe(400)
      expect(((await replay.json()) as ApiError).code).toBe('signature_replayed')
      const stale = await call('PATCH', `${USERS}/profile/meta`, {
        cookie: owner.cookie,
        body: { theme: 'dark' },
        signedAt: Date.now() - 10 * 60_000,
      })
      expectError(stale, 400, 'signature_stale')
      const malformed = await send(body, { 'x-ebg-param': 'zzz', 'x-ebg-signature': 'v1:abc' })
      expect(((await malformed.json()) as ApiError).code).toBe('signature_malformed')
    })

    it('checks a signature whenever one is sent, even on reads', async () => {
      const answer = await call('GET', `${USERS}/session`, {
        sign: false,
        headers: {
          'x-ebg-param': btoa('20200101T000000Z'),
          'x-ebg-signature': `v1:${'0'.repeat(64)}`,
        },
      })
      expectError(answer, 400, 'signature_stale')
    })

    it('needs no signature for calls made with an API token', async () => {
      const owner = await client.signup()
      const { token } = await client.createToken(owner)
      const answer = await call('PATCH', `${ORG}/${owner.organisation._id}`, {
        token,
        sign: false,
        body: { name: 'By token' },
      })
      // Tokens may not rename (owners only), but the refusal is about the role, not a signature.
      expectError(answer, 403, 'forbidden')
    })
  })
})

describe('the plan a new organisation starts on', () => {
  it('follows FREE_PLAN_ID and FREE_PLAN_CREDITS', async () => {
    const server = await startTestServer('pglite', { FREE_PLAN_CREDITS: '7' })
    try {
      const client = createTestClient(server)
      const owner = await client.signup()
      const answer = await client.call('GET', `${ORG}/${owner.organisation._id}`, {
        cookie: owner.cookie,
      })
      expect(answer.body).toMatchObject({ planId: -994, credits: 7 })
      const ledger = await client.call(
        'GET',
        `/service/panel/billing/v1.0/org/${owner.organisation._id}/credits/ledger`,
        { cookie: owner.cookie },
      )
      expect((ledger.body as { items: { delta: number; reason: string }[] }).items).toMatchObject([
        { delta: 7, reason: 'free_plan' },
      ])
    } finally {
      await server.stop()
    }
  })
})
