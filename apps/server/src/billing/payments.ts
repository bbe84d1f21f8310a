// Payment providers: where a checkout is paid, and how the server learns the outcome. A real
// provider (Stripe, Razorpay, …) implements `PaymentProvider`: it opens a hosted checkout and
// later calls our webhook with a signed event. The test provider does the same with no money:
// its checkout page is served by this server, and paying there settles the payment through the
// same path a provider's webhook takes (`settlement.ts`).
import { createHmac, timingSafeEqual } from 'node:crypto'
import { randomToken } from '../accounts/auth.ts'
import type { ServerConfig } from '../config.ts'
import type { PaymentStatus } from '../db/schema.ts'
import { TEST_CHECKOUT_PATH } from './paths.ts'
import { createReturnSigner } from './return-url.ts'

/** A checkout about to be opened with the provider (our id is known, nothing is stored yet). */
export interface CheckoutRequest {
  paymentId: string
  organisationId: string
  kind: 'subscription' | 'topup'
  itemId: number
  name: string
  amount: number
  currency: string
  credits: number
  /** How often a subscription renews (its plan's interval). */
  interval?: 'month' | 'year'
  /**
   * A page of the console to send the buyer back to once the checkout is paid or canceled
   * (checked by `consoleReturnUrl`); the provider adds `paymentId` and `status` to it.
   */
  returnUrl?: string
}

export interface Checkout {
  /** The provider's id of the checkout; the webhook names the payment by it. */
  providerRef: string
  /** Where the buyer pays. */
  checkoutUrl: string
}

/** What a provider says happened to a checkout. */
export interface PaymentEvent {
  kind?: 'checkout'
  providerRef: string
  outcome: Exclude<PaymentStatus, 'pending'>
  /** The provider's subscription and customer a paid subscription checkout made (Stripe). */
  subscription?: { providerSubscriptionId: string | null; providerCustomerId: string | null }
}

/** The request a webhook handler sees: the raw body (signatures are over its bytes). */
export interface WebhookRequest {
  body: string
  headers: Headers
}

/** Thrown when a webhook is not authentic or not understood (answered 400). */
export class WebhookError extends Error {
  readonly code: 'webhook_signature' | 'webhook_payload'

  constructor(code: 'webhook_signature' | 'webhook_payload', message: string) {
    super(message)
    this.name = 'WebhookError'
    this.code = code
  }
}

export interface PaymentProvider {
  /** The name in the webhook path and in `payments.provider`. */
  readonly name: string
  /** Opens a checkout for the payment. */
  createCheckout(request: CheckoutRequest): Promise<Checkout>
  /** The URL of a checkout that may still be paid, if the provider can say without a call. */
  checkoutUrl(providerRef: string): string | undefined
  /**
   * Verifies a webhook call and reads the event it carries.
   *
   * @throws {WebhookError} for a missing or wrong signature, a stale one, or a body it cannot read.
   */
  verifyWebhook(
    request: WebhookRequest,
  ): PaymentEvent | ProviderEvent | Promise<PaymentEvent | ProviderEvent>
  /** Cancels (or resumes) the provider's subscription at its period's end. */
  cancelAtPeriodEnd?(providerSubscriptionId: string, cancel: boolean): Promise<void>
  /** A customer portal session's URL for `customerId`, coming back to `returnUrl`. */
  openPortal?(customerId: string, returnUrl: string): Promise<string>
}

/**
 * Events of a provider that are not a checkout's outcome: a subscription renewed (a new paid
 * period: its credits again), changed (canceled at period end, or resumed) or ended, and events
 * it sends that billing has no use for.
 */
export type ProviderEvent =
  | {
      kind: 'renewal'
      /** The provider's id of what was paid (Stripe's invoice), the renewal's reference. */
      providerRef: string
      providerSubscriptionId: string
      amount: number
      currency: string
    }
  | {
      kind: 'subscription'
      providerSubscriptionId: string
      cancelAtPeriodEnd: boolean
      ended: boolean
    }
  | { kind: 'ignored'; type: string }

