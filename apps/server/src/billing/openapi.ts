// The OpenAPI part of an organisation's credits, checkouts and payments, the payment webhooks and
// the test checkout page.
import {
  arrayOf,
  dateTime,
  failure,
  int,
  JSON_BODY_ERRORS,
  json,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiPart,
  type OpenApiResponse,
  object,
  orgIdParam,
  orgOperation,
  ref,
  str,
  uuidParam,
} from '../http/openapi-kit.ts'
import { BILLING_ORG_BASE, PAYMENT_WEBHOOK_BASE, TEST_CHECKOUT_PATH } from './paths.ts'

const BILLING = `${BILLING_ORG_BASE}/{orgId}`
const TEST_CHECKOUT = `${TEST_CHECKOUT_PATH}/{ref}`
const checkoutRef: OpenApiParameter = {
  name: 'ref',
  in: 'path',
  required: true,
  description: 'The test checkout reference: tpc_ and 43 characters (from checkoutUrl)',
  schema: { type: 'string', pattern: '^tpc_[A-Za-z0-9_-]{43}$' },
  // Not a real reference, so the example answers 400 invalid_checkout.
  example: 'tpc_example',
}

const returnParams: OpenApiParameter[] = [
  {
    name: 'return',
    in: 'query',
    description:
      'The console page the checkout goes back to (set by the server in checkoutUrl when the checkout was made with returnUrl)',
    schema: { type: 'string', maxLength: 2048 },
  },
  {
    name: 'rs',
    in: 'query',
    description: 'The HMAC of the reference and the return address (set with return)',
    schema: { type: 'string' },
  },
]

const returnUrl = str(
  'A page of the console (its origin, a path under WEB_CONSOLE_URL; or a path like /console/…) to come back to after paying or canceling, with paymentId and status added to its query. Anything else is refused with 400 invalid_return_url (no open redirect).',
)

const html: OpenApiResponse = {
  description: 'The checkout page',
  content: { 'text/html': { schema: str() } },
}

const payWith = (action: 'pay' | 'cancel'): OpenApiOperation => ({
  operationId: action === 'pay' ? 'payTestCheckout' : 'cancelTestCheckout',
  summary:
    action === 'pay'
      ? 'Test mode: pay the checkout (no money moves); grants its credits once'
      : 'Test mode: cancel the checkout',
  description:
    'The buttons of the test checkout page post here (no session or signature: the reference is the capability). Settles the payment through the same path as the provider webhook.',
  tags: ['payments'],
  parameters: [checkoutRef, ...returnParams],
  responses: {
    '303': {
      description:
        'Settled (or already settled): back to the return address with ?paymentId=…&status=…, or without one to the checkout page',
      headers: { Location: { schema: str() } },
    },
    '400': failure(
      'invalid_checkout: not a test checkout reference; invalid_return_url: return or rs missing, altered or not a console page',
    ),
    '404': failure('payment_not_found, or unknown_provider when test payments are off'),
    '409': {
      ...html,
      description: 'The checkout was already settled the other way (and has no return address)',
    },
  },
})

