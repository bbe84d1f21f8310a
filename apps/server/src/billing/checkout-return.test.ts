// The test checkout's way back to the console, on PGlite and PostgreSQL: a checkout made with a
// console page as its return address answers pay and cancel with 303 to it, carrying the
// payment's id and status; any other address is refused when the checkout is made (no open
// redirect), and a checkout URL whose address was swapped is refused without settling anything.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../db/index.ts'
import { createTestClient, expectError } from '../test-client.ts'
import { startTestServer, type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { BILLING } from './paths.ts'
import { consoleReturnUrl } from './return-url.ts'

interface Checkout {
  paymentId: string
  checkoutUrl: string
  status: string
}

type Account = Awaited<ReturnType<ReturnType<typeof createTestClient>['signup']>>

describe.each<TestDatabaseKind>(testDatabases('server'))('checkout return on %s', (kind) => {
  let owner: Account

  const suite = useTestServer(kind)

  beforeAll(async () => {
    owner = await suite.client.signup()
  }, 60_000)

  const billingPage = () =>
    `${suite.server.config.publicUrl}/console/organization/${owner.organisation._id}/billing/plans/topup`

  const checkout = (body: Record<string, unknown>) =>
    suite.call('POST', `${BILLING}/org/${owner.organisation._id}/checkout`, {
      cookie: owner.cookie,
      body: { kind: 'topup', addonId: 101, ...body },
    })

  async function started(returnUrl: string): Promise<Checkout> {
    const answer = await checkout({ returnUrl })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return answer.body as Checkout
  }

  /** The checkout URL on the test server, with `/{action}` added to its path if given. */
  function local(checkoutUrl: string, action?: 'pay' | 'cancel'): string {
    const url = new URL(checkoutUrl.replace(suite.server.config.publicUrl, suite.server.url))
    if (action !== undefined) url.pathname += `/${action}`
    return url.toString()
  }

  const press = (checkoutUrl: string, action: 'pay' | 'cancel') =>
    fetch(local(checkoutUrl, action), { method: 'POST', redirect: 'manual' })

  const balance = async () =>
    (
      (
        await suite.call('GET', `${BILLING}/org/${owner.organisation._id}/credits`, {
          cookie: owner.cookie,
        })
      ).body as { balance: number }
    ).balance

  const payments = async () =>
    (
      await suite.server.services.context.database.db
        .select({ id: schema.payments.id, status: schema.payments.status })
        .from(schema.payments)
        .where(eq(schema.payments.organisationId, owner.organisation._id))
    ).length

  it('sends the buyer back to the console page with the payment id and status after paying', async () => {
    const before = await balance()
    const back = `${billingPage()}?addonId=101`
    const made = await started(back)
    const url = new URL(made.checkoutUrl)
    expect(url.searchParams.get('return')).toBe(back)
    expect(url.searchParams.get('rs')).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const page = await fetch(local(made.checkoutUrl))
    expect(page.status).toBe(200)
    const html = await page.text()
    // The forms carry the return address on to pay and cancel (HTML-escaped).
    expect(html).toContain(`/pay?${new URLSearchParams({ return: back })}&#38;rs=`)

    const paid = await press(made.checkoutUrl, 'pay')
    expect(paid.status).toBe(303)
    const location = new URL(paid.headers.get('location') ?? '')
    expect(`${location.origin}${location.pathname}`).toBe(billingPage())
    expect(location.searchParams.get('addonId')).toBe('101')
    expect(location.searchParams.get('paymentId')).toBe(made.paymentId)
    expect(location.searchParams.get('status')).toBe('paid')
    expect(await balance()).toBe(before + 100)

    // A second press changes nothing and goes back again, with the status as it is.
    const again = await press(made.checkoutUrl, 'cancel')
    expect(again.status).toBe(303)
    expect(new URL(again.headers.get('location') ?? '').searchParams.get('status')).toBe('paid')
    expect(await balance()).toBe(before + 100)
    // The settled page links back instead of asking to close it.
    const settled = await (await fetch(local(made.checkoutUrl))).text()
    expect(settled).toContain('Back to the console')
    expect(settled).not.toContain('You can close this page')
  })

  it('sends the buyer back with status canceled after canceling, and charges nothing', async () => {
    const before = await balance()
    const made = await started(billingPage())
    const canceled = await press(made.checkoutUrl, 'cancel')
    expect(canceled.status).toBe(303)
    const location = new URL(canceled.headers.get('location') ?? '')
    expect(location.searchParams.get('paymentId')).toBe(made.paymentId)
    expect(location.searchParams.get('status')).toBe('canceled')
    const paid = await press(made.checkoutUrl, 'pay')
    expect(new URL(paid.headers.get('location') ?? '').searchParams.get('status')).toBe('canceled')
    expect(await balance()).toBe(before)
  })

  it('takes a path of the console as the return address, on the console origin', async () => {
    const made = await started(`/console/organization/${owner.organisation._id}/billing`)
    expect(new URL(made.checkoutUrl).searchParams.get('return')).toBe(
      `${suite.server.config.publicUrl}/console/organization/${owner.organisation._id}/billing`,
    )
  })

  it('refuses any return address outside the console, and makes no checkout', async () => {
    const count = await payments()
    const origin = suite.server.config.publicUrl
    const host = new URL(origin).host
    for (const returnUrl of [
      'https://evil.example/console',
      '//evil.example/console',
      '/\\evil.example/console',
      'javascript:alert(1)',
      'data:text/html,hi',
      `${origin}/service/panel/users/v1.0/session`,
      `${origin}/consolex`,
      `${origin}/`,
      `${origin.replace('://', '://user:pw@')}/console`,
      `http://${host}.evil.example/console`,
      `${origin.replace('http:', 'https:')}/console`,
      `${origin}/console/ x`,
      `${origin}/console/${'a'.repeat(2100)}`,
    ]) {
      const answer = await checkout({ returnUrl })
      expect(answer.status, returnUrl).toBe(400)
      expect((answer.body as { code: string }).code, returnUrl).toMatch(
        /^invalid_return_url|invalid_body$/,
      )
    }
    expectError(await checkout({ returnUrl: 42 }), 400, 'invalid_body')
    expect(await payments()).toBe(count)
  })

  it('refuses a checkout URL whose return address was swapped or unsigned, settling nothing', async () => {
    const before = await balance()
    const made = await started(billingPage())
    const swapped = new URL(made.checkoutUrl)
    swapped.searchParams.set('return', `${suite.server.config.publicUrl}/console/elsewhere`)
    const unsigned = new URL(made.checkoutUrl)
    unsigned.searchParams.delete('rs')
    const unreturned = new URL(made.checkoutUrl)
    unreturned.searchParams.delete('return')
    const outside = new URL(made.checkoutUrl)
    outside.searchParams.set('return', 'https://evil.example/')
    for (const url of [swapped, unsigned, unreturned, outside]) {
      const page = await fetch(local(url.toString()))
      expect(page.status, url.search).toBe(400)
      expect(((await page.json()) as { code: string }).code).toBe('invalid_return_url')
      const pay = await press(url.toString(), 'pay')
      expect(pay.status, url.search).toBe(400)
    }
    expect(await balance()).toBe(before)
    const payment = await suite.call(
      'GET',
      `${BILLING}/org/${owner.organisation._id}/payments/${made.paymentId}`,
      { cookie: owner.cookie },
    )
    expect((payment.body as { status: string }).status).toBe('pending')
    // Without any return address the checkout still works as before (and answers its own page).
    const plain = new URL(made.checkoutUrl)
    plain.search = ''
    const paid = await press(plain.toString(), 'pay')
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toMatch(/\/test-checkout\/tpc_[A-Za-z0-9_-]{43}$/)
  })
})

describe('the console on its own host', () => {
  const config = {
    publicUrl: 'https://api.example.com',
    web: { consoleUrl: 'https://console.example.com/app' },
  } as Parameters<typeof consoleReturnUrl>[1]

  it('accepts pages under the console base of that host only', () => {
    expect(consoleReturnUrl('https://console.example.com/app/billing?x=1', config)?.href).toBe(
      'https://console.example.com/app/billing?x=1',
    )
    expect(consoleReturnUrl('/app/billing', config)?.href).toBe(
      'https://console.example.com/app/billing',
    )
    for (const refused of [
      'https://api.example.com/app/billing',
      'https://console.example.com/other',
      'https://console.example.com.evil.example/app',
      'https://console.example.com:444/app',
    ]) {
      expect(consoleReturnUrl(refused, config), refused).toBeUndefined()
    }
  })

  it("lets the checkout page's forms go on to that host", async () => {
    const server = await startTestServer('pglite', {
      WEB_CONSOLE_URL: 'https://console.example.com/console',
    })
    try {
      const client = createTestClient(server)
      const owner = await client.signup()
      const made = await client.call('POST', `${BILLING}/org/${owner.organisation._id}/checkout`, {
        cookie: owner.cookie,
        body: {
          kind: 'topup',
          addonId: 101,
          returnUrl: 'https://console.example.com/console/billing',
        },
      })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      const checkoutUrl = (made.body as Checkout).checkoutUrl
      const page = await fetch(checkoutUrl.replace(server.config.publicUrl, server.url))
      expect(page.headers.get('content-security-policy')).toContain(
        "form-action 'self' https://console.example.com;",
      )
      const url = new URL(checkoutUrl.replace(server.config.publicUrl, server.url))
      url.pathname += '/pay'
      const paid = await fetch(url, { method: 'POST', redirect: 'manual' })
      expect(paid.headers.get('location')).toMatch(
        /^https:\/\/console\.example\.com\/console\/billing\?paymentId=[0-9a-f-]{36}&status=paid$/,
      )
    } finally {
      await server.stop()
    }
  }, 60_000)
})
