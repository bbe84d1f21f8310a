// The declared calls of an organisation's credits, ledger and checkout, the payment webhooks
// and the test checkout.
import { z } from 'zod'
import {
  type ApiPart,
  calls,
  dateTime,
  failure,
  formatted,
  JSON_BODY_LIMITS,
  json,
  orgCalls,
  pagedList,
  ref,
  uuidParam,
} from '../http/openapi-kit.ts'

import { BILLING_ORG_BASE, PAYMENT_WEBHOOK_BASE, TEST_CHECKOUT_PATH } from './paths.ts'
import { checkoutBody, ledgerQuery, paymentsQuery, portalBody } from './requests.ts'

/** The test checkout page's reference, in its path. */
const testCheckoutParams = {
  ref: z
    .string()
    .regex(/^tpc_[A-Za-z0-9_-]{43}$/)
    .meta({ example: 'tpc_example' })
    .describe('The test checkout reference: tpc_ and 43 characters (from checkoutUrl)'),
}

/** Where the test checkout goes back to, and the signature of that address. */
const testCheckoutQuery = z.object({
  return: z
    .string()
    .max(2048)
    .describe(
      'The console page the checkout goes back to (set by the server in checkoutUrl when the checkout was made with returnUrl)',
    )
    .optional(),
  rs: z
    .string()
    .describe('The HMAC of the reference and the return address (set with return)')
    .optional(),
})

const credits = orgCalls(BILLING_ORG_BASE, 'credits')
const payments = calls('', 'payments')
const ONLY_OWNERS = { '403': failure('forbidden: only owners') }

/** The test checkout page's calls: its reference, return address and failures. */
const testCheckout = {
  params: testCheckoutParams,
  query: testCheckoutQuery,
  responses: {
    '400': failure(
      'invalid_checkout: not a test checkout reference; invalid_return_url: return or rs missing, altered or not a console page',
    ),
    '404': failure('payment_not_found, or unknown_provider when test payments are off'),
  },
}

// The test checkout page's two buttons (pay, cancel): the same call but for what it settles.
const settleTestCheckout = (action: 'pay' | 'cancel', operationId: string, summary: string) =>
  payments.post(`${TEST_CHECKOUT_PATH}/{ref}/${action}`, operationId, {
    ...testCheckout,
    summary,
    description:
      'The buttons of the test checkout page post here (no session or signature: the reference is the capability). Settles the payment through the same path as the provider webhook.',
    responses: {
      '303': {
        description:
          'Settled (or already settled): back to the return address with ?paymentId=…&status=…, or without one to the checkout page',
        headers: { Location: { schema: z.string() } },
      },
      ...testCheckout.responses,
      '409': {
        description: 'The checkout was already settled the other way (and has no return address)',
        content: { 'text/html': { schema: z.string() } },
      },
    },
  })

