// Credits and payments (SPEC §3 payment state, §2.2 buy-subscription / buy-topup): the
// organisation's balance and ledger, checkouts of a plan or a top-up through the payment
// provider, the provider's webhook, and the test provider's checkout page. Credits are spent by
// AI operations (delivery's slow operations, prediction jobs) through `chargeCredits`.
import { randomUUID } from 'node:crypto'
import type { ParsedOperation } from '@tessera/url'
import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from './app.ts'
import { createAuth } from './auth.ts'
import type { AppContext } from './context.ts'
import type { CreditChange } from './db/billing-queries.ts'
import { isUuid } from './db/index.ts'
import type { CreditEntry, Payment, Plan, Subscription } from './db/schema.ts'
import { HttpError } from './http-error.ts'
import { jsonLimit, readBody } from './json-body.ts'
import {
  createPaymentProvider,
  type PaymentEvent,
  type PaymentProvider,
  TEST_CHECKOUT_PATH,
  TEST_CHECKOUT_REF,
  WebhookError,
} from './payments.ts'
import { BILLING } from './public-api.ts'
import { parseQuery, readQuery, wholeNumber } from './query.ts'

/** The organisation-scoped billing calls. */
export const BILLING_ORG = `${BILLING}/org/:orgId`
export const PAYMENT_WEBHOOK_PATH = '/service/webhooks/payments/:provider'
/** Credits one AI operation costs (a slow catalogue operation in delivery, or one prediction). */
export const CREDITS_PER_AI_OPERATION = 1
export const LEDGER_PAGE_SIZE = 20
// Any organisation id that is not a uuid is looked up as this one, which never exists, so the
// caller is still authenticated first (401 before 404).

// ── spending ─────────────────────────────────────────────────────────────────────────────────

/** The credits a chain of operations costs: one per AI (slow) operation. */
export function aiCreditsOf(operations: readonly ParsedOperation[]): number {
  return (
    operations.filter((operation) => operation.spec?.slow === true).length *
    CREDITS_PER_AI_OPERATION
  )
}

/** The 402 of a spend the balance cannot cover. */
export function insufficientCredits(change: { balance: number; needed: number }): HttpError {
  return new HttpError(
    402,
    'insufficient_credits',
    `This needs ${change.needed} credit${change.needed === 1 ? '' : 's'} and the organisation has ${change.balance}: buy a top-up or a subscription`,
  )
}

/**
 * Takes `credits` from the organisation for `reason` and `reference`, once: a second charge
 * with the same reference costs nothing.
 *
 * @throws {HttpError} 402 `insufficient_credits` when the balance is too low (nothing taken).
 */
export async function chargeCredits(
  repo: AppContext['repo'],
  organisationId: string,
  credits: number,
  reason: string,
  reference: string,
): Promise<CreditChange> {
  const change = await repo.spendCredits(organisationId, credits, reason, reference)
  if (change.status === 'insufficient') throw insufficientCredits(change)
  return change
}

// ── answers ──────────────────────────────────────────────────────────────────────────────────

function planJson(plan: Plan | undefined, planId: number) {
  if (plan === undefined) return { _id: planId }
  return {
    _id: plan.id,
    name: plan.name,
    amount: plan.amount,
    currency: plan.currency,
    interval: plan.interval,
    credits: plan.credits,
  }
}

function subscriptionJson(subscription: Subscription | undefined) {
  if (subscription === undefined) return null
  return {
    planId: subscription.planId,
    status: subscription.status,
    provider: subscription.provider,
    currentPeriodStart: subscription.currentPeriodStart.toISOString(),
    currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
  }
}

function entryJson(entry: CreditEntry) {
  return {
    _id: entry.id,
    delta: entry.delta,
    balance: entry.balance,
    reason: entry.reason,
    reference: entry.reference,
    createdAt: entry.createdAt.toISOString(),
  }
}

