// Stripe beside the test provider (issue 24): the official library against a local stand-in that
// answers Stripe's documented shapes: Checkout Sessions for a top-up and a subscription,
// webhooks verified by the library's signature check and credited once, receipts, renewals,
// cancellation at period end, the customer portal and the end of a subscription.
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { BILLING_ORG_BASE, PAYMENT_WEBHOOK_BASE } from './paths.ts'
import { STRIPE_SIGNATURE_HEADER } from './stripe.ts'
import { startStripeStandIn } from './stripe-stand-in.ts'

const SECRET_KEY = 'sk_test_tessera_stand_in'
const WEBHOOK_SECRET = 'whsec_tessera_stand_in_secret'
// Only for signing test events (no call is made with it).
const signer = new Stripe(SECRET_KEY)

describe.each<TestDatabaseKind>(testDatabases('server'))('Stripe payments on %s', (kind) => {
  let standIn: Awaited<ReturnType<typeof startStripeStandIn>>

  beforeAll(async () => {
    standIn = await startStripeStandIn()
  })
  afterAll(async () => {
    await standIn?.stop()
  })
  const suite = useTestServer(kind, () => ({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_IDS: '1=price_starter_monthly',
    STRIPE_API_URL: standIn.url,
  }))

  type Account = Awaited<ReturnType<typeof suite.client.signup>>
  const org = (account: Account, rest: string) =>
    `${BILLING_ORG_BASE}/${account.organisation._id}${rest}`
  const credits = async (account: Account) => {
    const answer = await suite.call('GET', org(account, '/credits'), { cookie: account.cookie })
    return answer.body as {
      balance: number
      plan: { _id: number }
      subscription: null | { status: string; cancelAtPeriodEnd: boolean }
    }
  }

  /** Sends `event` as Stripe would: its JSON signed with the endpoint's secret. */
  async function deliver(event: Record<string, unknown>, secret = WEBHOOK_SECRET, header?: string) {
    const payload = JSON.stringify({
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      ...event,
    })
    const signature = header ?? signer.webhooks.generateTestHeaderString({ payload, secret })
    return fetch(`${suite.server.url}${PAYMENT_WEBHOOK_BASE}/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [STRIPE_SIGNATURE_HEADER]: signature },
      body: payload,
    })
  }

  const completed = (sessionId: string, extra: Record<string, unknown> = {}) => ({
    id: `evt_${sessionId}`,
    type: 'checkout.session.completed',
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        payment_status: 'paid',
        status: 'complete',
        ...extra,
      },
    },
  })

  it('opens Checkout Sessions, credits a verified webhook once, and refuses forged ones', async () => {
    const owner = await suite.client.signup()
    const before = (await credits(owner)).balance
    const started = await suite.call('POST', org(owner, '/checkout'), {
      cookie: owner.cookie,
      body: { kind: 'topup', addonId: 101, returnUrl: '/console' },
    })
    expect(started.status, JSON.stringify(started.body)).toBe(201)
    const { paymentId, checkoutUrl } = started.body as { paymentId: string; checkoutUrl: string }
    expect(checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)
    const asked = standIn.requests.findLast((request) => request.path === '/v1/checkout/sessions')
    expect(asked?.authorization).toBe(`Bearer ${SECRET_KEY}`)
    expect(asked?.idempotencyKey).toBe(`checkout-${paymentId}`)
    expect(asked?.form).toMatchObject({
      mode: 'payment',
      client_reference_id: paymentId,
      'line_items[0][price_data][unit_amount]': '500',
      'line_items[0][price_data][currency]': 'usd',
      'metadata[organisationId]': owner.organisation._id,
    })
    expect(asked?.form.success_url).toContain(`paymentId=${paymentId}`)
    const sessionId = checkoutUrl.split('/').pop() as string

    // Forged, stale or unsigned events are refused and change nothing.
    const forged = await deliver(completed(sessionId), 'whsec_somebody_else')
    expect(forged.status).toBe(400)
    expect(await forged.json()).toMatchObject({ code: 'webhook_signature' })
    const stale = await deliver(
      completed(sessionId),
      WEBHOOK_SECRET,
      signer.webhooks.generateTestHeaderString({
        payload: 'x',
        secret: WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      }),
    )
    expect(stale.status).toBe(400)
    await stale.arrayBuffer()
    const unsigned = await fetch(`${suite.server.url}${PAYMENT_WEBHOOK_BASE}/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(unsigned.status).toBe(400)
    await unsigned.arrayBuffer()
    expect((await credits(owner)).balance).toBe(before)

    // The real event credits once; Stripe's retries of it change nothing.
    const paid = await deliver(completed(sessionId))
    expect(paid.status).toBe(200)
    expect(await paid.json()).toMatchObject({ paymentId, status: 'paid', changed: true })
    const again = await deliver(completed(sessionId))
    expect(await again.json()).toMatchObject({ paymentId, status: 'paid', changed: false })
    expect((await credits(owner)).balance).toBe(before + 100)

    // Events billing has no use for are acknowledged.
    const other = await deliver({
      id: 'evt_other',
      type: 'customer.created',
      data: { object: { id: 'cus_x' } },
    })
    expect(await other.json()).toMatchObject({ received: true, ignored: 'customer.created' })
  })

  it('subscribes with the configured Price, gives receipts, renews, cancels at period end, opens the portal and ends', async () => {
    const owner = await suite.client.signup()
    const start = (await credits(owner)).balance
    const started = await suite.call('POST', org(owner, '/checkout'), {
      cookie: owner.cookie,
      body: { kind: 'subscription', planId: 1 },
    })
    expect(started.status, JSON.stringify(started.body)).toBe(201)
    const { paymentId, checkoutUrl } = started.body as { paymentId: string; checkoutUrl: string }
    const asked = standIn.requests.findLast((request) => request.path === '/v1/checkout/sessions')
    expect(asked?.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_starter_monthly',
      'subscription_data[metadata][paymentId]': paymentId,
    })
    const sessionId = checkoutUrl.split('/').pop() as string
    const subscriptionId = `sub_${owner.organisation._id.slice(0, 8)}`
    const paid = await deliver(
      completed(sessionId, { subscription: subscriptionId, customer: 'cus_tessera_1' }),
    )
    expect(paid.status).toBe(200)
    await paid.arrayBuffer()
    let now = await credits(owner)
    expect(now.plan._id).toBe(1)
    expect(now.balance).toBe(start + 500)

    // A renewal: Stripe's invoice for the next period credits the plan again, once.
    const invoice = {
      id: `evt_inv_${subscriptionId}`,
      type: 'invoice.paid',
      data: {
        object: {
          id: `in_${subscriptionId}`,
          object: 'invoice',
          billing_reason: 'subscription_cycle',
          amount_paid: 900,
          currency: 'usd',
          parent: {
            type: 'subscription_details',
            subscription_details: { subscription: subscriptionId },
          },
        },
      },
    }
    expect((await (await deliver(invoice)).json()) as object).toMatchObject({ changed: true })
    expect((await (await deliver(invoice)).json()) as object).toMatchObject({ changed: false })
    expect((await credits(owner)).balance).toBe(start + 1000)

    // Receipts: both payments, numbered, as a page and as a download.
    const list = await suite.call('GET', org(owner, '/payments?status=paid'), {
      cookie: owner.cookie,
    })
    const items = (
      list.body as { items: { paymentId: string; receiptNumber: string; amount: number }[] }
    ).items
    expect(items).toHaveLength(2)
    for (const item of items) expect(item.receiptNumber).toMatch(/^R-\d{6}$/)
    expect(new Set(items.map((item) => item.receiptNumber)).size).toBe(2)
    const receipt = await fetch(
      `${suite.server.url}${org(owner, `/payments/${paymentId}/receipt`)}`,
      {
        headers: { cookie: `bg.session=${owner.cookie}` },
      },
    )
    expect(receipt.status).toBe(200)
    expect(receipt.headers.get('content-type')).toContain('text/html')
    const html = await receipt.text()
    expect(html).toContain(owner.organisation.cloudName)
    expect(html).toContain('9.00 USD')
    expect(html).toContain('Subscription: Starter')
    const download = await fetch(
      `${suite.server.url}${org(owner, `/payments/${paymentId}/receipt`)}?download=1`,
      { headers: { cookie: `bg.session=${owner.cookie}` } },
    )
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="tessera-receipt-R-\d{6}\.html"$/,
    )
    await download.arrayBuffer()

    // Cancel at period end: asked of Stripe, kept here; and taken back.
    const canceled = await suite.call('POST', org(owner, '/subscription/cancel'), {
      cookie: owner.cookie,
    })
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200)
    expect(
      standIn.requests.findLast((request) => request.path === `/v1/subscriptions/${subscriptionId}`)
        ?.form,
    ).toEqual({ cancel_at_period_end: 'true' })
    now = await credits(owner)
    expect(now.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true })
    const resumed = await suite.call('POST', org(owner, '/subscription/resume'), {
      cookie: owner.cookie,
    })
    expect(resumed.status).toBe(200)
    expect((await credits(owner)).subscription?.cancelAtPeriodEnd).toBe(false)
    // Canceled in Stripe's portal: its event is followed here.
    await deliver({
      id: 'evt_sub_upd',
      type: 'customer.subscription.updated',
      data: {
        object: {
          id: subscriptionId,
          object: 'subscription',
          status: 'active',
          cancel_at_period_end: true,
        },
      },
    })
    expect((await credits(owner)).subscription?.cancelAtPeriodEnd).toBe(true)

    // The customer portal.
    const portal = await suite.call('POST', org(owner, '/billing-portal'), {
      cookie: owner.cookie,
      body: { returnUrl: '/console' },
    })
    expect(portal.status, JSON.stringify(portal.body)).toBe(201)
    expect((portal.body as { url: string }).url).toMatch(/^https:\/\/billing\.stripe\.com\//)
    expect(
      standIn.requests.findLast((request) => request.path === '/v1/billing_portal/sessions')?.form
        .customer,
    ).toBe('cus_tessera_1')

    // The period over, Stripe ends the subscription: back on the free plan, credits kept.
    await deliver({
      id: 'evt_sub_del',
      type: 'customer.subscription.deleted',
      data: { object: { id: subscriptionId, object: 'subscription', status: 'canceled' } },
    })
    now = await credits(owner)
    expect(now.plan._id).toBe(suite.server.config.freePlan.id)
    expect(now.balance).toBe(start + 1000)
  })

  it('keeps receipts to owners and to paid payments, and refuses bad input', async () => {
    const owner = await suite.client.signup()
    const started = await suite.call('POST', org(owner, '/checkout'), {
      cookie: owner.cookie,
      body: { kind: 'topup', addonId: 101 },
    })
    const { paymentId } = started.body as { paymentId: string }
    const pending = await suite.call('GET', org(owner, `/payments/${paymentId}/receipt`), {
      cookie: owner.cookie,
    })
    expect(pending.status).toBe(404)
    expect(pending.body).toMatchObject({ code: 'receipt_not_found' })
    const stranger = await suite.client.signup()
    const foreign = await suite.call('GET', org(owner, `/payments/${paymentId}/receipt`), {
      cookie: stranger.cookie,
    })
    expect([403, 404]).toContain(foreign.status)
    const badQuery = await suite.call('GET', org(owner, '/payments?status=lost'), {
      cookie: owner.cookie,
    })
    expect(badQuery.status).toBe(400)
    const noSubscription = await suite.call('POST', org(owner, '/subscription/cancel'), {
      cookie: owner.cookie,
    })
    expect(noSubscription.status).toBe(404)
    const noCustomer = await suite.call('POST', org(owner, '/billing-portal'), {
      cookie: owner.cookie,
      body: {},
    })
    expect(noCustomer.status).toBe(404)
    // Stripe down (its retries too): 502, and no payment is recorded.
    standIn.fail('/v1/checkout/sessions', 5)
    const down = await suite.call('POST', org(owner, '/checkout'), {
      cookie: owner.cookie,
      body: { kind: 'topup', addonId: 102 },
    })
    expect(down.status).toBe(502)
    expect(down.body).toMatchObject({ code: 'payment_provider_error' })
    standIn.fail('/v1/checkout/sessions', 0)
    const listed = await suite.call('GET', org(owner, '/payments'), { cookie: owner.cookie })
    expect((listed.body as { items: unknown[] }).items).toHaveLength(1)
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
  })
})