export const BILLING_API: ApiPart = {
  tags: [
    {
      name: 'credits',
      description:
        "An organisation's credits, ledger and checkouts (plans and top-ups). AI operations and prediction jobs spend credits; 402 insufficient_credits when they run out.",
    },
    {
      name: 'payments',
      description:
        'The payment provider side: signed webhooks, and the test provider checkout page (PAYMENT_PROVIDER=test)',
    },
  ],
  schemas: {
    Credits: z.object({
      balance: z.int().describe('Credits left'),
      plan: z.object({
        _id: z.int().describe('The plan id (-994: the free plan)'),
        name: z.string().optional(),
        amount: z.number().optional(),
        currency: z.string().optional(),
        interval: z.string().optional(),
        credits: z.int().describe('Credits the plan grants per period').optional(),
      }),
      subscription: z
        .object({
          planId: z.int().optional(),
          status: z.enum(['active', 'canceled']).optional(),
          provider: z.string().optional(),
          currentPeriodStart: dateTime.optional(),
          currentPeriodEnd: dateTime.optional(),
          cancelAtPeriodEnd: z
            .boolean()
            .describe('Canceled by the owner: runs to currentPeriodEnd, not renewed')
            .optional(),
        })
        .nullable()
        .describe('The paid subscription, or null on the free plan'),
    }),
    CreditEntry: z.object({
      _id: z.string(),
      delta: z.int().describe('Credits added (positive) or spent (negative)'),
      balance: z.int().describe('The balance after this entry'),
      reason: z
        .string()
        .describe(
          'free_plan, subscription, topup, ai_transformation, prediction, prediction_refund, …',
        ),
      reference: z.string().nullable().describe('A payment, job or cache key'),
      createdAt: dateTime,
    }),
    CreditLedger: pagedList('CreditEntry'),
    Payment: z.object({
      _id: z.string(),
      paymentId: z.string(),
      kind: z.enum(['subscription', 'topup']),
      itemId: z.int().describe('The plan or addon id'),
      amount: z.number(),
      currency: z.string(),
      credits: z.int().describe('Credits granted when paid'),
      status: z.enum(['pending', 'paid', 'failed', 'canceled']),
      provider: z.string(),
      checkoutUrl: formatted('uri').describe('While pending').optional(),
      createdAt: dateTime,
      completedAt: dateTime.nullable(),
      receiptNumber: z
        .string()
        .nullable()
        .describe('R-000042: the receipt of a paid payment (null until paid)'),
    }),
    PaymentList: pagedList('Payment'),
    CheckoutStarted: z.object({
      paymentId: z.string(),
      checkoutUrl: formatted('uri'),
      status: z.literal('pending'),
      payment: ref('Payment'),
    }),
  },
  routes: [
    credits.get('/credits', 'getCredits', 'viewer', {
      summary: 'Balance, plan and subscription',
      responses: { '200': json(ref('Credits'), 'The balance (members and API tokens)') },
    }),
    credits.get('/credits/ledger', 'listCreditLedger', 'viewer', {
      summary: 'Every change of the balance, newest first',
      query: ledgerQuery,
      responses: {
        '200': json(ref('CreditLedger'), 'One page of the ledger'),
        '400': failure('invalid_query: pageNo or pageSize out of range'),
      },
    }),
    credits.post('/checkout', 'createCheckout', 'owner', {
      summary: 'Buy a subscription to a plan or a top-up addon (owners only)',
      body: { schema: checkoutBody, example: { kind: 'topup', addonId: 101 } },
      responses: {
        '201': json(ref('CheckoutStarted'), 'Open checkoutUrl to pay'),
        '400': failure(
          'invalid_body, invalid_plan (free or custom plan), invalid_addon, invalid_return_url (returnUrl is not a console page), invalid_json or signature_*',
        ),
        '403': failure('forbidden: members and API tokens cannot buy'),
        '404': failure('organisation_not_found, plan_not_found or addon_not_found'),
        '409': failure('already_subscribed: the plan is the active subscription'),
        ...JSON_BODY_LIMITS,
        '502': failure('payment_provider_error: Stripe refused or could not be reached'),
        '503': failure('payments_unavailable: PAYMENT_PROVIDER=off'),
      },
    }),
    credits.get('/payments/{paymentId}', 'getPayment', 'viewer', {
      summary: 'A checkout and its status',
      params: { paymentId: uuidParam('The paymentId of the checkout') },
      responses: {
        '200': json(ref('Payment'), 'The payment'),
        '404': failure('organisation_not_found or payment_not_found'),
      },
    }),
    credits.get('/payments', 'listPayments', 'viewer', {
      summary: "The organisation's payments, newest first (status=paid: those with a receipt)",
      query: paymentsQuery,
      responses: {
        '200': json(ref('PaymentList'), 'One page of payments'),
        '400': failure('invalid_query: pageNo, pageSize or status out of range'),
      },
    }),
    credits.get('/payments/{paymentId}/receipt', 'getReceipt', 'owner', {
      summary: 'The receipt of a paid payment, as an HTML page (owners only)',
      description:
        'Numbered (R-000042) when the payment was paid; names the organisation, the plan or top-up, the amount and the date. With download=1 the same page comes as an attachment (tessera-receipt-R-000042.html).',
      params: { paymentId: uuidParam('The paymentId of the payment') },
      query: z.object({
        download: z.enum(['1', 'true']).describe('Answer as a file to save').optional(),
      }),
      responses: {
        '200': { description: 'The receipt', content: { 'text/html': { schema: z.string() } } },
        '400': failure('invalid_query: download is not 1 or true'),
        '403': failure('forbidden: only owners see receipts'),
        '404': failure('payment_not_found, or receipt_not_found (the payment is not paid)'),
      },
    }),
    ...(['cancel', 'resume'] as const).map((action) =>
      credits.post(`/subscription/${action}`, `${action}Subscription`, 'owner', {
        summary:
          action === 'cancel'
            ? 'Cancel the subscription at the end of its period (owners only)'
            : 'Take a cancellation back: the subscription renews (owners only)',
        responses: {
          '200': json(
            z.object({ subscription: z.looseObject({}) }),
            'The subscription as it is now',
          ),
          ...ONLY_OWNERS,
          '404': failure('subscription_not_found: the organisation has no subscription'),
          '409': failure('subscription_ended: its period is over'),
        },
      }),
    ),
    credits.post('/billing-portal', 'openBillingPortal', 'owner', {
      summary: "The payment provider's customer portal (Stripe), for owners",
      body: { schema: portalBody, example: { returnUrl: '/console' } },
      responses: {
        '201': json(
          z.object({ url: formatted('uri') }),
          'Open url to manage cards, invoices and the subscription at the provider',
        ),
        '400': failure('invalid_return_url, invalid_body or invalid_json'),
        ...ONLY_OWNERS,
        '404': failure('customer_not_found: no customer with the provider yet'),
        '503': failure('portal_unavailable: the provider has no portal (test, off)'),
      },
    }),
    payments.post(`${PAYMENT_WEBHOOK_BASE}/{provider}`, 'paymentWebhook', {
      summary: "The payment provider's signed event: a checkout paid, failed or canceled",
      description:
        'Test provider: body { providerRef, outcome: paid|failed|canceled }, header x-test-payments-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">. Stripe (provider stripe): its events as sent, verified with Stripe-Signature by the stripe library (checkout.session.completed / async_payment_succeeded / async_payment_failed / expired, invoice.paid renewals, customer.subscription.updated / deleted; other types are acknowledged and ignored). Idempotent: a payment settles once.',
      params: { provider: z.string().meta({ example: 'test' }) },
      body: { schema: z.record(z.string(), z.unknown()) },
      responses: {
        '200': json(
          z.object({
            received: z.literal(true),
            paymentId: z.string(),
            status: z.string(),
            changed: z.boolean().describe('False for a replayed or late event'),
          }),
          'The event was applied (or had been already)',
        ),
        '400': failure('webhook_signature (missing, wrong or stale) or webhook_payload'),
        '404': failure('unknown_provider or payment_not_found'),
        '413': failure('too_large'),
      },
    }),
    payments.get(`${TEST_CHECKOUT_PATH}/{ref}`, 'showTestCheckout', {
      ...testCheckout,
      summary: 'Test mode: the checkout page with Pay and Cancel buttons',
      responses: {
        '200': {
          description: 'The checkout page',
          content: { 'text/html': { schema: z.string() } },
        },
        ...testCheckout.responses,
      },
    }),
    settleTestCheckout(
      'pay',
      'payTestCheckout',
      'Test mode: pay the checkout (no money moves); grants its credits once',
    ),
    settleTestCheckout('cancel', 'cancelTestCheckout', 'Test mode: cancel the checkout'),
  ],
}
