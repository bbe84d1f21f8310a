import { expect } from 'vitest'
import type { TestDatabaseKind } from '../test-server.ts'
import { type SignedUpAccount, useTestServer } from '../test-suite.ts'
import { signTestWebhook, TEST_WEBHOOK_SIGNATURE_HEADER, testWebhookSecret } from './payments.ts'

export const BILLING = '/service/panel/billing/v1.0'
export const WEBHOOK = '/service/webhooks/payments/test'
export const ABSENT = '00000000-0000-4000-8000-000000000000'
export const HOSTILE = [
  "' OR '1'='1",
  '1; drop table payments; --',
  '<script>x</script>',
  '%',
  '$1',
]

export interface Credits {
  balance: number
  plan: { _id: number; name?: string; interval?: string; credits?: number }
  subscription: null | {
    planId: number
    status: string
    currentPeriodStart: string
    currentPeriodEnd: string
  }
}
export interface Entry {
  _id: string
  delta: number
  balance: number
  reason: string
  reference: string | null
}
export interface Ledger {
  items: Entry[]
  page: { current: number; size: number; hasNext: boolean; itemTotal: number }
}
export interface Checkout {
  paymentId: string
  checkoutUrl: string
  status: string
}

export type Account = SignedUpAccount

/** Starts a server and gives the calls the credits and payments tests make: balance, checkout, the test checkout page's buttons and signed provider webhooks. */
export function useBillingSuite(kind: TestDatabaseKind) {
  const suite = useTestServer(kind)
  const { call } = suite
  const repo = () => suite.server.services.context.repo
  const orgPath = (account: Account, rest: string) =>
    `${BILLING}/org/${account.organisation._id}${rest}`

  async function credits(account: Account): Promise<Credits> {
    const answer = await call('GET', orgPath(account, '/credits'), {
      cookie: account.cookie,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    return answer.body as Credits
  }

  async function ledgerSum(account: Account): Promise<number> {
    return repo().sumCreditLedger(account.organisation._id)
  }

  async function checkout(account: Account, body: unknown): Promise<Checkout> {
    const answer = await call('POST', orgPath(account, '/checkout'), {
      cookie: account.cookie,
      body,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return answer.body as Checkout
  }

  /** Presses a button of the test checkout page, as a browser form would. */
  async function press(checkoutUrl: string, action: 'pay' | 'cancel') {
    const url = checkoutUrl.replace(suite.server.config.publicUrl, suite.server.url)
    return fetch(`${url}/${action}`, { method: 'POST', redirect: 'manual' })
  }

  async function webhook(body: string, seconds = Math.floor(Date.now() / 1000)) {
    const secret = testWebhookSecret(suite.server.config)
    return fetch(`${suite.server.url}${WEBHOOK}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [TEST_WEBHOOK_SIGNATURE_HEADER]: signTestWebhook(secret, body, seconds),
      },
      body,
    })
  }

  async function providerRefOf(account: Account, paymentId: string): Promise<string> {
    const payment = await repo().findPayment(account.organisation._id, paymentId)
    expect(payment).toBeDefined()
    return payment?.providerRef as string
  }
  return {
    suite,
    call,
    repo,
    orgPath,
    credits,
    ledgerSum,
    checkout,
    press,
    webhook,
    providerRefOf,
  }
}

export type BillingSuite = ReturnType<typeof useBillingSuite>