function paymentJson(payment: Payment, provider: PaymentProvider | undefined) {
  const checkoutUrl =
    payment.status === 'pending' && provider?.name === payment.provider
      ? provider.checkoutUrl(payment.providerRef)
      : undefined
  return {
    _id: payment.id,
    paymentId: payment.id,
    kind: payment.kind,
    itemId: payment.itemId,
    amount: payment.amount,
    currency: payment.currency,
    credits: payment.credits,
    status: payment.status,
    provider: payment.provider,
    ...(checkoutUrl === undefined ? {} : { checkoutUrl }),
    createdAt: payment.createdAt.toISOString(),
    completedAt: payment.completedAt?.toISOString() ?? null,
  }
}

const escapeHtml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`)

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}

function checkoutPage(payment: Payment, itemName: string, notice?: string): string {
  const price = `${payment.amount.toFixed(2)} ${payment.currency}`
  const what =
    payment.kind === 'subscription'
      ? `Subscription to ${itemName}: ${payment.credits} credits, then the plan's credits every period`
      : `Top-up ${itemName}: ${payment.credits} credits`
  const actions =
    payment.status === 'pending'
      ? `<form method="post" action="${payment.providerRef}/pay"><button type="submit">Pay ${escapeHtml(price)} (test)</button></form>
<form method="post" action="${payment.providerRef}/cancel"><button type="submit">Cancel</button></form>`
      : `<p><strong>This checkout is ${payment.status}.</strong>${payment.status === 'paid' ? ` ${payment.credits} credits were added.` : ''} You can close this page.</p>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Test checkout</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#27272a}form{display:inline-block;margin-right:.5rem}button{height:40px;padding:0 1rem;font-size:1rem}.note{color:#71717a}</style>
</head><body>
<h1>Test checkout</h1>
<p class="note">Test mode: no money moves. Paying here settles the payment the way a provider's webhook would.</p>
${notice === undefined ? '' : `<p><strong>${escapeHtml(notice)}</strong></p>`}
<p>${escapeHtml(what)}</p>
<p>Price: ${escapeHtml(price)}</p>
${actions}
</body></html>`
}

// ── input ────────────────────────────────────────────────────────────────────────────────────

const itemId = (what: string) =>
  z
    .number({ error: `must be a number (the ${what} id)` })
    .int(`must be a whole number (the ${what} id)`)
    .min(-2_147_483_648, `is not a ${what} id`)
    .max(2_147_483_647, `is not a ${what} id`)

const checkoutBody = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('subscription'), planId: itemId('plan') }),
    z.strictObject({ kind: z.literal('topup'), addonId: itemId('addon') }),
  ],
  { error: 'must be subscription or topup' },
)

const ledgerQuery = z.object({
  pageNo: wholeNumber(1, 100_000).default(1),
  pageSize: wholeNumber(1, 100).default(LEDGER_PAGE_SIZE),
})

// ── routes ───────────────────────────────────────────────────────────────────────────────────

/**
 * Registers the credits, checkout, webhook and test-checkout routes (docs/api.md, "Credits,
 * payments and predictions").
 */
