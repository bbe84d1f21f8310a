import { describe, expect, it } from 'vitest'
import { type ApiError, expectError } from '../test-client.ts'
import { describeEachDatabase } from '../test-suite.ts'
import {
  type Account,
  type Credits,
  HOSTILE,
  type Ledger,
  useBillingSuite,
  WEBHOOK,
} from './billing-suite.ts'
import { signTestWebhook, TEST_WEBHOOK_SIGNATURE_HEADER, testWebhookSecret } from './payments.ts'

describeEachDatabase('database', 'credits and payments on %s', useBillingSuite, (t) => {
  const { suite, call, orgPath, credits, checkout, press, webhook } = t

  describe('top-ups', () => {
    it('buys credits through the test checkout page, once however often it is paid', async () => {
      const owner = await suite.client.signup()
      const started = await checkout(owner, { kind: 'topup', addonId: 101 })
      expect(started.status).toBe('pending')
      expect(started.checkoutUrl).toMatch(
        /\/service\/payments\/v1\.0\/test-checkout\/tpc_[A-Za-z0-9_-]{43}$/,
      )
      const pending = await call('GET', orgPath(owner, `/payments/${started.paymentId}`), {
        cookie: owner.cookie,
      })
      expect(pending.body).toMatchObject({
        paymentId: started.paymentId,
        kind: 'topup',
        itemId: 101,
        amount: 5,
        currency: 'USD',
        credits: 100,
        status: 'pending',
        provider: 'test',
        checkoutUrl: started.checkoutUrl,
        completedAt: null,
      })

      const page = await fetch(
        started.checkoutUrl.replace(suite.server.config.publicUrl, suite.server.url),
      )
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toContain('text/html')
      const html = await page.text()
      expect(html).toContain('100 credits')
      expect(html).toContain('5.00 USD')

      const paid = await press(started.checkoutUrl, 'pay')
      expect(paid.status).toBe(303)
      expect((await credits(owner)).balance).toBe(150)
      // Replayed: pressing pay again, and canceling afterwards, change nothing.
      expect((await press(started.checkoutUrl, 'pay')).status).toBe(303)
      expect((await press(started.checkoutUrl, 'cancel')).status).toBe(409)
      expect((await credits(owner)).balance).toBe(150)
      expect(await t.ledgerSum(owner)).toBe(150)
      const done = await call('GET', orgPath(owner, `/payments/${started.paymentId}`), {
        cookie: owner.cookie,
      })
      expect(done.body).toMatchObject({ status: 'paid' })
      expect((done.body as { checkoutUrl?: string }).checkoutUrl).toBeUndefined()
      const ledger = (
        await call('GET', orgPath(owner, '/credits/ledger'), {
          cookie: owner.cookie,
        })
      ).body as Ledger
      expect(ledger.items[0]).toMatchObject({
        delta: 100,
        balance: 150,
        reason: 'topup',
        reference: started.paymentId,
      })
      const after = await fetch(
        started.checkoutUrl.replace(suite.server.config.publicUrl, suite.server.url),
      )
      expect(await after.text()).toContain('paid')
    })

    it('cancels a checkout, which can then not be paid', async () => {
      const owner = await suite.client.signup()
      const started = await checkout(owner, { kind: 'topup', addonId: 102 })
      expect((await press(started.checkoutUrl, 'cancel')).status).toBe(303)
      const refused = await press(started.checkoutUrl, 'pay')
      expect(refused.status).toBe(409)
      expect(await refused.text()).toContain('already canceled')
      expect((await credits(owner)).balance).toBe(50)
      const payment = await call('GET', orgPath(owner, `/payments/${started.paymentId}`), {
        cookie: owner.cookie,
      })
      expect(payment.body).toMatchObject({ status: 'canceled' })
    })

    it('settles through the signed webhook the same way, once', async () => {
      const owner = await suite.client.signup()
      const started = await checkout(owner, { kind: 'topup', addonId: 101 })
      const providerRef = await t.providerRefOf(owner, started.paymentId)
      const body = JSON.stringify({ providerRef, outcome: 'paid' })
      const first = await webhook(body)
      expect(first.status).toBe(200)
      expect(await first.json()).toMatchObject({
        paymentId: started.paymentId,
        status: 'paid',
        changed: true,
      })
      const replay = await webhook(body)
      expect(await replay.json()).toMatchObject({
        status: 'paid',
        changed: false,
      })
      expect((await credits(owner)).balance).toBe(150)
      // A late "canceled" for a paid checkout changes nothing either.
      const late = await webhook(JSON.stringify({ providerRef, outcome: 'canceled' }))
      expect(await late.json()).toMatchObject({
        status: 'paid',
        changed: false,
      })
      expect((await credits(owner)).balance).toBe(150)
    })

    it('refuses webhooks that are unsigned, forged, stale or unreadable', async () => {
      const owner = await suite.client.signup()
      const started = await checkout(owner, { kind: 'topup', addonId: 101 })
      const providerRef = await t.providerRefOf(owner, started.paymentId)
      const body = JSON.stringify({ providerRef, outcome: 'paid' })
      const post = (headers: Record<string, string>, text = body) =>
        fetch(`${suite.server.url}${WEBHOOK}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: text,
        })
      const expectRefused = async (response: Response, status: number, code: string) => {
        expect(response.status).toBe(status)
        expect(((await response.json()) as ApiError).code).toBe(code)
      }
      await expectRefused(await post({}), 400, 'webhook_signature')
      const now = Math.floor(Date.now() / 1000)
      const forged = signTestWebhook('not the secret', body, now)
      await expectRefused(
        await post({ [TEST_WEBHOOK_SIGNATURE_HEADER]: forged }),
        400,
        'webhook_signature',
      )
      await expectRefused(await webhook(body, now - 3600), 400, 'webhook_signature')
      // Signed over a different body.
      const signed = signTestWebhook(testWebhookSecret(suite.server.config), body, now)
      await expectRefused(
        await post({ [TEST_WEBHOOK_SIGNATURE_HEADER]: signed }, body.replace('paid', 'failed')),
        400,
        'webhook_signature',
      )
      await expectRefused(await webhook('not json'), 400, 'webhook_payload')
      await expectRefused(
        await webhook(JSON.stringify({ providerRef, outcome: 'refunded' })),
        400,
        'webhook_payload',
      )
      await expectRefused(
        await webhook(JSON.stringify({ providerRef: HOSTILE[0], outcome: 'paid' })),
        400,
        'webhook_payload',
      )
      await expectRefused(
        await webhook(
          JSON.stringify({
            providerRef: `tpc_${'a'.repeat(43)}`,
            outcome: 'paid',
          }),
        ),
        404,
        'payment_not_found',
      )
      const other = await fetch(`${suite.server.url}/service/webhooks/payments/stripe`, {
        method: 'POST',
        body,
      })
      await expectRefused(other, 404, 'unknown_provider')
      const huge = await post(
        { [TEST_WEBHOOK_SIGNATURE_HEADER]: signed },
        `{"x":"${'a'.repeat(70_000)}"}`,
      )
      await expectRefused(huge, 413, 'too_large')
      expect((await credits(owner)).balance).toBe(50)
    })

    it('answers 400 for a malformed checkout reference and 404 for an unknown one', async () => {
      const page = await fetch(`${suite.server.url}/service/payments/v1.0/test-checkout/nope`)
      expect(page.status).toBe(400)
      const unknown = await fetch(
        `${suite.server.url}/service/payments/v1.0/test-checkout/tpc_${'b'.repeat(43)}/pay`,
        { method: 'POST' },
      )
      expect(unknown.status).toBe(404)
    })
  })

  describe('subscriptions', () => {
    /** Checks out the plan and pays on the test checkout page; answers the credits after. */
    async function subscribe(owner: Account, planId: number): Promise<Credits> {
      const started = await checkout(owner, { kind: 'subscription', planId })
      expect((await press(started.checkoutUrl, 'pay')).status).toBe(303)
      return credits(owner)
    }
    /** The length of the subscription's current period, in days. */
    const periodDays = ({ subscription }: Credits) =>
      (Date.parse(subscription?.currentPeriodEnd ?? '') -
        Date.parse(subscription?.currentPeriodStart ?? '')) /
      86_400_000

    it('moves the organisation to a monthly plan with its credits and a month-long period', async () => {
      const owner = await suite.client.signup()
      const answer = await subscribe(owner, 1)
      expect(answer).toMatchObject({
        balance: 550,
        plan: { _id: 1, name: 'Starter', interval: 'monthly', credits: 500 },
        subscription: { planId: 1, status: 'active' },
      })
      const days = periodDays(answer)
      expect(days).toBeGreaterThanOrEqual(28)
      expect(days).toBeLessThanOrEqual(31)
      expectError(
        await call('POST', orgPath(owner, '/checkout'), {
          cookie: owner.cookie,
          body: { kind: 'subscription', planId: 1 },
        }),
        409,
        'already_subscribed',
      )
      // Another plan replaces it: a yearly one runs for a year.
      const after = await subscribe(owner, 11)
      expect(after).toMatchObject({
        balance: 6550,
        plan: { _id: 11 },
        subscription: { planId: 11 },
      })
      const yearDays = periodDays(after)
      expect(yearDays).toBeGreaterThanOrEqual(365)
      expect(yearDays).toBeLessThanOrEqual(366)
      expect(await t.ledgerSum(owner)).toBe(6550)
    })

    it('refuses free, custom, inactive and unknown plans and addons with clear messages', async () => {
      const owner = await suite.client.signup()
      await t.repo().upsertPlans([
        {
          id: 777,
          name: 'Retired',
          description: '',
          amount: 5,
          currency: 'USD',
          credits: 10,
          features: [],
          tags: [],
          custom: false,
          active: false,
          sort: 99,
          interval: 'monthly',
        },
      ])
      const post = (body: unknown) =>
        call('POST', orgPath(owner, '/checkout'), {
          cookie: owner.cookie,
          body,
        })
      expectError(await post({ kind: 'subscription', planId: -994 }), 400, 'invalid_plan')
      expectError(await post({ kind: 'subscription', planId: 90 }), 400, 'invalid_plan')
      expectError(await post({ kind: 'subscription', planId: 777 }), 404, 'plan_not_found')
      expectError(await post({ kind: 'subscription', planId: 123456 }), 404, 'plan_not_found')
      expectError(await post({ kind: 'topup', addonId: 190 }), 400, 'invalid_addon')
      expectError(await post({ kind: 'topup', addonId: 1 }), 404, 'addon_not_found')
      expect((await credits(owner)).balance).toBe(50)
      expect(
        await t.repo().listCreditLedger(owner.organisation._id, {
          limit: 10,
          offset: 0,
        }),
      ).toMatchObject({ total: 1 })
    })
  })
})
