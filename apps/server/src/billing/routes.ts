// An organisation's credits and payments (SPEC §3 payment state, §2.2 buy-subscription /
// buy-topup): the balance and ledger, checkouts of a plan or a top-up through the payment
// provider, and the payments they made. Mounted under `…/billing/v1.0/org`; every call goes
// through `requirePathOrganisation`. Credits are spent by AI operations through `credits.ts`.
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import { actorOf, createActivityLog } from '../activity/activity.ts'
import type { AppContext, AppEnv } from '../context.ts'
import { isUuid } from '../db/index.ts'
import type { CreditEntry, Payment, Plan, Subscription } from '../db/schema.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readBody } from '../http/json-body.ts'
import { offsetOf, pageOf } from '../http/paging.ts'
import { pickJson } from '../http/pick-json.ts'
import { parseQuery, readQuery } from '../http/query.ts'
import type { PaymentProvider } from './payments.ts'
import { receiptFileName, receiptHeaders, receiptLabel, receiptPage } from './receipt.ts'
import { checkoutBody, ledgerQuery, paymentsQuery, portalBody } from './requests.ts'
import { consoleReturnUrl } from './return-url.ts'
import type { Settlement } from './settlement.ts'

// ── answers ──────────────────────────────────────────────────────────────────────────────────

function planJson(plan: Plan | undefined, planId: number) {
  if (plan === undefined) return { _id: planId }
  return {
    _id: plan.id,
    ...pickJson(plan, ['name', 'amount', 'currency', 'interval', 'credits']),
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
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
  }
}

function entryJson(entry: CreditEntry) {
  return {
    _id: entry.id,
    ...pickJson(entry, ['delta', 'balance', 'reason', 'reference', 'createdAt']),
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
    ...pickJson(payment, ['kind', 'itemId', 'amount', 'currency', 'credits', 'status']),
    provider: payment.provider,
    ...(checkoutUrl === undefined ? {} : { checkoutUrl }),
    ...pickJson(payment, ['createdAt', 'completedAt']),
    receiptNumber: payment.receiptNumber === null ? null : receiptLabel(payment.receiptNumber),
  }
}

/**
 * A call to the payment provider (Stripe's API): a failure there is answered 502, the
 * organisation's state left as it was.
 */
async function atProvider<T>(logger: AppContext['logger'], work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof HttpError) throw error
    logger.warn({ err: error }, 'the payment provider refused or could not be reached')
    throw new HttpError(
      502,
      'payment_provider_error',
      'The payment provider could not do this just now; try again in a moment',
    )
  }
}

// ── routes ───────────────────────────────────────────────────────────────────────────────────

/**
 * The credits, ledger, checkout and payment calls of an organisation (docs/api.md, "Credits,
 * payments and predictions"), relative to `BILLING_ORG_BASE`.
 */
