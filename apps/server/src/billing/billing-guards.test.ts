// Billing against hostile input and every call made from another organisation, the OpenAPI
// document's billing answers, payments turned off, and credits shared by two server processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, expectError, expectOrganisationHidden } from '../test-client.ts'
import {
  type ServerPair,
  startServerPair,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'
import { describeEachDatabase, useTestServer } from '../test-suite.ts'
import {
  ABSENT,
  BILLING,
  type Credits,
  HOSTILE,
  useBillingSuite,
  WEBHOOK,
} from './billing-suite.ts'

describeEachDatabase('database', 'credits and payments on %s', useBillingSuite, (t) => {
  const { suite, call, repo, orgPath, credits, checkout } = t

  describe('bad input', () => {
    it('answers every malformed, hostile or oversized checkout with a clear 4xx', async () => {
      const owner = await suite.client.signup()
      const path = orgPath(owner, '/checkout')
      const bodies: unknown[] = [
        {},
        { kind: 'gift', planId: 1 },
        { kind: 'subscription' },
        { kind: 'subscription', planId: '1' },
        { kind: 'subscription', planId: 1.5 },
        { kind: 'subscription', planId: 1e12 },
        { kind: 'subscription', planId: -1e300 },
        { kind: 'subscription', planId: null },
        { kind: 'topup', addonId: 101, amount: -5 },
        { kind: 'topup', addonId: 101, amount: 1e308 },
        { kind: 'topup', addonId: 101, credits: 1_000_000 },
        { kind: 'topup', planId: 1 },
        ...HOSTILE.map((text) => ({ kind: text, planId: 1 })),
        ...HOSTILE.map((text) => ({ kind: 'subscription', planId: text })),
        ...HOSTILE.map((text) => ({
          kind: 'topup',
          addonId: 101,
          [text]: 1,
        })),
      ]
      for (const body of bodies) {
        expectError(await call('POST', path, { cookie: owner.cookie, body }), 400, 'invalid_body')
      }
      expectError(
        await call('POST', path, { cookie: owner.cookie, raw: '[1,2]' }),
        400,
        'invalid_body',
      )
      expectError(
        await call('POST', path, { cookie: owner.cookie, raw: '{"kind":' }),
        400,
        'invalid_json',
      )
      expectError(
        await call('POST', path, {
          cookie: owner.cookie,
          raw: 'kind=topup',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        'unsupported_media_type',
      )
      const huge = await call('POST', path, {
        cookie: owner.cookie,
        raw: JSON.stringify({
          kind: 'topup',
          addonId: 101,
          pad: 'x'.repeat(70_000),
        }),
      })
      expect(huge.status).toBe(413)
      expect((await credits(owner)).balance).toBe(50)
      expect(
        (
          await repo().listCreditLedger(owner.organisation._id, {
            limit: 5,
            offset: 0,
          })
        ).total,
      ).toBe(1)
      expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
    })

    it('answers unknown and malformed ids with 404', async () => {
      const owner = await suite.client.signup()
      // (An encoded / is refused before routing, as everywhere: 400 invalid_path.)
      const ids = HOSTILE.filter((text) => !text.includes('/')).map(encodeURIComponent)
      for (const id of [ABSENT, 'not-a-uuid', ...ids]) {
        expectError(
          await call('GET', orgPath(owner, `/payments/${id}`), {
            cookie: owner.cookie,
          }),
          404,
          'payment_not_found',
        )
        expectError(
          await call('GET', `${BILLING}/org/${id}/credits`, {
            cookie: owner.cookie,
          }),
          404,
          'organisation_not_found',
        )
      }
    })

    it('lets only owners buy: members and API tokens get 403', async () => {
      const owner = await suite.client.signup()
      const { member } = await suite.client.join(owner, { role: 'member' })
      const body = { kind: 'topup', addonId: 101 }
      expectError(
        await call('POST', orgPath(owner, '/checkout'), {
          cookie: member.cookie,
          body,
        }),
        403,
        'forbidden',
      )
      const token = (await suite.client.createToken(owner, 'billing tests')).token
      expectError(
        await call('POST', orgPath(owner, '/checkout'), { token, body }),
        403,
        'forbidden',
      )
      // Members read the balance.
      const read = await call('GET', orgPath(owner, '/credits'), {
        cookie: member.cookie,
      })
      expect(read.status).toBe(200)
    })
  })

  describe('the OpenAPI document', () => {
    it('describes every answer these calls give', async () => {
      const response = await fetch(`${suite.server.url}/service/openapi.json`)
      const document = (await response.json()) as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
      }
      const org = '/service/panel/billing/v1.0/org/{orgId}'
      const jobs = '/service/panel/transformation/v1.0/org/{orgId}/predictions'
      const checkoutPage = '/service/payments/v1.0/test-checkout/{ref}'
      const answers: [string, string, string[]][] = [
        [`${org}/credits`, 'get', ['200', '401', '404']],
        [`${org}/credits/ledger`, 'get', ['200', '400', '401', '404']],
        [
          `${org}/checkout`,
          'post',
          ['201', '400', '401', '403', '404', '409', '413', '415', '503'],
        ],
        [`${org}/payments/{paymentId}`, 'get', ['200', '401', '404']],
        ['/service/webhooks/payments/{provider}', 'post', ['200', '400', '404', '413']],
        [checkoutPage, 'get', ['200', '400', '404']],
        [`${checkoutPage}/pay`, 'post', ['303', '400', '404', '409']],
        [`${checkoutPage}/cancel`, 'post', ['303', '400', '404', '409']],
        [`${jobs}/{predictionId}`, 'post', ['202', '400', '401', '402', '404', '413', '501']],
        [`${jobs}/jobs/{jobId}`, 'get', ['200', '401', '404']],
      ]
      for (const [path, method, statuses] of answers) {
        const operation = document.paths[path]?.[method]
        expect(operation, `${method} ${path}`).toBeDefined()
        for (const status of statuses) {
          expect(operation?.responses[status], `${method} ${path} ${status}`).toBeDefined()
        }
      }
    })
  })

  describe('another organisation', () => {
    it('can neither read nor buy nor see payments of an organisation it is not in', async () => {
      const a = await suite.client.signup()
      const b = await suite.client.signup()
      const tokenA = (await suite.client.createToken(a)).token
      const tokenB = (await suite.client.createToken(b)).token
      const paymentB = await checkout(b, { kind: 'topup', addonId: 101 })
      const paymentA = await checkout(a, { kind: 'topup', addonId: 101 })
      const calls: [string, string, unknown][] = [
        ['GET', orgPath(b, '/credits'), undefined],
        ['GET', orgPath(b, '/credits/ledger'), undefined],
        ['POST', orgPath(b, '/checkout'), { kind: 'topup', addonId: 101 }],
        ['GET', orgPath(b, `/payments/${paymentB.paymentId}`), undefined],
      ]
      await expectOrganisationHidden(call, calls, [{ cookie: a.cookie }, { token: tokenA }])
      // B's payment through A's own organisation: not found either.
      expectError(
        await call('GET', orgPath(a, `/payments/${paymentB.paymentId}`), {
          cookie: a.cookie,
        }),
        404,
        'payment_not_found',
      )
      expectError(
        await call('GET', orgPath(b, `/payments/${paymentA.paymentId}`), {
          cookie: b.cookie,
        }),
        404,
        'payment_not_found',
      )
      // And B's token on A's organisation.
      for (const path of [orgPath(a, '/credits'), orgPath(a, '/credits/ledger')]) {
        expectError(await call('GET', path, { token: tokenB }), 404, 'organisation_not_found')
      }
      expectError(
        await call('GET', orgPath(a, `/payments/${paymentA.paymentId}`), {
          token: tokenB,
        }),
        404,
        'organisation_not_found',
      )
      expect((await credits(a)).balance).toBe(50)
      // Nothing of B's changed.
      expect((await credits(b)).balance).toBe(50)
      const payments = await call('GET', orgPath(b, `/payments/${paymentB.paymentId}`), {
        cookie: b.cookie,
      })
      expect(payments.body).toMatchObject({ status: 'pending' })
    })
  })
})

describe.each<TestDatabaseKind>(testDatabases('database'))('payments turned off on %s', (kind) => {
  const suite = useTestServer(kind, { PAYMENT_PROVIDER: 'off' })

  it('refuses checkouts with 503 payments_unavailable and serves no test checkout', async () => {
    const client = createTestClient(suite.server)
    const owner = await client.signup()
    const answer = await client.call('POST', `${BILLING}/org/${owner.organisation._id}/checkout`, {
      cookie: owner.cookie,
      body: { kind: 'topup', addonId: 101 },
    })
    expectError(answer, 503, 'payments_unavailable')
    const page = await fetch(
      `${suite.server.url}/service/payments/v1.0/test-checkout/tpc_${'c'.repeat(43)}`,
    )
    expect(page.status).toBe(404)
    const hook = await fetch(`${suite.server.url}${WEBHOOK}`, {
      method: 'POST',
      body: '{}',
    })
    expect(hook.status).toBe(404)
    // Credits still work without payments.
    const credits = await client.call('GET', `${BILLING}/org/${owner.organisation._id}/credits`, {
      cookie: owner.cookie,
    })
    expect((credits.body as Credits).balance).toBe(50)
  })
})

describe('credits shared by two server processes on PostgreSQL', () => {
  let pair: ServerPair
  let first: TestServer
  let second: TestServer

  beforeAll(async () => {
    pair = await startServerPair()
    ;({ first, second } = pair)
  })
  afterAll(async () => {
    await pair?.stop()
  })

  it('never goes below 0 when both spend at once, and the ledger sums to the balance', async () => {
    const owner = await createTestClient(first).signup()
    const organisationId = owner.organisation._id
    const repos = [first.services.context.repo, second.services.context.repo]
    const results = await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        (repos[i % 2] as (typeof repos)[number]).spendCredits(
          organisationId,
          1,
          'test_spend',
          `p${i}`,
        ),
      ),
    )
    expect(results.filter((result) => result.status === 'applied')).toHaveLength(50)
    const organisation = await first.services.context.repo.findOrganisationById(organisationId)
    expect(organisation?.credits).toBe(0)
    expect(await second.services.context.repo.sumCreditLedger(organisationId)).toBe(0)
  })
})
