// The payment provider's side: its signed webhooks (mounted under `PAYMENT_WEBHOOK_BASE`), and
// the test provider's hosted checkout page (under `TEST_CHECKOUT_PATH`). Both settle payments
// through `settlement.ts`, the one way a payment is completed.
import { type Context, Hono } from 'hono'
import type { AppContext, AppEnv } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit } from '../http/json-body.ts'
import { CHECKOUT_PAGE_HEADERS, checkoutPage } from './checkout-page.ts'
import { TEST_CHECKOUT_PATH } from './paths.ts'
import {
  createPaymentProvider,
  type PaymentEvent,
  TEST_CHECKOUT_REF,
  WebhookError,
} from './payments.ts'
import { createSettlement } from './settlement.ts'

/** `POST /{provider}`: a provider's signed event about a checkout. */
export function paymentWebhookRoutes(app: AppContext): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const provider = createPaymentProvider(app.config)
  const { settle } = createSettlement(app)

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
    let event: PaymentEvent
    try {
      event = provider.verifyWebhook({ body: raw, headers: c.req.raw.headers })
    } catch (error) {
      if (error instanceof WebhookError) throw new HttpError(400, error.code, error.message)
      throw error
    }
    const { payment, changed } = await settle(provider.name, event)
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
 * checkout session id), so the page needs no session and no request signature.
 */
export function testCheckoutRoutes(app: AppContext): Hono<AppEnv> {
  const { repo } = app
  const router = new Hono<AppEnv>()
  const provider = createPaymentProvider(app.config)
  const { settle, itemName } = createSettlement(app)

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

  router.get('/:ref', async (c) => {
    const { payment } = await testCheckout(c)
    return c.body(checkoutPage(payment, await itemName(payment)), 200, CHECKOUT_PAGE_HEADERS)
  })

  for (const [action, outcome] of [
    ['pay', 'paid'],
    ['cancel', 'canceled'],
  ] as const) {
    router.post(`/:ref/${action}`, async (c) => {
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
          CHECKOUT_PAGE_HEADERS,
        )
      }
      // Post/redirect/get: reloading the answer does not post again (it would change nothing).
      return c.redirect(`${TEST_CHECKOUT_PATH}/${ref}`, 303)
    })
  }
  return router
}
