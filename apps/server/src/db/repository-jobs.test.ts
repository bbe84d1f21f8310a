// The repository's job queue on PGlite and PostgreSQL: enqueue, claim, backoff and completion.

import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createRepository, type Repository } from './repository.ts'
import { describeRepository, fileInput, unique } from './repository-suite.ts'
import { jobs, organisations } from './schema.ts'

describeRepository((t) => {
  const { newOrganisation, makeDue } = t

  describe('jobs', () => {
    it('enqueues a queued job with defaults', async () => {
      const org = await newOrganisation()
      const job = await t.repo.enqueueJob({
        kind: unique('kind'),
        organisationId: org.id,
        payload: { path: 'a.png', nested: { n: 1 } },
      })
      expect(job).toMatchObject({
        organisationId: org.id,
        status: 'queued',
        dedupeKey: null,
        payload: { path: 'a.png', nested: { n: 1 } },
        result: null,
        error: null,
        attempts: 0,
        maxAttempts: 3,
        lockedBy: null,
        lockedAt: null,
      })
      expect(await t.repo.getJob(job.id)).toEqual(job)
      expect(await t.repo.getJob('42')).toBeUndefined()
    })

    it('returns the existing job for a dedupe key until that job fails', async () => {
      const kind = unique('kind')
      const dedupeKey = unique('cache')
      const first = await t.repo.enqueueJob({ kind, dedupeKey, payload: { n: 1 }, maxAttempts: 1 })
      const again = await t.otherRepo.enqueueJob({ kind, dedupeKey, payload: { n: 2 } })
      expect(again).toEqual(first)
      expect(await t.repo.findJobByDedupeKey(dedupeKey)).toEqual(first)

      const claimed = await t.repo.claimJob('worker-a', [kind])
      expect(await t.repo.enqueueJob({ kind, dedupeKey, payload: { n: 3 } })).toEqual(claimed)
      const failed = await t.repo.failJob(first.id, 'boom')
      expect(failed?.status).toBe('failed')

      const revived = await t.repo.enqueueJob({ kind, dedupeKey, payload: { n: 4 } })
      expect(revived).toMatchObject({
        id: first.id,
        status: 'queued',
        payload: { n: 4 },
        attempts: 0,
        maxAttempts: 3,
        error: null,
      })
    })

    it('returns a done job for its dedupe key as it is', async () => {
      const kind = unique('kind')
      const dedupeKey = unique('cache')
      const job = await t.repo.enqueueJob({ kind, dedupeKey, payload: {} })
      await t.repo.claimJob('w', [kind])
      const done = await t.repo.completeJob(job.id, { storageKey: 'derived/x' })
      expect(await t.repo.enqueueJob({ kind, dedupeKey, payload: {} })).toEqual(done)
    })

    it('enqueues every job that has no dedupe key', async () => {
      const kind = unique('kind')
      const a = await t.repo.enqueueJob({ kind, payload: {} })
      const b = await t.repo.enqueueJob({ kind, payload: {}, dedupeKey: null })
      expect(a.id).not.toBe(b.id)
    })

    it('claims the oldest due job of the requested kinds', async () => {
      const kind = unique('kind')
      const otherKind = unique('kind')
      await t.repo.enqueueJob({
        kind,
        payload: { n: 0 },
        runAfter: new Date(Date.now() + 3600_000),
      })
      const oldest = await t.repo.enqueueJob({ kind, payload: { n: 1 } })
      const newer = await t.repo.enqueueJob({ kind, payload: { n: 2 } })
      const other = await t.repo.enqueueJob({ kind: otherKind, payload: {} })

      const claimed = await t.repo.claimJob('worker-a', [kind])
      expect(claimed).toMatchObject({
        id: oldest.id,
        status: 'running',
        lockedBy: 'worker-a',
        attempts: 1,
      })
      expect(claimed?.lockedAt).toBeInstanceOf(Date)
      expect((await t.repo.claimJob('worker-a', [kind]))?.id).toBe(newer.id)
      expect(await t.repo.claimJob('worker-a', [kind])).toBeUndefined()
      expect(await t.repo.claimJob('worker-a', [])).toBeUndefined()
      expect((await t.repo.claimJob('worker-b', [kind, otherKind]))?.id).toBe(other.id)
    })

    it('gives every job to exactly one of many concurrent claimers', async () => {
      const kind = unique('kind')
      const enqueued = await Promise.all(
        Array.from({ length: 40 }, (_, n) => t.repo.enqueueJob({ kind, payload: { n } })),
      )
      const worker = async (name: string, workerRepo: Repository) => {
        const claimed: string[] = []
        for (;;) {
          const job = await workerRepo.claimJob(name, [kind])
          if (job === undefined) return claimed
          expect(job.lockedBy).toBe(name)
          claimed.push(job.id)
        }
      }

      const results = await Promise.all(
        Array.from({ length: 8 }, (_, n) =>
          worker(`worker-${n}`, n % 2 === 0 ? t.repo : t.otherRepo),
        ),
      )

      const claimed = results.flat()
      expect(claimed).toHaveLength(enqueued.length)
      expect(new Set(claimed)).toEqual(new Set(enqueued.map((job) => job.id)))
    })

    it('queues a failed job again after a backoff and fails it for good after maxAttempts', async () => {
      const kind = unique('kind')
      const job = await t.repo.enqueueJob({ kind, payload: {} })
      for (let attempt = 1; attempt <= 2; attempt++) {
        const claimed = await t.repo.claimJob('worker', [kind])
        expect(claimed).toMatchObject({ id: job.id, attempts: attempt })
        const retried = await t.repo.failJob(job.id, `failure ${attempt}`)
        expect(retried).toMatchObject({
          status: 'queued',
          error: `failure ${attempt}`,
          lockedBy: null,
          lockedAt: null,
        })
        expect(retried?.runAfter.getTime()).toBeGreaterThan(claimed?.lockedAt?.getTime() ?? 0)
        expect(await t.repo.claimJob('worker', [kind])).toBeUndefined()
        await makeDue(job.id)
      }
      await t.repo.claimJob('worker', [kind])
      const failed = await t.repo.failJob(job.id, 'failure 3')
      expect(failed).toMatchObject({ status: 'failed', attempts: 3, error: 'failure 3' })
      await makeDue(job.id)
      expect(await t.repo.claimJob('worker', [kind])).toBeUndefined()
      expect(await t.repo.failJob(job.id, 'again')).toBeUndefined()
    })

    it('doubles the backoff with every attempt up to the maximum', async () => {
      const kind = unique('kind')
      const minutes = 60_000
      const backoffRepo = createRepository(t.database.db, {
        retryBaseMs: 10 * minutes,
        retryMaxMs: 30 * minutes,
      })
      const job = await backoffRepo.enqueueJob({ kind, payload: {}, maxAttempts: 5 })
      const delays: number[] = []
      for (let attempt = 1; attempt <= 4; attempt++) {
        await makeDue(job.id)
        const claimed = await backoffRepo.claimJob('worker', [kind])
        const retried = await backoffRepo.failJob(job.id, 'again')
        // Both instants come from the t.database clock; rounding to 10 minutes absorbs the gap.
        delays.push((retried?.runAfter.getTime() ?? 0) - (claimed?.lockedAt?.getTime() ?? 0))
      }
      expect(delays.map((delay) => Math.round(delay / (10 * minutes)))).toEqual([1, 2, 3, 3])
    })

    it('fails a job at once when told not to retry', async () => {
      const kind = unique('kind')
      const job = await t.repo.enqueueJob({ kind, payload: {} })
      await t.repo.claimJob('worker', [kind])
      expect(await t.repo.failJob(job.id, 'bad input', { retry: false })).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: 'bad input',
      })
    })

    it('completes only a running job and keeps its result', async () => {
      const kind = unique('kind')
      const job = await t.repo.enqueueJob({ kind, payload: {} })
      expect(await t.repo.completeJob(job.id, { early: true })).toBeUndefined()
      await t.repo.claimJob('worker', [kind])
      const done = await t.repo.completeJob(job.id, { storageKey: 'derived/a.webp', width: 10 })
      expect(done).toMatchObject({
        status: 'done',
        result: { storageKey: 'derived/a.webp', width: 10 },
        lockedAt: null,
      })
      expect(await t.repo.completeJob(job.id, { twice: true })).toBeUndefined()
      expect(await t.repo.getJob(job.id)).toEqual(done)
    })

    it('completes a job without a result', async () => {
      const kind = unique('kind')
      const job = await t.repo.enqueueJob({ kind, payload: {} })
      await t.repo.claimJob('worker', [kind])
      expect(await t.repo.completeJob(job.id)).toMatchObject({ status: 'done', result: null })
    })

    it.each([
      ['a string', 'derived/a.webp'],
      ['a number', 42],
      ['an array', [1, 'two', { three: 3 }]],
      ['an object', { storageKey: 'derived/a.webp' }],
    ])('keeps %s as a result', async (_, result) => {
      const kind = unique('kind')
      const job = await t.repo.enqueueJob({ kind, payload: {} })
      await t.repo.claimJob('worker', [kind])
      await t.repo.completeJob(job.id, result)
      expect((await t.repo.getJob(job.id))?.result).toEqual(result)
    })

    it('claims a running job again once its lock is stale', async () => {
      const kind = unique('kind')
      const job = await t.repo.enqueueJob({ kind, payload: {} })
      await t.repo.claimJob('crashed-worker', [kind])
      expect(await t.repo.claimJob('other-worker', [kind])).toBeUndefined()
      await t.database.db
        .update(jobs)
        .set({ lockedAt: sql`now() - interval '6 minutes'` })
        .where(eq(jobs.id, job.id))

      const reclaimed = await t.repo.claimJob('other-worker', [kind])

      expect(reclaimed).toMatchObject({
        id: job.id,
        status: 'running',
        lockedBy: 'other-worker',
        attempts: 2,
      })
    })

    it('fails a stale running job that has no attempts left instead of running it again', async () => {
      const kind = unique('kind')
      const job = await t.repo.enqueueJob({ kind, payload: {}, maxAttempts: 1 })
      const next = await t.repo.enqueueJob({ kind, payload: {} })
      await t.repo.claimJob('crashed-worker', [kind])
      await t.database.db
        .update(jobs)
        .set({ lockedAt: sql`now() - interval '1 hour'` })
        .where(eq(jobs.id, job.id))

      expect((await t.repo.claimJob('other-worker', [kind]))?.id).toBe(next.id)
      expect(await t.repo.getJob(job.id)).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: 'worker crashed-worker stopped responding',
        lockedBy: null,
      })
    })

    it('removes the jobs, files, presets and keys of a deleted organisation', async () => {
      const org = await newOrganisation()
      const file = await t.repo.upsertFile(org.id, fileInput('x.png'))
      const job = await t.repo.enqueueJob({
        kind: unique('kind'),
        organisationId: org.id,
        payload: {},
      })
      const key = await t.repo.createSigningKey(org.id)
      await t.repo.upsertPreset(org.id, { name: 'p', transformation: 't.flip()' })
      await t.database.db.delete(organisations).where(eq(organisations.id, org.id))
      expect(await t.repo.findFile(org.id, file.path)).toBeUndefined()
      expect(await t.repo.getJob(job.id)).toBeUndefined()
      expect(await t.repo.findSigningKey(key.accessKey)).toBeUndefined()
      expect(await t.repo.listPresets(org.id)).toEqual([])
    })
  })
})
