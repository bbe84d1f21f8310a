// Credits, checkouts and payment webhooks through the real server, on PGlite and PostgreSQL:
// the free plan's credits at sign-up, top-ups and subscriptions paid with the test provider
// (page and webhook), idempotent completion, race-safe spending, AI delivery charges, hostile
// input and every call made from another organisation.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiError, createTestClient, expectError, PNG_1PX } from '../test-client.ts'
import {
  type ServerPair,
  startServerPair,
  startTestServer,
  storeTestFile,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'
import { CREDITS_PER_AI_OPERATION } from './credits.ts'
import { signTestWebhook, TEST_WEBHOOK_SIGNATURE_HEADER, testWebhookSecret } from './payments.ts'

const BILLING = '/service/panel/billing/v1.0'
const ORG = '/service/panel/organization/v1.0'
const WEBHOOK = '/service/webhooks/payments/test'
const ABSENT = '00000000-0000-4000-8000-000000000000'
const HOSTILE = ["' OR '1'='1", '1; drop table payments; --', '<script>x</script>', '%', '$1']

interface Credits {
  balance: number
  plan: { _id: number; name?: string; interval?: string; credits?: number }
  subscription: null | {
    planId: number
    status: string
    currentPeriodStart: string
    currentPeriodEnd: string
  }
}
interface Entry {
  _id: string
  delta: number
  balance: number
  reason: string
  reference: string | null
}
interface Ledger {
  items: Entry[]
  page: { current: number; size: number; hasNext: boolean; itemTotal: number }
}
interface Checkout {
  paymentId: string
  checkoutUrl: string
  status: string
}

describe.each<TestDatabaseKind>(testDatabases('database'))('credits and payments on %s', (kind) => {
  let server: TestServer
  let client: ReturnType<typeof createTestClient>
  type Account = Awaited<ReturnType<typeof client.signup>>

  beforeAll(async () => {
    server = await startTestServer(kind)
    client = createTestClient(server)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const call: ReturnType<typeof createTestClient>['call'] = (...args) => client.call(...args)
  const repo = () => server.services.context.repo
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
    const url = checkoutUrl.replace(server.config.publicUrl, server.url)
    return fetch(`${url}/${action}`, { method: 'POST', redirect: 'manual' })
  }

  async function webhook(body: string, seconds = Math.floor(Date.now() / 1000)) {
    const secret = testWebhookSecret(server.config)
    return fetch(`${server.url}${WEBHOOK}`, {
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

  describe('balance and ledger', () => {
    it('gives a new organisation the free plan and its 50 credits as a ledger entry', async () => {
      const owner = await client.signup()
      const answer = await credits(owner)
      expect(answer).toMatchObject({
        balance: 50,
        plan: { _id: -994, name: 'Free', credits: 50 },
        subscription: null,
      })
      const ledger = await call('GET', orgPath(owner, '/credits/ledger'), {
        cookie: owner.cookie,
      })
      expect(ledger.status).toBe(200)
      expect(ledger.response.headers.get('cache-control')).toBe('no-store')
      expect(ledger.body).toMatchObject({
        items: [
          {
            delta: 50,
            balance: 50,
            reason: 'free_plan',
            reference: owner.organisation._id,
          },
        ],
        page: { current: 1, size: 20, hasNext: false, itemTotal: 1 },
      })
    })

    it('pages through the ledger newest first', async () => {
      const owner = await client.signup()
      for (let i = 1; i <= 4; i++) {
        await repo().grantCredits(owner.organisation._id, i, 'test_grant', `g${i}`)
      }
      const seen: Entry[] = []
      for (let pageNo = 1; ; pageNo++) {
        const answer = await call(
          'GET',
          orgPath(owner, `/credits/ledger?pageNo=${pageNo}&pageSize=2`),
          {
            cookie: owner.cookie,
          },
        )
        expect(answer.status).toBe(200)
        const body = answer.body as Ledger
        expect(body.page.itemTotal).toBe(5)
        seen.push(...body.items)
        if (!body.page.hasNext) break
      }
      expect(seen.map((entry) => entry.balance)).toEqual([60, 56, 53, 51, 50])
      expect((await credits(owner)).balance).toBe(60)
      expect(await ledgerSum(owner)).toBe(60)
    })

    it('refuses bad paging with 400 invalid_query', async () => {
      const owner = await client.signup()
      for (const query of [
        'pageNo=0',
        'pageSize=1000',
        'pageNo=1.5',
        "pageNo=1' OR '1'='1",
        'pageNo=1&pageNo=2',
      ]) {
        expectError(
          await call('GET', orgPath(owner, `/credits/ledger?${query}`), {
            cookie: owner.cookie,
          }),
          400,
          'invalid_query',
        )
      }
    })

    it('lets members and API tokens read the balance, and nobody without credentials', async () => {
      const owner = await client.signup()
      const token = (await client.createToken(owner, 'billing tests')).token
      const byToken = await call('GET', orgPath(owner, '/credits'), {
        token,
      })
      expect(byToken.status).toBe(200)
      expect((byToken.body as Credits).balance).toBe(50)
      const ledger = await call('GET', orgPath(owner, '/credits/ledger'), {
        token,
      })
      expect(ledger.status).toBe(200)
      expectError(await call('GET', orgPath(owner, '/credits')), 401, 'unauthenticated')
      expectError(await call('GET', `${BILLING}/org/not-a-uuid/credits`), 401, 'unauthenticated')
    })
  })

  describe('spending', () => {
    it('never lets concurrent spends take the balance below 0, and the ledger adds up', async () => {
      const owner = await client.signup()
      const organisationId = owner.organisation._id
      const results = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          repo().spendCredits(organisationId, 1, 'test_spend', `s${i}`),
        ),
      )
      expect(results.filter((result) => result.status === 'applied')).toHaveLength(50)
      expect(results.filter((result) => result.status === 'insufficient')).toHaveLength(30)
      expect((await credits(owner)).balance).toBe(0)
      expect(await ledgerSum(owner)).toBe(0)
      const ledger = await repo().listCreditLedger(organisationId, {
        limit: 100,
        offset: 0,
      })
      expect(ledger.items.every((entry) => entry.balance >= 0)).toBe(true)
      expect(new Set(ledger.items.map((entry) => entry.balance)).size).toBe(51)
    })

    it('charges a reference once, however many times it is spent at once', async () => {
      const owner = await client.signup()
      const results = await Promise.all(
        Array.from({ length: 12 }, () =>
          repo().spendCredits(owner.organisation._id, 7, 'test_spend', 'same-job'),
        ),
      )
      expect(results.filter((result) => result.status === 'applied')).toHaveLength(1)
      expect(results.filter((result) => result.status === 'duplicate')).toHaveLength(11)
      expect((await credits(owner)).balance).toBe(43)
      expect(await ledgerSum(owner)).toBe(43)
    })

    it('refuses a spend larger than the balance and changes nothing', async () => {
      const owner = await client.signup()
      const result = await repo().spendCredits(owner.organisation._id, 51, 'test_spend', 'big')
      expect(result).toMatchObject({
        status: 'insufficient',
        balance: 50,
        needed: 51,
      })
      expect((await credits(owner)).balance).toBe(50)
      await expect(repo().spendCredits(owner.organisation._id, -5, 'test_spend')).rejects.toThrow(
        RangeError,
      )
      await expect(repo().grantCredits(owner.organisation._id, 1.5, 'test_grant')).rejects.toThrow(
        RangeError,
      )
    })

    it('charges an AI delivery once per derived image, and answers 402 when credits run out', async () => {
      const owner = await client.signup()
      const { lookups } = server.services.context
      const organisationId = owner.organisation._id
      await storeTestFile(server, organisationId, 'dot.png', PNG_1PX)
      // Unsigned URLs may run AI operations only without strict transformations (on for new
      // organisations; organization-settings.test.ts covers them).
      await repo().updateOrganisationSettings(organisationId, {
        strictTransformations: false,
      })
      lookups.forgetOrganisation({
        id: organisationId,
        cloudName: owner.organisation.cloudName,
      })
      const base = `${server.url}/v2/${owner.organisation.cloudName}`
      // Ordinary operations are free.
      expect((await fetch(`${base}/t.flip()/dot.png`)).status).toBe(200)
      expect((await credits(owner)).balance).toBe(50)

      const first = await fetch(`${base}/ic.crop(w:1,h:1)/dot.png`)
      expect(first.status).toBe(202)
      await first.arrayBuffer()
      expect((await credits(owner)).balance).toBe(50 - CREDITS_PER_AI_OPERATION)
      const again = await fetch(`${base}/ic.crop(w:1,h:1)/dot.png`)
      expect([200, 202]).toContain(again.status)
      await again.arrayBuffer()
      expect((await credits(owner)).balance).toBe(50 - CREDITS_PER_AI_OPERATION)
      const entries = await repo().listCreditLedger(organisationId, {
        limit: 10,
        offset: 0,
      })
      expect(entries.items[0]).toMatchObject({
        reason: 'ai_transformation',
        delta: -1,
      })

      await repo().spendCredits(organisationId, 49, 'test_spend', 'drain')
      const refused = await fetch(`${base}/ic.crop(w:1,h:1,p:5)/dot.png`)
      expect(refused.status).toBe(402)
      expect(await refused.json()).toMatchObject({
        code: 'insufficient_credits',
      })
      const asImage = await fetch(`${base}/ic.crop(w:1,h:1,p:6)/dot.png`, {
        headers: { accept: 'image/avif,image/webp,*/*' },
      })
      expect(asImage.status).toBe(402)
      expect(asImage.headers.get('content-type')).toBe('image/svg+xml')
      expect(await asImage.text()).toContain('credit')
      expect((await credits(owner)).balance).toBe(0)
      expect(await ledgerSum(owner)).toBe(0)
      // The server keeps serving.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    })
  })

  describe('refunds', () => {
    it('refunds an AI delivery whose job fails for good, once, and charges nothing again', async () => {
      const owner = await client.signup()
      const { storage, lookups } = server.services.context
      const organisationId = owner.organisation._id
      // A valid-looking file whose bytes are no image: the engine fails on it.
      const broken = Buffer.from('not an image at all, although it is called a PNG')
      const storageKey = `orgs/${organisationId}/originals/broken`
      await storage.put(storageKey, broken)
      await repo().upsertFile(organisationId, {
        path: 'broken.png',
        name: 'broken.png',
        size: broken.length,
        format: 'png',
        contentType: 'image/png',
        width: 10,
        height: 10,
        hash: createHash('sha256').update(broken).digest('hex'),
        storageKey,
      })
      lookups.forgetFile(organisationId, 'broken.png')
      await repo().updateOrganisationSettings(organisationId, {
        strictTransformations: false,
      })
      lookups.forgetOrganisation({
        id: organisationId,
        cloudName: owner.organisation.cloudName,
      })
      const url = `${server.url}/v2/${owner.organisation.cloudName}/ic.crop(w:4,h:4)/broken.png`

      const queued = await fetch(url)
      expect(queued.status).toBe(202)
      const { jobId } = (await queued.json()) as { jobId: string }
      let job = await repo().getJob(jobId)
      for (let wait = 0; wait < 200 && job?.status !== 'failed'; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        job = await repo().getJob(jobId)
      }
      // An engine error on the image is permanent: one attempt, not three.
      expect(job).toMatchObject({ status: 'failed', attempts: 1 })
      expect((await credits(owner)).balance).toBe(50)
      const cacheKey = job?.dedupeKey as string
      const refund = await repo().findCreditEntry(
        organisationId,
        'ai_transformation_refund',
        cacheKey,
      )
      expect(refund).toMatchObject({ delta: CREDITS_PER_AI_OPERATION })
      const charge = await repo().findCreditEntry(organisationId, 'ai_transformation', cacheKey)
      expect(charge).toMatchObject({ delta: -CREDITS_PER_AI_OPERATION })

      // Asking again answers the failure and charges nothing; refunding again gives nothing.
      const again = await fetch(url)
      expect(again.status).toBe(422)
      await again.arrayBuffer()
      expect(await repo().refundJob(job as NonNullable<typeof job>)).toMatchObject([
        { change: { status: 'duplicate' } },
      ])
      await server.services.jobs.drain()
      expect((await credits(owner)).balance).toBe(50)
      expect(await ledgerSum(owner)).toBe(50)
    })

    it('refunds a failed job its worker never finished, when the runner next finds the queue empty', async () => {
      const owner = await client.signup()
      const organisationId = owner.organisation._id
      // A charged job left failed without its handler running (a worker that died on its last
      // attempt is failed this way by the claim).
      const queued = await repo().enqueuePaidJob(organisationId, 2, 'prediction', {
        kind: 'nobody-runs-this',
        payload: {},
      })
      if (!('job' in queued)) throw new Error('the job was not queued')
      expect((await credits(owner)).balance).toBe(48)
      const claimed = await repo().claimJob('dead-worker', ['nobody-runs-this'])
      expect(claimed?.id).toBe(queued.job.id)
      await repo().failJob(queued.job.id, 'worker stopped responding', {
        retry: false,
      })
      expect(await repo().listUnrefundedFailedJobs(100)).toContainEqual(
        expect.objectContaining({ id: queued.job.id }),
      )
      await server.services.jobs.drain()
      expect((await credits(owner)).balance).toBe(50)
      const ids = (await repo().listUnrefundedFailedJobs(100)).map((job) => job.id)
      expect(ids).not.toContain(queued.job.id)
      await server.services.jobs.drain()
      expect((await credits(owner)).balance).toBe(50)
    })
  })

  describe('top-ups', () => {
    it('buys credits through the test checkout page, once however often it is paid', async () => {
      const owner = await client.signup()
      const started = await checkout(owner, { kind: 'topup', addonId: 101 })
      expect(started.status).toBe('pending')
      expect(started.checkoutUrl).toMatch(
        /\/service\/payments\/v1\.0\/test-checkout\/tpc_[A-Za-z0-9_-]{43}$/,
      )
      const pending = await call('GET', orgPath(owner, `/payments/${started.paymentId}`), {
        cookie: owner.cookie,
      })
      expect(pending.body).toMatchObject({
        paymentId: started.paymentId,
        kind: 'topup',
        itemId: 101,
        amount: 5,
        currency: 'USD',
        credits: 100,
        status: 'pending',
        provider: 'test',
        checkoutUrl: started.checkoutUrl,
        completedAt: null,
      })

      const page = await fetch(started.checkoutUrl.replace(server.config.publicUrl, server.url))
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toContain('text/html')
      const html = await page.text()
      expect(html).toContain('100 credits')
      expect(html).toContain('5.00 USD')

      const paid = await press(started.checkoutUrl, 'pay')
      expect(paid.status).toBe(303)
      expect((await credits(owner)).balance).toBe(150)
      // Replayed: pressing pay again, and canceling afterwards, change nothing.
      expect((await press(started.checkoutUrl, 'pay')).status).toBe(303)
      expect((await press(started.checkoutUrl, 'cancel')).status).toBe(409)
      expect((await credits(owner)).balance).toBe(150)
      expect(await ledgerSum(owner)).toBe(150)
      const done = await call('GET', orgPath(owner, `/payments/${started.paymentId}`), {
        cookie: owner.cookie,
      })
      expect(done.body).toMatchObject({ status: 'paid' })
      expect((done.body as { checkoutUrl?: string }).checkoutUrl).toBeUndefined()
      const ledger = (
        await call('GET', orgPath(owner, '/credits/ledger'), {
          cookie: owner.cookie,
        })
      ).body as Ledger
      expect(ledger.items[0]).toMatchObject({
        delta: 100,
        balance: 150,
        reason: 'topup',
        reference: started.paymentId,
      })
      const after = await fetch(started.checkoutUrl.replace(server.config.publicUrl, server.url))
      expect(await after.text()).toContain('paid')
    })

    it('cancels a checkout, which can then not be paid', async () => {
      const owner = await client.signup()
      const started = await checkout(owner, { kind: 'topup', addonId: 102 })
      expect((await press(started.checkoutUrl, 'cancel')).status).toBe(303)
      const refused = await press(started.checkoutUrl, 'pay')
      expect(refused.status).toBe(409)
      expect(await refused.text()).toContain('already canceled')
      expect((await credits(owner)).balance).toBe(50)
      const payment = await call('GET', orgPath(owner, `/payments/${started.paymentId}`), {
        cookie: owner.cookie,
      })
      expect(payment.body).toMatchObject({ status: 'canceled' })
    })

    it('settles through the signed webhook the same way, once', async () => {
      const owner = await client.signup()
      const started = await checkout(owner, { kind: 'topup', addonId: 101 })
      const providerRef = await providerRefOf(owner, started.paymentId)
      const body = JSON.stringify({ providerRef, outcome: 'paid' })
      const first = await webhook(body)
      expect(first.status).toBe(200)
      expect(await first.json()).toMatchObject({
        paymentId: started.paymentId,
        status: 'paid',
        changed: true,
      })
      const replay = await webhook(body)
      expect(await replay.json()).toMatchObject({
        status: 'paid',
        changed: false,
      })
      expect((await credits(owner)).balance).toBe(150)
      // A late "canceled" for a paid checkout changes nothing either.
      const late = await webhook(JSON.stringify({ providerRef, outcome: 'canceled' }))
      expect(await late.json()).toMatchObject({
        status: 'paid',
        changed: false,
      })
      expect((await credits(owner)).balance).toBe(150)
    })

    it('refuses webhooks that are unsigned, forged, stale or unreadable', async () => {
      const owner = await client.signup()
      const started = await checkout(owner, { kind: 'topup', addonId: 101 })
      const providerRef = await providerRefOf(owner, started.paymentId)
      const body = JSON.stringify({ providerRef, outcome: 'paid' })
      const post = (headers: Record<string, string>, text = body) =>
        fetch(`${server.url}${WEBHOOK}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: text,
        })
      const expectRefused = async (response: Response, status: number, code: string) => {
        expect(response.status).toBe(status)
        expect(((await response.json()) as ApiError).code).toBe(code)
      }
      await expectRefused(await post({}), 400, 'webhook_signature')
      const now = Math.floor(Date.now() / 1000)
      const forged = signTestWebhook('not the secret', body, now)
      await expectRefused(
        await post({ [TEST_WEBHOOK_SIGNATURE_HEADER]: forged }),
        400,
        'webhook_signature',
      )
      await expectRefused(await webhook(body, now - 3600), 400, 'webhook_signature')
      // Signed over a different body.
      const signed = signTestWebhook(testWebhookSecret(server.config), body, now)
      await expectRefused(
        await post({ [TEST_WEBHOOK_SIGNATURE_HEADER]: signed }, body.replace('paid', 'failed')),
        400,
        'webhook_signature',
      )
      await expectRefused(await webhook('not json'), 400, 'webhook_payload')
      await expectRefused(
        await webhook(JSON.stringify({ providerRef, outcome: 'refunded' })),
        400,
        'webhook_payload',
      )
      await expectRefused(
        await webhook(JSON.stringify({ providerRef: HOSTILE[0], outcome: 'paid' })),
        400,
        'webhook_payload',
      )
      await expectRefused(
        await webhook(
          JSON.stringify({
            providerRef: `tpc_${'a'.repeat(43)}`,
            outcome: 'paid',
          }),
        ),
        404,
        'payment_not_found',
      )
      const other = await fetch(`${server.url}/service/webhooks/payments/stripe`, {
        method: 'POST',
        body,
      })
      await expectRefused(other, 404, 'unknown_provider')
      const huge = await post(
        { [TEST_WEBHOOK_SIGNATURE_HEADER]: signed },
        `{"x":"${'a'.repeat(70_000)}"}`,
      )
      await expectRefused(huge, 413, 'too_large')
      expect((await credits(owner)).balance).toBe(50)
    })

    it('answers 400 for a malformed checkout reference and 404 for an unknown one', async () => {
      const page = await fetch(`${server.url}/service/payments/v1.0/test-checkout/nope`)
      expect(page.status).toBe(400)
      const unknown = await fetch(
        `${server.url}/service/payments/v1.0/test-checkout/tpc_${'b'.repeat(43)}/pay`,
        { method: 'POST' },
      )
      expect(unknown.status).toBe(404)
    })
  })

  describe('subscriptions', () => {
    it('moves the organisation to a monthly plan with its credits and a month-long period', async () => {
      const owner = await client.signup()
      const started = await checkout(owner, {
        kind: 'subscription',
        planId: 1,
      })
      expect((await press(started.checkoutUrl, 'pay')).status).toBe(303)
      const answer = await credits(owner)
      expect(answer).toMatchObject({
        balance: 550,
        plan: { _id: 1, name: 'Starter', interval: 'monthly', credits: 500 },
        subscription: { planId: 1, status: 'active' },
      })
      const start = Date.parse(answer.subscription?.currentPeriodStart ?? '')
      const end = Date.parse(answer.subscription?.currentPeriodEnd ?? '')
      const days = (end - start) / 86_400_000
      expect(days).toBeGreaterThanOrEqual(28)
      expect(days).toBeLessThanOrEqual(31)
      expectError(
        await call('POST', orgPath(owner, '/checkout'), {
          cookie: owner.cookie,
          body: { kind: 'subscription', planId: 1 },
        }),
        409,
        'already_subscribed',
      )
      // Another plan replaces it: a yearly one runs for a year.
      const yearly = await checkout(owner, {
        kind: 'subscription',
        planId: 11,
      })
      expect((await press(yearly.checkoutUrl, 'pay')).status).toBe(303)
      const after = await credits(owner)
      expect(after).toMatchObject({
        balance: 6550,
        plan: { _id: 11 },
        subscription: { planId: 11 },
      })
      const yearDays =
        (Date.parse(after.subscription?.currentPeriodEnd ?? '') -
          Date.parse(after.subscription?.currentPeriodStart ?? '')) /
        86_400_000
      expect(yearDays).toBeGreaterThanOrEqual(365)
      expect(yearDays).toBeLessThanOrEqual(366)
      expect(await ledgerSum(owner)).toBe(6550)
    })

    it('refuses free, custom, inactive and unknown plans and addons with clear messages', async () => {
      const owner = await client.signup()
      await repo().upsertPlans([
        {
          id: 777,
          name: 'Retired',
          description: '',
          amount: 5,
          currency: 'USD',
          credits: 10,
          features: [],
          tags: [],
          custom: false,
          active: false,
          sort: 99,
          interval: 'monthly',
        },
      ])
      const post = (body: unknown) =>
        call('POST', orgPath(owner, '/checkout'), {
          cookie: owner.cookie,
          body,
        })
      expectError(await post({ kind: 'subscription', planId: -994 }), 400, 'invalid_plan')
      expectError(await post({ kind: 'subscription', planId: 90 }), 400, 'invalid_plan')
      expectError(await post({ kind: 'subscription', planId: 777 }), 404, 'plan_not_found')
      expectError(await post({ kind: 'subscription', planId: 123456 }), 404, 'plan_not_found')
      expectError(await post({ kind: 'topup', addonId: 190 }), 400, 'invalid_addon')
      expectError(await post({ kind: 'topup', addonId: 1 }), 404, 'addon_not_found')
      expect((await credits(owner)).balance).toBe(50)
      expect(
        await repo().listCreditLedger(owner.organisation._id, {
          limit: 10,
          offset: 0,
        }),
      ).toMatchObject({ total: 1 })
    })
  })

  describe('bad input', () => {
    it('answers every malformed, hostile or oversized checkout with a clear 4xx', async () => {
      const owner = await client.signup()
      const path = orgPath(owner, '/checkout')
      const bodies: unknown[] = [
        {},
        { kind: 'gift', planId: 1 },
        { kind: 'subscription' },
        { kind: 'subscription', planId: '1' },
        { kind: 'subscription', planId: 1.5 },
        { kind: 'subscription', planId: 1e12 },
        { kind: 'subscription', planId: -1e300 },
        { kind: 'subscription', planId: null },
        { kind: 'topup', addonId: 101, amount: -5 },
        { kind: 'topup', addonId: 101, amount: 1e308 },
        { kind: 'topup', addonId: 101, credits: 1_000_000 },
        { kind: 'topup', planId: 1 },
        ...HOSTILE.map((text) => ({ kind: text, planId: 1 })),
        ...HOSTILE.map((text) => ({ kind: 'subscription', planId: text })),
        ...HOSTILE.map((text) => ({
          kind: 'topup',
          addonId: 101,
          [text]: 1,
        })),
      ]
      for (const body of bodies) {
        expectError(await call('POST', path, { cookie: owner.cookie, body }), 400, 'invalid_body')
      }
      expectError(
        await call('POST', path, { cookie: owner.cookie, raw: '[1,2]' }),
        400,
        'invalid_body',
      )
      expectError(
        await call('POST', path, { cookie: owner.cookie, raw: '{"kind":' }),
        400,
        'invalid_json',
      )
      expectError(
        await call('POST', path, {
          cookie: owner.cookie,
          raw: 'kind=topup',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        'unsupported_media_type',
      )
      const huge = await call('POST', path, {
        cookie: owner.cookie,
        raw: JSON.stringify({
          kind: 'topup',
          addonId: 101,
          pad: 'x'.repeat(70_000),
        }),
      })
      expect(huge.status).toBe(413)
      expect((await credits(owner)).balance).toBe(50)
      expect(
        (
          await repo().listCreditLedger(owner.organisation._id, {
            limit: 5,
            offset: 0,
          })
        ).total,
      ).toBe(1)
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    })

    it('answers unknown and malformed ids with 404', async () => {
      const owner = await client.signup()
      // (An encoded / is refused before routing, as everywhere: 400 invalid_path.)
      const ids = HOSTILE.filter((text) => !text.includes('/')).map(encodeURIComponent)
      for (const id of [ABSENT, 'not-a-uuid', ...ids]) {
        expectError(
          await call('GET', orgPath(owner, `/payments/${id}`), {
            cookie: owner.cookie,
          }),
          404,
          'payment_not_found',
        )
        expectError(
          await call('GET', `${BILLING}/org/${id}/credits`, {
            cookie: owner.cookie,
          }),
          404,
          'organisation_not_found',
        )
      }
    })

    it('lets only owners buy: members and API tokens get 403', async () => {
      const owner = await client.signup()
      const member = await client.signup()
      const invited = await call('POST', `${ORG}/${owner.organisation._id}/invitations`, {
        cookie: owner.cookie,
        body: { email: member.email, role: 'member' },
      })
      expect(invited.status, JSON.stringify(invited.body)).toBe(201)
      const accepted = await call('POST', `${ORG}/invitations/accept`, {
        cookie: member.cookie,
        body: { token: (invited.body as { token: string }).token },
      })
      expect(accepted.status).toBe(200)
      const body = { kind: 'topup', addonId: 101 }
      expectError(
        await call('POST', orgPath(owner, '/checkout'), {
          cookie: member.cookie,
          body,
        }),
        403,
        'forbidden',
      )
      const token = (await client.createToken(owner, 'billing tests')).token
      expectError(
        await call('POST', orgPath(owner, '/checkout'), { token, body }),
        403,
        'forbidden',
      )
      // Members read the balance.
      const read = await call('GET', orgPath(owner, '/credits'), {
        cookie: member.cookie,
      })
      expect(read.status).toBe(200)
    })
  })

  describe('the OpenAPI document', () => {
    it('describes every answer these calls give', async () => {
      const response = await fetch(`${server.url}/service/openapi.json`)
      const document = (await response.json()) as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
      }
      const org = '/service/panel/billing/v1.0/org/{orgId}'
      const jobs = '/service/panel/transformation/v1.0/org/{orgId}/predictions'
      const checkoutPage = '/service/payments/v1.0/test-checkout/{ref}'
      const answers: [string, string, string[]][] = [
        [`${org}/credits`, 'get', ['200', '401', '404']],
        [`${org}/credits/ledger`, 'get', ['200', '400', '401', '404']],
        [
          `${org}/checkout`,
          'post',
          ['201', '400', '401', '403', '404', '409', '413', '415', '503'],
        ],
        [`${org}/payments/{paymentId}`, 'get', ['200', '401', '404']],
        ['/service/webhooks/payments/{provider}', 'post', ['200', '400', '404', '413']],
        [checkoutPage, 'get', ['200', '400', '404']],
        [`${checkoutPage}/pay`, 'post', ['303', '400', '404', '409']],
        [`${checkoutPage}/cancel`, 'post', ['303', '400', '404', '409']],
        [`${jobs}/{predictionId}`, 'post', ['202', '400', '401', '402', '404', '413', '501']],
        [`${jobs}/jobs/{jobId}`, 'get', ['200', '401', '404']],
      ]
      for (const [path, method, statuses] of answers) {
        const operation = document.paths[path]?.[method]
        expect(operation, `${method} ${path}`).toBeDefined()
        for (const status of statuses) {
          expect(operation?.responses[status], `${method} ${path} ${status}`).toBeDefined()
        }
      }
    })
  })

  describe('another organisation', () => {
    it('can neither read nor buy nor see payments of an organisation it is not in', async () => {
      const a = await client.signup()
      const b = await client.signup()
      const tokenA = (await client.createToken(a)).token
      const tokenB = (await client.createToken(b)).token
      const paymentB = await checkout(b, { kind: 'topup', addonId: 101 })
      const paymentA = await checkout(a, { kind: 'topup', addonId: 101 })
      const calls: [string, string, unknown][] = [
        ['GET', orgPath(b, '/credits'), undefined],
        ['GET', orgPath(b, '/credits/ledger'), undefined],
        ['POST', orgPath(b, '/checkout'), { kind: 'topup', addonId: 101 }],
        ['GET', orgPath(b, `/payments/${paymentB.paymentId}`), undefined],
      ]
      for (const [method, path, body] of calls) {
        expectError(
          await call(method, path, { cookie: a.cookie, body }),
          404,
          'organisation_not_found',
        )
        expectError(
          await call(method, path, { token: tokenA, body }),
          404,
          'organisation_not_found',
        )
      }
      // B's payment through A's own organisation: not found either.
      expectError(
        await call('GET', orgPath(a, `/payments/${paymentB.paymentId}`), {
          cookie: a.cookie,
        }),
        404,
        'payment_not_found',
      )
      expectError(
        await call('GET', orgPath(b, `/payments/${paymentA.paymentId}`), {
          cookie: b.cookie,
        }),
        404,
        'payment_not_found',
      )
      // And B's token on A's organisation.
      for (const path of [orgPath(a, '/credits'), orgPath(a, '/credits/ledger')]) {
        expectError(await call('GET', path, { token: tokenB }), 404, 'organisation_not_found')
      }
      expectError(
        await call('GET', orgPath(a, `/payments/${paymentA.paymentId}`), {
          token: tokenB,
        }),
        404,
        'organisation_not_found',
      )
      expect((await credits(a)).balance).toBe(50)
      // Nothing of B's changed.
      expect((await credits(b)).balance).toBe(50)
      const payments = await call('GET', orgPath(b, `/payments/${paymentB.paymentId}`), {
        cookie: b.cookie,
      })
      expect(payments.body).toMatchObject({ status: 'pending' })
    })
  })
})

describe.each<TestDatabaseKind>(testDatabases('database'))('payments turned off on %s', (kind) => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(kind, { PAYMENT_PROVIDER: 'off' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('refuses checkouts with 503 payments_unavailable and serves no test checkout', async () => {
    const client = createTestClient(server)
    const owner = await client.signup()
    const answer = await client.call('POST', `${BILLING}/org/${owner.organisation._id}/checkout`, {
      cookie: owner.cookie,
      body: { kind: 'topup', addonId: 101 },
    })
    expectError(answer, 503, 'payments_unavailable')
    const page = await fetch(
      `${server.url}/service/payments/v1.0/test-checkout/tpc_${'c'.repeat(43)}`,
    )
    expect(page.status).toBe(404)
    const hook = await fetch(`${server.url}${WEBHOOK}`, {
      method: 'POST',
      body: '{}',
    })
    expect(hook.status).toBe(404)
    // Credits still work without payments.
    const credits = await client.call('GET', `${BILLING}/org/${owner.organisation._id}/credits`, {
      cookie: owner.cookie,
    })
    expect((credits.body as Credits).balance).toBe(50)
  })
})

describe('credits shared by two server processes on PostgreSQL', () => {
  let pair: ServerPair
  let first: TestServer
  let second: TestServer

  beforeAll(async () => {
    pair = await startServerPair()
    ;({ first, second } = pair)
  })
  afterAll(async () => {
    await pair?.stop()
  })

  it('never goes below 0 when both spend at once, and the ledger sums to the balance', async () => {
    const owner = await createTestClient(first).signup()
    const organisationId = owner.organisation._id
    const repos = [first.services.context.repo, second.services.context.repo]
    const results = await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        (repos[i % 2] as (typeof repos)[number]).spendCredits(
          organisationId,
          1,
          'test_spend',
          `p${i}`,
        ),
      ),
    )
    expect(results.filter((result) => result.status === 'applied')).toHaveLength(50)
    const organisation = await first.services.context.repo.findOrganisationById(organisationId)
    expect(organisation?.credits).toBe(0)
    expect(await second.services.context.repo.sumCreditLedger(organisationId)).toBe(0)
  })
})