/** The test provider's checkout references: `tpc_` and 43 random characters (a capability). */
export const TEST_CHECKOUT_REF = /^tpc_[A-Za-z0-9_-]{43}$/
/** The header carrying a test webhook's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const TEST_WEBHOOK_SIGNATURE_HEADER = 'x-test-payments-signature'
/** How old a webhook signature may be. */
export const WEBHOOK_TOLERANCE_SECONDS = 300

/**
 * The secret the test provider signs webhooks with, derived from the panel signing key so a
 * deployment needs no extra setting. It guards test credits only: no money moves in test mode.
 */
export function testWebhookSecret(config: Pick<ServerConfig, 'signing'>): string {
  return createHmac('sha256', config.signing.key)
    .update('tessera test payments webhook')
    .digest('hex')
}

/** The signature header value of a test webhook `body` sent at `seconds` (Unix time). */
export function signTestWebhook(secret: string, body: string, seconds: number): string {
  const digest = createHmac('sha256', secret).update(`${seconds}.${body}`).digest('hex')
  return `t=${seconds},v1=${digest}`
}

const OUTCOMES = new Set<string>(['paid', 'failed', 'canceled'])

/** The query parameters of a test checkout URL that carry its return address and its HMAC. */
export const TEST_RETURN_PARAM = 'return'
export const TEST_RETURN_SIGNATURE_PARAM = 'rs'

/** The test-mode provider: checkouts paid on a page of this server, no money involved. */
export function createTestPaymentProvider(
  config: Pick<ServerConfig, 'publicUrl' | 'signing'>,
  options: { now?: () => number } = {},
): PaymentProvider {
  const secret = testWebhookSecret(config)
  const returns = createReturnSigner(config)
  const now = options.now ?? Date.now
  const checkoutUrl = (providerRef: string) =>
    `${config.publicUrl}${TEST_CHECKOUT_PATH}/${providerRef}`
  return {
    name: 'test',
    async createCheckout(request) {
      const providerRef = `tpc_${randomToken()}`
      const url = new URL(checkoutUrl(providerRef))
      // Like a provider's success URL, the return address travels with the checkout: here in
      // its URL, with an HMAC so nobody can swap it.
      if (request.returnUrl !== undefined) {
        url.searchParams.set(TEST_RETURN_PARAM, request.returnUrl)
        url.searchParams.set(
          TEST_RETURN_SIGNATURE_PARAM,
          returns.sign(providerRef, request.returnUrl),
        )
      }
      return { providerRef, checkoutUrl: url.toString() }
    },
    checkoutUrl,
    verifyWebhook({ body, headers }) {
      const header = headers.get(TEST_WEBHOOK_SIGNATURE_HEADER)
      const match = header === null ? null : /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header)
      if (match === null) {
        throw new WebhookError(
          'webhook_signature',
          `The webhook must carry ${TEST_WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256>`,
        )
      }
      const seconds = Number(match[1])
      if (Math.abs(now() / 1000 - seconds) > WEBHOOK_TOLERANCE_SECONDS) {
        throw new WebhookError('webhook_signature', 'The webhook signature is too old')
      }
      const expected = Buffer.from(signTestWebhook(secret, body, seconds).slice(-64), 'hex')
      const given = Buffer.from(match[2] as string, 'hex')
      if (!timingSafeEqual(expected, given)) {
        throw new WebhookError('webhook_signature', 'The webhook signature does not match')
      }
      let event: unknown
      try {
        event = JSON.parse(body)
      } catch {
        throw new WebhookError('webhook_payload', 'The webhook body is not JSON')
      }
      const { providerRef, outcome } = (event ?? {}) as Record<string, unknown>
      if (typeof providerRef !== 'string' || !TEST_CHECKOUT_REF.test(providerRef)) {
        throw new WebhookError('webhook_payload', 'providerRef must be a test checkout reference')
      }
      if (typeof outcome !== 'string' || !OUTCOMES.has(outcome)) {
        throw new WebhookError('webhook_payload', 'outcome must be paid, failed or canceled')
      }
      return { providerRef, outcome: outcome as PaymentEvent['outcome'] }
    },
  }
}
