// Organisations, their members and invitations through the real server.

import { describe, expect, it } from 'vitest'
import { expectError } from '../test-client.ts'
import { describeEachDatabase, useTestServer } from '../test-suite.ts'
import { ABSENT, HOSTILE, ORG } from './organization-api-suite.ts'

describeEachDatabase('server', 'organisations on %s', useTestServer, (suite, kind) => {
  const { call } = suite

  describe('details', () => {
    it('answers the organisation with role, plan and credits', async () => {
      const owner = await suite.client.signup()
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
      const owner = await suite.client.signup()
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
      const a = await suite.client.signup()
      const b = await suite.client.signup()
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
      const owner = await suite.client.signup()
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
      const owner = await suite.client.signup()
      // Invited by the email in capitals: invitations match emails without regard to case.
      const { member, token, acceptUrl } = await suite.client.join(owner, {
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
      const owner = await suite.client.signup()
      const invited = await call('POST', `${ORG}/${owner.organisation._id}/invitations`, {
        cookie: owner.cookie,
        body: { email: 'someone.else@example.com' },
      })
      const stranger = await suite.client.signup()
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
      const owner = await suite.client.signup()
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
      const later = await suite.client.signup({ email: `later.${kind}.${Date.now()}@example.com` })
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
      const owner = await suite.client.signup()
      const { member } = await suite.client.join(owner)
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
      const owner = await suite.client.signup()
      const { member } = await suite.client.join(owner)
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
})
