// The payment provider's side: its signed webhooks (mounted under `PAYMENT_WEBHOOK_BASE`), and
// the test provider's hosted checkout page (under `TEST_CHECKOUT_PATH`). Both settle payments
// through `settlement.ts`, the one way a payment is completed.
import { randomUUID } from 'node:crypto'
import { type Context, Hono } from 'hono'
import type { AppContext, AppEnv } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit } from '../http/json-body.ts'
import { readQuery, singleValue } from '../http/query.ts'
import { checkoutPage, checkoutPageHeaders } from './checkout-page.ts'
import { TEST_CHECKOUT_PATH } from './paths.ts'
import {
  type PaymentEvent,
  type PaymentProvider,
  type ProviderEvent,
  TEST_CHECKOUT_REF,
  TEST_RETURN_PARAM,
  TEST_RETURN_SIGNATURE_PARAM,
  WebhookError,
} from './payments.ts'
import {
  consoleOrigin,
  consoleReturnUrl,
  MAX_RETURN_URL,
  type ReturnSigner,
  returnWith,
} from './return-url.ts'
import type { Settlement } from './settlement.ts'

/** `POST /{provider}`: a provider's signed event about a checkout. */
export function paymentWebhookRoutes(
  app: AppContext,
  {
    payments: provider,
    settlement,
  }: { payments: PaymentProvider | undefined; settlement: Settlement },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { settle } = settlement
  const { repo } = app

  /**
   * A subscription's new period paid at the provider: recorded as a payment of its own (the
   * provider's reference, so a replayed event changes nothing) that grants the plan's credits
   * again and gets a receipt.
   */
  async function renewal(name: string, event: Extract<ProviderEvent, { kind: 'renewal' }>) {
    const subscription = await repo.findSubscriptionByProviderId(event.providerSubscriptionId)
    if (subscription === undefined) {
      throw new HttpError(404, 'payment_not_found', 'No subscription has this reference')
    }
    if ((await repo.findPaymentByProviderRef(name, event.providerRef)) === undefined) {
      const plan = await repo.findActivePlan(subscription.planId)
      await repo.createPayment(subscription.organisationId, {
        id: randomUUID(),
        kind: 'subscription',
        itemId: subscription.planId,
        amount: event.amount,
        currency: event.currency,
        credits: plan?.credits ?? 0,
        provider: name,
        providerRef: event.providerRef,
        createdBy: null,
      })
    }
    const settled = await settle(name, { providerRef: event.providerRef, outcome: 'paid' })
    await repo.setSubscriptionProviderIds(subscription.organisationId, {
      providerSubscriptionId: subscription.providerSubscriptionId,
      providerCustomerId: subscription.providerCustomerId,
    })
    return settled
  }

  /** The provider's subscription changed: canceled at period end, resumed, or ended. */
  async function subscriptionEvent(
    _name: string,
    event: Extract<ProviderEvent, { kind: 'subscription' }>,
  ): Promise<boolean> {
    const subscription = await repo.findSubscriptionByProviderId(event.providerSubscriptionId)
    if (subscription === undefined) return false
    if (event.ended) {
      await repo.endSubscription(subscription.organisationId, app.config.freePlan.id)
      return true
    }
    if (subscription.cancelAtPeriodEnd === event.cancelAtPeriodEnd) return false
    await repo.setSubscriptionCancel(subscription.organisationId, event.cancelAtPeriodEnd)
    return true
  }

  router.post('/:provider', jsonLimit, async (c) => {
    const name = c.req.param('provider')
    if (provider === undefined || name !== provider.name) {
      throw new HttpError(
        404,
        'unknown_provider',
        `No payment provider ${JSON.stringify(name.slice(0, 32))} is configured`,
      )
    }
    const raw = await c.req.text()
    let event: PaymentEvent | ProviderEvent
    try {
      event = await provider.verifyWebhook({ body: raw, headers: c.req.raw.headers })
    } catch (error) {
      if (error instanceof WebhookError) throw new HttpError(400, error.code, error.message)
      throw error
    }
    if (event.kind === 'ignored') return c.json({ received: true, ignored: event.type })
    if (event.kind === 'subscription') {
      const changed = await subscriptionEvent(provider.name, event)
      return c.json({ received: true, changed })
    }
    const { payment, changed } =
      event.kind === 'renewal'
        ? await renewal(provider.name, event)
        : await settle(provider.name, event)
    if (event.kind !== 'renewal' && event.subscription !== undefined && payment.status === 'paid') {
      await app.repo.setSubscriptionProviderIds(payment.organisationId, event.subscription)
    }
    return c.json({
      received: true,
      paymentId: payment.id,
      status: payment.status,
      changed,
    })
  })
  return router
}