export function billingRoutes(
  app: AppContext,
  {
    auth,
    payments: provider,
    settlement,
  }: { auth: Auth; payments: PaymentProvider | undefined; settlement: Settlement },
): Hono<AppEnv> {
  const { repo } = app
  const router = new Hono<AppEnv>()

  /** The organisation's payment `paymentId`, or 404. */
  async function paymentOf(organisationId: string, paymentId: string): Promise<Payment> {
    const payment = isUuid(paymentId)
      ? await repo.findPayment(organisationId, paymentId)
      : undefined
    if (payment === undefined) {
      throw new HttpError(
        404,
        'payment_not_found',
        `No payment ${JSON.stringify(paymentId.slice(0, 64))} in this organisation`,
      )
    }
    return payment
  }

  router.get(`/:orgId/credits`, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer' })
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

  router.get(`/:orgId/credits/ledger`, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer' })
    const query = parseQuery(readQuery(c.req.url), ledgerQuery)
    const page = await repo.listCreditLedger(caller.organisation.id, {
      limit: query.pageSize,
      offset: offsetOf(query),
    })
    return c.json(
      {
        items: page.items.map(entryJson),
        page: pageOf(query.pageNo, query.pageSize, page.total),
      },
      200,
      { 'cache-control': 'no-store' },
    )
  })

  router.post(`/:orgId/checkout`, jsonLimit, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'owner' })
    const body = await readBody(c, checkoutBody)
    const back =
      body.returnUrl === undefined ? undefined : consoleReturnUrl(body.returnUrl, app.config)
    if (body.returnUrl !== undefined && back === undefined) {
      throw new HttpError(
        400,
        'invalid_return_url',
        'returnUrl must be a page of the console (its origin and path), nothing else',
      )
    }
    if (provider === undefined) {
      throw new HttpError(
        503,
        'payments_unavailable',
        'Payments are turned off on this server (PAYMENT_PROVIDER=off)',
      )
    }
    const organisationId = caller.organisation.id
    let interval: 'month' | 'year' | undefined
    let item: {
      id: number
      name: string
      amount: number
      currency: string
      credits: number
    }
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
      interval = plan.interval.startsWith('yearly') ? 'year' : 'month'
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
    const checkout = await atProvider(app.logger, () =>
      provider.createCheckout({
        paymentId,
        organisationId,
        kind: body.kind,
        itemId: item.id,
        name: item.name,
        amount: item.amount,
        currency: item.currency,
        credits: item.credits,
        ...(interval === undefined ? {} : { interval }),
        ...(back === undefined ? {} : { returnUrl: back.toString() }),
      }),
    )
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
    await createActivityLog(app).record(organisationId, actorOf(caller), {
      kind: 'payment.checkout',
      target: item.name,
      details: { paymentId: payment.id, amount: item.amount, currency: item.currency },
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

  router.get(`/:orgId/payments/:paymentId`, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer' })
    const payment = await paymentOf(caller.organisation.id, c.req.param('paymentId'))
    return c.json(paymentJson(payment, provider), 200, {
      'cache-control': 'no-store',
    })
  })

  // The organisation's payments, newest first (`?status=paid`: those with a receipt).
  router.get(`/:orgId/payments`, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer' })
    const query = parseQuery(readQuery(c.req.url), paymentsQuery)
    const page = await repo.listPayments(caller.organisation.id, {
      limit: query.pageSize,
      offset: offsetOf(query),
      ...(query.status === undefined ? {} : { status: query.status }),
    })
    return c.json(
      {
        items: page.items.map((payment) => paymentJson(payment, provider)),
        page: pageOf(query.pageNo, query.pageSize, page.total),
      },
      200,
      { 'cache-control': 'no-store' },
    )
  })

  // A paid payment's receipt: an HTML page, or with `?download=1` the same as a file. Owners
  // only, like buying: it names the organisation and what it paid.
  router.get(`/:orgId/payments/:paymentId/receipt`, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'owner' })
    const payment = await paymentOf(caller.organisation.id, c.req.param('paymentId'))
    const { receiptNumber, completedAt } = payment
    if (payment.status !== 'paid' || receiptNumber === null || completedAt === null) {
      throw new HttpError(
        404,
        'receipt_not_found',
        `This payment is ${payment.status}: only paid payments have a receipt`,
      )
    }
    const download = c.req.query('download')
    if (download !== undefined && download !== '1' && download !== 'true') {
      throw new HttpError(400, 'invalid_query', 'download must be 1 or true when given')
    }
    const page = receiptPage({
      payment: { ...payment, receiptNumber, completedAt },
      organisation: {
        name: caller.organisation.name,
        cloudName: caller.organisation.cloudName,
      },
      itemName: await settlement.itemName(payment),
    })
    return c.body(
      page,
      200,
      receiptHeaders(download === undefined ? undefined : receiptFileName(receiptNumber)),
    )
  })

  // Cancel the subscription at the end of its period (it runs until then and is not renewed),
  // or take the cancellation back. Owners only.
  for (const [action, cancel] of [
    ['cancel', true],
    ['resume', false],
  ] as const) {
    router.post(`/:orgId/subscription/${action}`, async (c) => {
      const caller = await auth.requirePathOrganisation(c, { role: 'owner' })
      const organisationId = caller.organisation.id
      const current = (await repo.creditSummary(organisationId))?.subscription
      if (current === undefined || current.status !== 'active') {
        throw new HttpError(404, 'subscription_not_found', 'The organisation has no subscription')
      }
      if (current.currentPeriodEnd.getTime() <= Date.now()) {
        throw new HttpError(409, 'subscription_ended', 'The subscription has already ended')
      }
      // The provider first (Stripe renews on its own): our row follows what it accepted.
      if (current.providerSubscriptionId !== null && provider?.name === current.provider) {
        const { providerSubscriptionId } = current
        await atProvider(app.logger, async () =>
          provider.cancelAtPeriodEnd?.(providerSubscriptionId, cancel),
        )
      }
      const updated = await repo.setSubscriptionCancel(organisationId, cancel)
      return c.json({ subscription: subscriptionJson(updated) }, 200, {
        'cache-control': 'no-store',
      })
    })
  }

  // The provider's customer portal (Stripe's: cards, invoices, cancellation), for owners of an
  // organisation that has a customer there.
  router.post(`/:orgId/billing-portal`, jsonLimit, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'owner' })
    const body = await readBody(c, portalBody)
    const back =
      body.returnUrl === undefined ? undefined : consoleReturnUrl(body.returnUrl, app.config)
    if (body.returnUrl !== undefined && back === undefined) {
      throw new HttpError(400, 'invalid_return_url', 'returnUrl must be a page of the console')
    }
    if (provider?.openPortal === undefined) {
      throw new HttpError(
        503,
        'portal_unavailable',
        'The payment provider of this server has no customer portal (PAYMENT_PROVIDER=stripe has)',
      )
    }
    const current = (await repo.creditSummary(caller.organisation.id))?.subscription
    const customer = current?.provider === provider.name ? current.providerCustomerId : null
    if (customer === null || customer === undefined) {
      throw new HttpError(
        404,
        'customer_not_found',
        'The organisation has no customer with the payment provider yet (subscribe first)',
      )
    }
    const { openPortal } = provider
    const url = await atProvider(app.logger, () =>
      openPortal(customer, back?.toString() ?? `${app.config.publicUrl}/console`),
    )
    return c.json({ url }, 201, { 'cache-control': 'no-store' })
  })

  return router
}
