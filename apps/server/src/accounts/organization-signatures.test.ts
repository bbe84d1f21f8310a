import { describe, expect, it } from 'vitest'
import { type ApiError, expectError } from '../test-client.ts'
import { defaultTestDatabase } from '../test-server.ts'
import { describeEachDatabase, useTestServer } from '../test-suite.ts'
import { ORG, USERS } from './organization-api-suite.ts'

describeEachDatabase('server', 'organisations on %s', useTestServer, (suite) => {
  const { call } = suite

  describe('request signatures', () => {
    it('requires a signature on changes made with a session cookie', async () => {
      const owner = await suite.client.signup()
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
      const owner = await suite.client.signup()
      const url = `${suite.server.url}${USERS}/profile/meta`
      const { signRequest } = await import('@tessera/url')
      const body = JSON.stringify({ theme: 'dark' })
      const headers = await signRequest(
        { method: 'PATCH', url, body },
        suite.server.config.signing.key,
      )
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
      const owner = await suite.client.signup()
      const { token } = await suite.client.createToken(owner)
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
  const suite = useTestServer(defaultTestDatabase(), { FREE_PLAN_CREDITS: '7' })

  it('follows FREE_PLAN_ID and FREE_PLAN_CREDITS', async () => {
    const owner = await suite.client.signup()
    const answer = await suite.call('GET', `${ORG}/${owner.organisation._id}`, {
      cookie: owner.cookie,
    })
    expect(answer.body).toMatchObject({ planId: -994, credits: 7 })
    const ledger = await suite.call(
      'GET',
      `/service/panel/billing/v1.0/org/${owner.organisation._id}/credits/ledger`,
      { cookie: owner.cookie },
    )
    expect((ledger.body as { items: { delta: number; reason: string }[] }).items).toMatchObject([
      { delta: 7, reason: 'free_plan' },
    ])
  })
})
