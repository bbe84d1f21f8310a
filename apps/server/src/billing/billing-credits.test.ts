// Credits through the real server, on PGlite and PostgreSQL: the free plan's credits at sign-up,
// the balance and ledger, race-safe spending, AI delivery charges and refunds.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { expectError, PNG_1PX } from '../test-client.ts'
import { storeTestFile } from '../test-server.ts'
import { describeEachDatabase } from '../test-suite.ts'
import { BILLING, type Credits, type Entry, type Ledger, useBillingSuite } from './billing-suite.ts'
import { CREDITS_PER_AI_OPERATION } from './credits.ts'

describeEachDatabase('database', 'credits and payments on %s', useBillingSuite, (t) => {
  const { suite, call, repo, orgPath, credits, ledgerSum } = t

  describe('balance and ledger', () => {
    it('gives a new organisation the free plan and its 50 credits as a ledger entry', async () => {
      const owner = await suite.client.signup()
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
      const owner = await suite.client.signup()
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
      const owner = await suite.client.signup()
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
      const owner = await suite.client.signup()
      const token = (await suite.client.createToken(owner, 'billing tests')).token
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
      const owner = await suite.client.signup()
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
      const owner = await suite.client.signup()
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
      const owner = await suite.client.signup()
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
      const owner = await suite.client.signup()
      const { lookups } = suite.server.services.context
      const organisationId = owner.organisation._id
      await storeTestFile(suite.server, organisationId, 'dot.png', PNG_1PX)
      // Unsigned URLs may run AI operations only without strict transformations (on for new
      // organisations; organization-settings.test.ts covers them).
      await repo().updateOrganisationSettings(organisationId, {
        strictTransformations: false,
      })
      lookups.forgetOrganisation({
        id: organisationId,
        cloudName: owner.organisation.cloudName,
      })
      const base = `${suite.server.url}/v2/${owner.organisation.cloudName}`
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
      expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
    })
  })

  describe('refunds', () => {
    it('refunds an AI delivery whose job fails for good, once, and charges nothing again', async () => {
      const owner = await suite.client.signup()
      const { storage, lookups } = suite.server.services.context
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
      const url = `${suite.server.url}/v2/${owner.organisation.cloudName}/ic.crop(w:4,h:4)/broken.png`

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
      await suite.server.services.jobs.drain()
      expect((await credits(owner)).balance).toBe(50)
      expect(await ledgerSum(owner)).toBe(50)
    })

    it('refunds a failed job its worker never finished, when the runner next finds the queue empty', async () => {
      const owner = await suite.client.signup()
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
      await suite.server.services.jobs.drain()
      expect((await credits(owner)).balance).toBe(50)
      const ids = (await repo().listUnrefundedFailedJobs(100)).map((job) => job.id)
      expect(ids).not.toContain(queued.job.id)
      await suite.server.services.jobs.drain()
      expect((await credits(owner)).balance).toBe(50)
    })
  })
})