/**
 * The test provider's hosted checkout: `GET /{ref}` shows it, `POST /{ref}/pay` and
 * `/{ref}/cancel` settle it. Its reference is an unguessable capability (like a provider's
 * checkout session id), so the page needs no session and no request signature. A checkout made
 * with a return address carries it (`?return=…&rs=<HMAC>`): paying or canceling then answers
 * 303 to that console page with `paymentId` and `status` added.
 */
export function testCheckoutRoutes(
  app: AppContext,
  {
    payments: provider,
    settlement,
    returns,
  }: { payments: PaymentProvider | undefined; settlement: Settlement; returns: ReturnSigner },
): Hono<AppEnv> {
  const { repo } = app
  const router = new Hono<AppEnv>()
  const { settle, itemName } = settlement
  const pageHeaders = checkoutPageHeaders(consoleOrigin(app.config))

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
    const back = returnOf(c.req.url, ref)
    const payment = await repo.findPaymentByProviderRef(provider.name, ref)
    if (payment === undefined) {
      throw new HttpError(404, 'payment_not_found', 'No checkout has this reference')
    }
    return { payment, ref, back }
  }

  /** The checkout's return address, when its URL carries one with a good signature. */
  function returnOf(url: string, ref: string): { url: URL; query: string } | undefined {
    const query = readQuery(url, MAX_RETURN_URL)
    const given = singleValue(query, TEST_RETURN_PARAM)
    const signature = singleValue(query, TEST_RETURN_SIGNATURE_PARAM)
    if (given === undefined && signature === undefined) return undefined
    const checked = given === undefined ? undefined : consoleReturnUrl(given, app.config)
    if (
      given === undefined ||
      signature === undefined ||
      checked === undefined ||
      !returns.verify(ref, given, signature)
    ) {
      throw new HttpError(
        400,
        'invalid_return_url',
        'The return address of this checkout is not the one it was made with',
      )
    }
    const params = new URLSearchParams({
      [TEST_RETURN_PARAM]: given,
      [TEST_RETURN_SIGNATURE_PARAM]: signature,
    })
    return { url: checked, query: `?${params}` }
  }

  router.get('/:ref', async (c) => {
    const { payment, back } = await testCheckout(c)
    return c.body(checkoutPage(payment, await itemName(payment), { back }), 200, pageHeaders)
  })

  for (const [action, outcome] of [
    ['pay', 'paid'],
    ['cancel', 'canceled'],
  ] as const) {
    router.post(`/:ref/${action}`, async (c) => {
      const { ref, back } = await testCheckout(c)
      const { payment } = await settle('test', { providerRef: ref, outcome })
      // Back to the console with what happened (which it reads again from the API: the query
      // is only a hint), whatever was clicked: a second click changes nothing.
      if (back !== undefined) {
        return c.redirect(returnWith(back.url, payment.id, payment.status), 303)
      }
      if (payment.status !== outcome) {
        // Paying a canceled checkout (or canceling a paid one) changes nothing.
        return c.body(
          checkoutPage(payment, await itemName(payment), {
            notice: `This checkout is already ${payment.status}`,
          }),
          409,
          pageHeaders,
        )
      }
      // Post/redirect/get: reloading the answer does not post again (it would change nothing).
      return c.redirect(`${TEST_CHECKOUT_PATH}/${ref}`, 303)
    })
  }
  return router
}