/** The OpenAPI description of the credits ledger, checkouts and prediction jobs. */
export const BILLING_API: OpenApiPart = {
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
    Credits: object({
      balance: int('Credits left'),
      plan: object(
        {
          _id: int('The plan id (-994: the free plan)'),
          name: str(),
          amount: { type: 'number' },
          currency: str(),
          interval: str(),
          credits: int('Credits the plan grants per period'),
        },
        ['_id'],
      ),
      subscription: {
        type: ['object', 'null'],
        description: 'The paid subscription, or null on the free plan',
        properties: {
          planId: int(),
          status: { type: 'string', enum: ['active', 'canceled'] },
          provider: str(),
          currentPeriodStart: dateTime,
          currentPeriodEnd: dateTime,
        },
      },
    }),
    CreditEntry: object({
      _id: str(),
      delta: int('Credits added (positive) or spent (negative)'),
      balance: int('The balance after this entry'),
      reason: str(
        'free_plan, subscription, topup, ai_transformation, prediction, prediction_refund, …',
      ),
      reference: {
        type: ['string', 'null'],
        description: 'A payment, job or cache key',
      },
      createdAt: dateTime,
    }),
    CreditLedger: object({
      items: arrayOf(ref('CreditEntry')),
      page: ref('Page'),
    }),
    Payment: object(
      {
        _id: str(),
        paymentId: str(),
        kind: { type: 'string', enum: ['subscription', 'topup'] },
        itemId: int('The plan or addon id'),
        amount: { type: 'number' },
        currency: str(),
        credits: int('Credits granted when paid'),
        status: {
          type: 'string',
          enum: ['pending', 'paid', 'failed', 'canceled'],
        },
        provider: str(),
        checkoutUrl: {
          type: 'string',
          format: 'uri',
          description: 'While pending',
        },
        createdAt: dateTime,
        completedAt: { type: ['string', 'null'], format: 'date-time' },
      },
      [
        '_id',
        'paymentId',
        'kind',
        'itemId',
        'amount',
        'currency',
        'credits',
        'status',
        'provider',
        'createdAt',
        'completedAt',
      ],
    ),
    CheckoutStarted: object({
      paymentId: str(),
      checkoutUrl: { type: 'string', format: 'uri' },
      status: { type: 'string', const: 'pending' },
      payment: ref('Payment'),
    }),
  },
  paths: {
    [`${BILLING}/credits`]: {
      get: orgOperation('getCredits', 'Balance, plan and subscription', ['credits'], {
        '200': json(ref('Credits'), 'The balance (members and API tokens)'),
      }),
    },
    [`${BILLING}/credits/ledger`]: {
      get: orgOperation(
        'listCreditLedger',
        'Every change of the balance, newest first',
        ['credits'],
        {
          '200': json(ref('CreditLedger'), 'One page of the ledger'),
          '400': failure('invalid_query: pageNo or pageSize out of range'),
        },
        {
          parameters: [
            orgIdParam,
            {
              name: 'pageNo',
              in: 'query',
              schema: {
                type: 'integer',
                minimum: 1,
                maximum: 100_000,
                default: 1,
              },
            },
            {
              name: 'pageSize',
              in: 'query',
              schema: {
                type: 'integer',
                minimum: 1,
                maximum: 100,
                default: 20,
              },
            },
          ],
        },
      ),
    },
    [`${BILLING}/checkout`]: {
      post: orgOperation(
        'createCheckout',
        'Buy a subscription to a plan or a top-up addon (owners only)',
        ['credits'],
        {
          ...JSON_BODY_ERRORS,
          '201': json(ref('CheckoutStarted'), 'Open checkoutUrl to pay'),
          '400': failure(
            'invalid_body, invalid_plan (free or custom plan), invalid_addon, invalid_return_url (returnUrl is not a console page), invalid_json or signature_*',
          ),
          '403': failure('forbidden: members and API tokens cannot buy'),
          '404': failure('organisation_not_found, plan_not_found or addon_not_found'),
          '409': failure('already_subscribed: the plan is the active subscription'),
          '503': failure('payments_unavailable: PAYMENT_PROVIDER=off'),
        },
        {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    object(
                      {
                        kind: { type: 'string', const: 'subscription' },
                        planId: int(),
                        returnUrl,
                      },
                      ['kind', 'planId'],
                    ),
                    object(
                      { kind: { type: 'string', const: 'topup' }, addonId: int(), returnUrl },
                      ['kind', 'addonId'],
                    ),
                  ],
                },
                example: { kind: 'topup', addonId: 101 },
              },
            },
          },
        },
      ),
    },
    [`${BILLING}/payments/{paymentId}`]: {
      get: orgOperation(
        'getPayment',
        'A checkout and its status',
        ['credits'],
        {
          '200': json(ref('Payment'), 'The payment'),
          '404': failure('organisation_not_found or payment_not_found'),
        },
        {
          parameters: [orgIdParam, uuidParam('paymentId', 'The paymentId of the checkout')],
        },
      ),
    },
    [`${PAYMENT_WEBHOOK_BASE}/{provider}`]: {
      post: {
        operationId: 'paymentWebhook',
        summary: "The payment provider's signed event: a checkout paid, failed or canceled",
        description:
          'Test provider: body { providerRef, outcome: paid|failed|canceled }, header x-test-payments-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">. Idempotent: a payment settles once.',
        tags: ['payments'],
        parameters: [
          {
            name: 'provider',
            in: 'path',
            required: true,
            schema: str(),
            example: 'test',
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: object({}) } },
        },
        responses: {
          '200': json(
            object({
              received: { type: 'boolean', const: true },
              paymentId: str(),
              status: str(),
              changed: {
                type: 'boolean',
                description: 'False for a replayed or late event',
              },
            }),
            'The event was applied (or had been already)',
          ),
          '400': failure('webhook_signature (missing, wrong or stale) or webhook_payload'),
          '404': failure('unknown_provider or payment_not_found'),
          '413': failure('too_large'),
        },
      },
    },
    [TEST_CHECKOUT]: {
      get: {
        operationId: 'showTestCheckout',
        summary: 'Test mode: the checkout page with Pay and Cancel buttons',
        tags: ['payments'],
        parameters: [checkoutRef, ...returnParams],
        responses: {
          '200': html,
          '400': failure(
            'invalid_checkout: not a test checkout reference; invalid_return_url: return or rs missing, altered or not a console page',
          ),
          '404': failure('payment_not_found, or unknown_provider when test payments are off'),
        },
      },
    },
    [`${TEST_CHECKOUT}/pay`]: { post: payWith('pay') },
    [`${TEST_CHECKOUT}/cancel`]: { post: payWith('cancel') },
  },
}
