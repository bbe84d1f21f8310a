// What an organisation's billing calls read: the checkout body and the ledger query, validated by
// `routes.ts` and declared with the same schemas in `openapi.ts` (decision 013).
import { z } from 'zod'
import { PAYMENT_STATUSES } from '../db/schema.ts'
import { pageQuery } from '../http/paging.ts'
import { LEDGER_PAGE_SIZE } from './paths.ts'
import { MAX_RETURN_URL } from './return-url.ts'

const itemId = (what: string) =>
  z
    .number({ error: `must be a number (the ${what} id)` })
    .int(`must be a whole number (the ${what} id)`)
    .min(-2_147_483_648, `is not a ${what} id`)
    .max(2_147_483_647, `is not a ${what} id`)

const returnUrl = z
  .string({ error: 'must be a string (a page of the console)' })
  .max(MAX_RETURN_URL, `must be at most ${MAX_RETURN_URL} characters`)
  .describe(
    'A page of the console (its origin, a path under WEB_CONSOLE_URL; or a path like /console/…) to come back to after paying or canceling, with paymentId and status added to its query. Anything else is refused with 400 invalid_return_url (no open redirect).',
  )
  .optional()

export const checkoutBody = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('subscription'), planId: itemId('plan'), returnUrl }),
    z.strictObject({ kind: z.literal('topup'), addonId: itemId('addon'), returnUrl }),
  ],
  { error: 'must be subscription or topup' },
)

export const ledgerQuery = z.object(pageQuery(LEDGER_PAGE_SIZE))

export const paymentsQuery = z.object({
  ...pageQuery(LEDGER_PAGE_SIZE),
  status: z
    .enum(PAYMENT_STATUSES, { error: 'must be pending, paid, failed or canceled' })
    .optional(),
})

/** The customer portal's body: where the provider sends the owner back. */
export const portalBody = z.strictObject({ returnUrl })
