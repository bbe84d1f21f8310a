// Stripe as the payment provider (PAYMENT_PROVIDER=stripe), through its official library:
// a Checkout Session per payment (a subscription or a one-off top-up), webhooks verified with the
// library's signature check (`stripe.webhooks.constructEvent`) and read into billing's events,
// cancellation at period end, and the customer portal. Settling stays in settlement.ts, so a
// replayed event grants nothing twice. STRIPE_API_URL points the library at a local stand-in.
import Stripe from 'stripe'
import type { ServerConfig } from '../config.ts'
import {
  type Checkout,
  type CheckoutRequest,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderEvent,
  WebhookError,
} from './payments.ts'
import { returnWith } from './return-url.ts'

/** The header Stripe signs its webhooks in. */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature'

/** Stripe's settings (config/server-config.ts). */
type StripeSettings = NonNullable<ServerConfig['stripe']>

/** The Stripe client for `settings`: Stripe's API, or the address `STRIPE_API_URL` gives. */
export function createStripeClient(settings: StripeSettings): Stripe {
  const at = settings.apiUrl === undefined ? undefined : new URL(settings.apiUrl)
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(at === undefined
      ? {}
      : {
          host: at.hostname,
          port: at.port === '' ? (at.protocol === 'https:' ? 443 : 80) : Number(at.port),
          protocol: at.protocol === 'https:' ? 'https' : 'http',
        }),
  })
}

/** The id of a field Stripe gives as an id or as the expanded object. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { id?: unknown }).id === 'string'
  ) {
    return (value as { id: string }).id
  }
  return null
}

/** Minor units (cents) of an amount in `currency` (zero-decimal currencies have none). */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
])
export function minorUnits(amount: number, currency: string): number {
  return ZERO_DECIMAL.has(currency.toLowerCase()) ? Math.round(amount) : Math.round(amount * 100)
}
function majorUnits(amount: number, currency: string): number {
  return ZERO_DECIMAL.has(currency.toLowerCase()) ? amount : amount / 100
}

/** The Stripe provider over `client` (a `createStripeClient`). */
export function createStripePaymentProvider(
  settings: StripeSettings,
  options: { client?: Stripe; publicUrl: string },
): PaymentProvider {
  const stripe = options.client ?? createStripeClient(settings)

  function lineItem(request: CheckoutRequest, interval: 'month' | 'year' | undefined) {
    const price = settings.priceIds[String(request.itemId)]
    if (price !== undefined) return { price, quantity: 1 }
    // No Price configured: the checkout states the item's own name and amount.
    return {
      quantity: 1,
      price_data: {
        currency: request.currency.toLowerCase(),
        unit_amount: minorUnits(request.amount, request.currency),
        product_data: { name: request.name },
        ...(interval === undefined ? {} : { recurring: { interval } }),
      },
    }
  }

  return {
    name: 'stripe',
    async createCheckout(request): Promise<Checkout> {
      const subscription = request.kind === 'subscription'
      const back = new URL(request.returnUrl ?? `${options.publicUrl}/console`)
      const metadata = {
        paymentId: request.paymentId,
        organisationId: request.organisationId,
        kind: request.kind,
        itemId: String(request.itemId),
      }
      const session = await stripe.checkout.sessions.create(
        {
          mode: subscription ? 'subscription' : 'payment',
          line_items: [lineItem(request, subscription ? (request.interval ?? 'month') : undefined)],
          client_reference_id: request.paymentId,
          metadata,
          ...(subscription
            ? { subscription_data: { metadata } }
            : { customer_creation: 'always' as const, payment_intent_data: { metadata } }),
          // The console reads the payment from the API: the status here is only a hint.
          success_url: returnWith(back, request.paymentId, 'paid'),
          cancel_url: returnWith(back, request.paymentId, 'canceled'),
        },
        // One session per payment, even when the call is retried.
        { idempotencyKey: `checkout-${request.paymentId}` },
      )
      if (session.url === null || session.url === undefined) {
        throw new Error('Stripe answered a checkout session without a url')
      }
      return { providerRef: session.id, checkoutUrl: session.url }
    },
    // An open session's URL needs a call; the console follows the payment through the API.
    checkoutUrl: () => undefined,
    verifyWebhook({ body, headers }): PaymentEvent | ProviderEvent {
      const signature = headers.get(STRIPE_SIGNATURE_HEADER)
      if (signature === null) {
        throw new WebhookError(
          'webhook_signature',
          `The webhook must carry ${STRIPE_SIGNATURE_HEADER}`,
        )
      }
      let event: Stripe.Event
      try {
        event = stripe.webhooks.constructEvent(body, signature, settings.webhookSecret)
      } catch (error) {
        // The library's signature check failed (no matching signature, a stale timestamp), or
        // the signed body is not JSON.
        const message = error instanceof Error ? error.message : String(error)
        throw new WebhookError(
          error instanceof SyntaxError ? 'webhook_payload' : 'webhook_signature',
          `Stripe's signature check refused the webhook: ${message.split('\n')[0]}`,
        )
      }
      return readEvent(event)
    },
    async cancelAtPeriodEnd(providerSubscriptionId, cancel) {
      await stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: cancel })
    },
    async openPortal(customerId, returnUrl) {
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
      })
      return session.url
    },
  }
}

/** What a verified Stripe event means to billing. */
export function readEvent(event: Stripe.Event): PaymentEvent | ProviderEvent {
  const object = event.data.object as unknown as Record<string, unknown>
  const payload = (message: string): never => {
    throw new WebhookError('webhook_payload', message)
  }
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const id = idOf(object)
      if (id === null) return payload('The checkout session has no id')
      if (event.type === 'checkout.session.expired') return { providerRef: id, outcome: 'canceled' }
      if (event.type === 'checkout.session.async_payment_failed') {
        return { providerRef: id, outcome: 'failed' }
      }
      // Completed but not yet paid (a bank transfer): the async event settles it later.
      if (object.payment_status === 'unpaid')
        return { kind: 'ignored', type: `${event.type} (unpaid)` }
      return {
        providerRef: id,
        outcome: 'paid',
        subscription: {
          providerSubscriptionId: idOf(object.subscription),
          providerCustomerId: idOf(object.customer),
        },
      }
    }
    case 'invoice.paid': {
      // A subscription's first invoice is its checkout's; the later ones are its renewals.
      if (object.billing_reason !== 'subscription_cycle') {
        return { kind: 'ignored', type: `${event.type} (${String(object.billing_reason)})` }
      }
      const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null
      const subscription = idOf(parent?.subscription_details?.subscription ?? object.subscription)
      const id = idOf(object)
      if (subscription === null || id === null) return payload('The invoice names no subscription')
      const currency = typeof object.currency === 'string' ? object.currency : 'usd'
      const paid = typeof object.amount_paid === 'number' ? object.amount_paid : 0
      return {
        kind: 'renewal',
        providerRef: id,
        providerSubscriptionId: subscription,
        amount: majorUnits(paid, currency),
        currency: currency.toUpperCase(),
      }
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const id = idOf(object)
      if (id === null) return payload('The subscription has no id')
      return {
        kind: 'subscription',
        providerSubscriptionId: id,
        cancelAtPeriodEnd: object.cancel_at_period_end === true,
        ended: event.type === 'customer.subscription.deleted' || object.status === 'canceled',
      }
    }
    default:
      return { kind: 'ignored', type: event.type }
  }
}