export function registerBillingApi(hono: Hono<AppEnv>, app: AppContext): void {
  const { repo, logger } = app
  const auth = createAuth(app)
  const provider = createPaymentProvider(app.config)

  async function itemName(payment: Payment): Promise<string> {
    const item =
      payment.kind === 'subscription'
        ? await repo.findActivePlan(payment.itemId)
        : await repo.findActiveAddon(payment.itemId)
    return item?.name ?? `#${payment.itemId}`
  }

  /**
   * Applies a provider's event: the one way a payment is completed, for webhooks and the test
   * checkout page alike. Idempotent: a payment settles once, its credits are granted once.
   */
  async function settle(providerName: string, event: PaymentEvent) {
    const settled = await repo.settlePayment(providerName, event.providerRef, event.outcome)
    if (settled === undefined) {
      throw new HttpError(404, 'payment_not_found', 'No checkout has this reference')
    }
    const { payment, changed } = settled
    if (changed) {
      logger.info(
        { paymentId: payment.id, organisationId: payment.organisationId, status: payment.status },
        'payment settled',
      )
    } else if (payment.status !== event.outcome) {
      // A provider saying "paid" for a checkout settled otherwise needs a person to look at it.
      logger.warn(
        { paymentId: payment.id, status: payment.status, outcome: event.outcome },
        'payment event for a settled checkout ignored',
      )
    }
    return settled
  }

  hono.get(`${BILLING_ORG}/credits`, async (c) => {
    c.set('route', 'billing')
    const caller = await auth.requirePathOrganisation(c)
    const summary = await repo.creditSummary(caller.organisation.id)
    if (summary === undefined) throw new HttpError(404, 'organisation_not_found', 'Gone')
    return c.json(
      {
        balance: summary.organisation.credits,
        plan: planJson(summary.plan, summary.organisation.planId),
        subscription: subscriptionJson(summary.subscription),
      },
      200,
      { 'cache-control': 'no-store' },
    )
  })

  hono.get(`${BILLING_ORG}/credits/ledger`, async (c) => {
    c.set('route', 'billing')
    const caller = await auth.requirePathOrganisation(c)
    const query = parseQuery(readQuery(c.req.url), ledgerQuery)
    const page = await repo.listCreditLedger(caller.organisation.id, {
      limit: query.pageSize,
      offset: (query.pageNo - 1) * query.pageSize,
    })
    return c.json(
      {
        items: page.items.map(entryJson),
        page: {
          current: query.pageNo,
          size: query.pageSize,
          hasNext: query.pageNo * query.pageSize < page.total,
          itemTotal: page.total,
          type: 'number',
        },
      },
      200,
      { 'cache-control': 'no-store' },
    )
  })

  hono.post(`${BILLING_ORG}/checkout`, jsonLimit, async (c) => {
    c.set('route', 'billing')
    const caller = await auth.requirePathOrganisation(c, { owners: true })
    const body = await readBody(c, checkoutBody)
    if (provider === undefined) {
      throw new HttpError(
        503,
        'payments_unavailable',
        'Payments are turned off on this server (PAYMENT_PROVIDER=off)',
      )
    }
    const organisationId = caller.organisation.id
    let item: { id: number; name: string; amount: number; currency: string; credits: number }
    if (body.kind === 'subscription') {
      const plan = await repo.findActivePlan(body.planId)
      if (plan === undefined) {
        throw new HttpError(404, 'plan_not_found', `No plan ${body.planId} can be subscribed to`)
      }
      if (plan.id === app.config.freePlan.id || plan.amount <= 0) {
        throw new HttpError(
          400,
          'invalid_plan',
          `${plan.name} is free: every organisation starts on it, there is nothing to buy`,
        )
      }
      if (plan.custom) {
        throw new HttpError(
          400,
          'invalid_plan',
          `${plan.name} is a custom plan: it is arranged with us, not bought online`,
        )
      }
      const current = (await repo.creditSummary(organisationId))?.subscription
      if (
        current?.status === 'active' &&
        current.planId === plan.id &&
        current.currentPeriodEnd.getTime() > Date.now()
      ) {
        throw new HttpError(
          409,
          'already_subscribed',
          `The organisation is already subscribed to ${plan.name} until ${current.currentPeriodEnd.toISOString()}`,
        )
      }
      item = plan
    } else {
      const addon = await repo.findActiveAddon(body.addonId)
      if (addon === undefined) {
        throw new HttpError(404, 'addon_not_found', `No addon ${body.addonId} can be bought`)
      }
      if (addon.custom || addon.amount <= 0) {
        throw new HttpError(400, 'invalid_addon', `${addon.name} cannot be bought online`)
      }
      item = addon
    }
    const paymentId = randomUUID()
    const checkout = await provider.createCheckout({
      paymentId,
      organisationId,
      kind: body.kind,
      itemId: item.id,
      name: item.name,
      amount: item.amount,
      currency: item.currency,
      credits: item.credits,
    })
    const payment = await repo.createPayment(organisationId, {
      id: paymentId,
      kind: body.kind,
      itemId: item.id,
      amount: item.amount,
      currency: item.currency,
      credits: item.credits,
      provider: provider.name,
      providerRef: checkout.providerRef,
      createdBy: caller.user?.id ?? null,
    })
    return c.json(
      {
        paymentId: payment.id,
        checkoutUrl: checkout.checkoutUrl,
        status: payment.status,
        payment: paymentJson(payment, provider),
      },
      201,
      { 'cache-control': 'no-store' },
    )
  })

  hono.get(`${BILLING_ORG}/payments/:paymentId`, async (c) => {
    c.set('route', 'billing')
    const caller = await auth.requirePathOrganisation(c)
    const paymentId = c.req.param('paymentId')
    const payment = isUuid(paymentId)
      ? await repo.findPayment(caller.organisation.id, paymentId)
      : undefined
    if (payment === undefined) {
      throw new HttpError(
        404,
        'payment_not_found',
        `No payment ${JSON.stringify(paymentId.slice(0, 64))} in this organisation`,
      )
    }
    return c.json(paymentJson(payment, provider), 200, { 'cache-control': 'no-store' })
  })

  // ── the provider's side ────────────────────────────────────────────────────────────────────

  hono.post(PAYMENT_WEBHOOK_PATH, jsonLimit, async (c) => {
    c.set('route', 'webhook')
    const name = c.req.param('provider')
    if (provider === undefined || name !== provider.name) {
      throw new HttpError(
        404,
        'unknown_provider',
        `No payment provider ${JSON.stringify(name.slice(0, 32))} is configured`,
      )
    }
    const raw = await c.req.text()
    let event: PaymentEvent
    try {
      event = provider.verifyWebhook({ body: raw, headers: c.req.raw.headers })
    } catch (error) {
      if (error instanceof WebhookError) throw new HttpError(400, error.code, error.message)
      throw error
    }
    const { payment, changed } = await settle(provider.name, event)
    return c.json({ received: true, paymentId: payment.id, status: payment.status, changed })
  })

  // The test provider's hosted checkout. Its reference is an unguessable capability (like a
  // provider's checkout session id), so the page needs no session and no request signature.
  const testCheckout = async (c: Context) => {
    if (provider?.name !== 'test') {
      throw new HttpError(404, 'unknown_provider', 'The test payment provider is not enabled')
    }
    const ref = c.req.param('ref') ?? ''
    if (!TEST_CHECKOUT_REF.test(ref)) {
      throw new HttpError(
        400,
        'invalid_checkout',
        'A test checkout reference is tpc_ and 43 characters',
      )
    }
    const payment = await repo.findPaymentByProviderRef(provider.name, ref)
    if (payment === undefined) {
      throw new HttpError(404, 'payment_not_found', 'No checkout has this reference')
    }
    return { payment, ref }
  }

  hono.get(`${TEST_CHECKOUT_PATH}/:ref`, async (c) => {
    c.set('route', 'test-checkout')
    const { payment } = await testCheckout(c)
    return c.body(checkoutPage(payment, await itemName(payment)), 200, HTML_HEADERS)
  })

  for (const [action, outcome] of [
    ['pay', 'paid'],
    ['cancel', 'canceled'],
  ] as const) {
    hono.post(`${TEST_CHECKOUT_PATH}/:ref/${action}`, async (c) => {
      c.set('route', 'test-checkout')
      const { ref } = await testCheckout(c)
      const { payment } = await settle('test', { providerRef: ref, outcome })
      if (payment.status !== outcome) {
        // Paying a canceled checkout (or canceling a paid one) changes nothing.
        return c.body(
          checkoutPage(
            payment,
            await itemName(payment),
            `This checkout is already ${payment.status}`,
          ),
          409,
          HTML_HEADERS,
        )
      }
      // Post/redirect/get: reloading the answer does not post again (it would change nothing).
      return c.redirect(`${TEST_CHECKOUT_PATH}/${ref}`, 303)
    })
  }
}
