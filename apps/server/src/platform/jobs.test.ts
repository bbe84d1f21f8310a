// Jobs are database rows: a slow request enqueued by one server process is finished by the
// next one to start on the same database.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAi, createEngine } from '@tessera/engine'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { createDatabase, createRepository } from '../db/index.ts'
import {
  createThrowawayDatabase,
  defaultTestDatabase,
  openTestDatabase,
} from '../db/test-database.ts'
import { startTestServer, testDatabases } from '../test-server.ts'
import { createJobRunner, IDLE_POLL_FACTOR, idlePollMs, REFUND_SWEEP_INTERVAL_MS } from './jobs.ts'
import { createLogger } from './logger.ts'
import { createMetrics } from './metrics.ts'

describe('background jobs', () => {
  const cleanup: string[] = []
  afterAll(async () => {
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true })
  })

  it('survive a restart: a job queued before a stop is done after the next start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tessera-jobs-'))
    cleanup.push(dataDir)
    // The demo organisation has strict transformations: its AI operations run from presets.
    const path = '/v2/demo/p:square-crop/samples/chelsea.png'

    // On the run's one database (decision 012): on PostgreSQL both servers open one database;
    // on PGlite, one folder (its own reopening is db/database.test.ts's subject).
    const kind = defaultTestDatabase()
    const shared =
      kind === 'postgres' ? await createThrowawayDatabase({ migrated: true }) : undefined
    const env = shared === undefined ? {} : { DATABASE_URL: shared.url }
    const options = { dataDir, persistDatabase: kind === 'pglite', runJobs: false }
    const first = await startTestServer(kind, env, options)
    const { repo } = first.services.context
    const demo = await repo.findOrganisationByCloudName('demo')
    await repo.upsertPreset(demo?.id as string, {
      name: 'square-crop',
      transformation: 'ic.crop(w:64,h:64)',
    })
    const queued = await fetch(`${first.url}${path}`)
    expect(queued.status).toBe(202)
    const { jobId } = (await queued.json()) as { jobId: string }
    expect((await first.services.context.repo.getJob(jobId))?.status).toBe('queued')
    await first.stop()

    const second = await startTestServer(kind, env, options)
    try {
      expect(await second.services.jobs.drain()).toBe(1)
      expect((await second.services.context.repo.getJob(jobId))?.status).toBe('done')
      const done = await fetch(`${second.url}${path}`)
      expect(done.status).toBe(200)
      expect(done.headers.get('content-type')).toBe('image/png')
    } finally {
      await second.stop()
      await shared?.drop()
    }
  }, 60_000)
})

describe('stopping the job runner (a process shutting down)', () => {
  async function setUp() {
    const database = await createDatabase({ dataDir: 'memory://' })
    const repo = createRepository(database.db)
    const logger = createLogger({ logLevel: 'silent' })
    let release: () => void = () => undefined
    const started: string[] = []
    const runner = createJobRunner(
      { repo, logger, metrics: createMetrics() },
      {
        slow: {
          run: async (_payload, job) => {
            started.push(job.id)
            await new Promise<void>((resolve) => {
              release = resolve
            })
            return { ok: true }
          },
          isPermanent: () => false,
        },
      },
      { pollMs: 10 },
    )
    /** Queues two slow jobs and starts the runner; answers them once it has started the first. */
    async function startOnTwoJobs() {
      const job = await repo.enqueueJob({ kind: 'slow', payload: {} })
      const next = await repo.enqueueJob({ kind: 'slow', payload: {} })
      runner.start()
      await expect.poll(() => started.length).toBe(1)
      return { job, next }
    }
    return { database, repo, runner, started, startOnTwoJobs, release: () => release() }
  }

  it('hands a job still running after the grace time back to the queue, unclaimed and not counted', async () => {
    const { database, repo, runner, startOnTwoJobs, release } = await setUp()
    try {
      const { job, next } = await startOnTwoJobs()
      await runner.stop({ graceMs: 20 })
      expect(await repo.getJob(job.id)).toMatchObject({
        status: 'queued',
        attempts: 0,
        lockedBy: null,
      })
      expect((await repo.getJob(next.id))?.status).toBe('queued')
      // Another process claims it at once.
      expect((await repo.claimJob('other-worker', ['slow']))?.id).toBe(job.id)
      release()
    } finally {
      await database.close()
    }
  })

  it('lets a job that ends within the grace time finish, and claims no other', async () => {
    const { database, repo, runner, started, startOnTwoJobs, release } = await setUp()
    try {
      const { job, next } = await startOnTwoJobs()
      const stopped = runner.stop({ graceMs: 60_000 })
      release()
      await stopped
      expect((await repo.getJob(job.id))?.status).toBe('done')
      expect((await repo.getJob(next.id))?.status).toBe('queued')
      expect(started).toHaveLength(1)
    } finally {
      await database.close()
    }
  })
})

describe('the poll’s sweep for failed jobs left unrefunded', () => {
  it('runs at the first empty round and then at most every interval; a drain always sweeps', async () => {
    const { database, close } = await openTestDatabase('pglite')
    try {
      const repo = createRepository(database.db)
      const calls = { claims: 0, sweeps: 0 }
      const counted: typeof repo = {
        ...repo,
        claimJob: (...args) => {
          calls.claims++
          return repo.claimJob(...args)
        },
        listUnrefundedFailedJobs: (...args) => {
          calls.sweeps++
          return repo.listUnrefundedFailedJobs(...args)
        },
      }
      const runner = createJobRunner(
        { repo: counted, logger: createLogger({ logLevel: 'silent' }), metrics: createMetrics() },
        { idle: { run: async () => ({}), isPermanent: () => false } },
        { pollMs: 10, refundSweepMs: 3_600_000 },
      )
      runner.start()
      // Many empty rounds, all within the (here one hour) interval.
      await expect.poll(() => calls.claims, { timeout: 30_000 }).toBeGreaterThanOrEqual(6)
      expect(REFUND_SWEEP_INTERVAL_MS).toBeGreaterThan(1_000)
      expect(calls.sweeps).toBe(1)
      expect(await runner.drain()).toBe(0)
      expect(calls.sweeps).toBe(2)
      await runner.stop()
    } finally {
      await close()
    }
  }, 60_000)
})

describe('the poll of an idle queue', () => {
  it('slows down to IDLE_POLL_FACTOR × pollMs after empty rounds, and is back at pollMs after a job', () => {
    expect([0, 1, 2, 3, 4, 10].map((rounds) => idlePollMs(250, rounds))).toEqual([
      250,
      250,
      500,
      1000,
      250 * IDLE_POLL_FACTOR,
      250 * IDLE_POLL_FACTOR,
    ])
  })

  it('runs a job woken during a running round right after it, not at the next poll', async () => {
    const { database, close } = await openTestDatabase('pglite')
    try {
      const repo = createRepository(database.db)
      let holdFirst: (() => void) | undefined
      const firstHeld = new Promise<void>((resolve) => {
        holdFirst = resolve
      })
      let claims = 0
      let inFirst: () => void = () => undefined
      const firstStarted = new Promise<void>((resolve) => {
        inFirst = resolve
      })
      const held: typeof repo = {
        ...repo,
        // The first round finds the queue empty, then waits until the job is queued and woken.
        claimJob: async (...args) => {
          claims++
          const claimed = await repo.claimJob(...args)
          if (claims === 1) {
            inFirst()
            await firstHeld
          }
          return claimed
        },
      }
      const ran: string[] = []
      const runner = createJobRunner(
        { repo: held, logger: createLogger({ logLevel: 'silent' }), metrics: createMetrics() },
        { work: { run: async (_payload, job) => ran.push(job.id), isPermanent: () => false } },
        // No second poll within the test: only the wake can run the job.
        { pollMs: 3_600_000 },
      )
      runner.start()
      await firstStarted
      const job = await repo.enqueueJob({ kind: 'work', payload: {} })
      runner.wake()
      holdFirst?.()
      await expect.poll(() => ran, { timeout: 30_000 }).toEqual([job.id])
      await runner.stop()
    } finally {
      await close()
    }
  }, 60_000)
})

describe.each(testDatabases('database'))(
  'the running job’s heartbeat on %s (a process killed with -9)',
  (kind) => {
    // Small values: a lock not refreshed for 1.5 s is stale; a live runner refreshes it every 0.1 s.
    const STALE_MS = 1_500
    const HEARTBEAT_MS = 100

    async function setUp() {
      const { database, close } = await openTestDatabase(kind)
      const repo = createRepository(database.db, { staleJobAfterMs: STALE_MS })
      const logger = createLogger({ logLevel: 'silent' })
      const started: string[] = []
      let release: () => void = () => undefined
      const runner = (blocking: boolean) =>
        createJobRunner(
          { repo, logger, metrics: createMetrics() },
          {
            slow: {
              run: async (_payload, job) => {
                started.push(job.id)
                if (blocking) {
                  await new Promise<void>((resolve) => {
                    release = resolve
                  })
                }
                return { ok: true }
              },
              isPermanent: () => false,
            },
          },
          { pollMs: 20, heartbeatMs: HEARTBEAT_MS },
        )
      return { repo, runner, started, release: () => release(), close }
    }

    it('lets another runner take over a running job whose heartbeat stopped', async () => {
      const { repo, runner, started, close } = await setUp()
      const survivor = runner(false)
      try {
        const job = await repo.enqueueJob({ kind: 'slow', payload: {} })
        // Claimed by a process that then died: running, locked, and never refreshed again.
        expect((await repo.claimJob('killed-worker', ['slow']))?.id).toBe(job.id)
        survivor.start()
        await expect.poll(() => started, { timeout: 30_000, interval: 50 }).toContain(job.id)
        await expect
          .poll(async () => (await repo.getJob(job.id))?.status, { timeout: 10_000 })
          .toBe('done')
        expect((await repo.getJob(job.id))?.attempts).toBe(2)
      } finally {
        await survivor.stop()
        await close()
      }
    }, 60_000)

    it('leaves a job alone while its runner’s heartbeat goes on past the stale time', async () => {
      const { repo, runner, started, release, close } = await setUp()
      const live = runner(true)
      try {
        const job = await repo.enqueueJob({ kind: 'slow', payload: {} })
        live.start()
        await expect.poll(() => started.length, { timeout: 10_000 }).toBe(1)
        const claimed = await repo.getJob(job.id)
        const claimedAt = claimed?.lockedAt?.getTime() ?? Number.POSITIVE_INFINITY
        // Wait for the event: heartbeats have carried the lock past twice the stale time.
        await expect
          .poll(async () => (await repo.getJob(job.id))?.lockedAt?.getTime() ?? 0, {
            timeout: 30_000,
            interval: 50,
          })
          .toBeGreaterThan(claimedAt + 2 * STALE_MS)
        expect(await repo.claimJob('other-worker', ['slow'])).toBeUndefined()
        expect((await repo.getJob(job.id))?.lockedBy).toBe(claimed?.lockedBy)
        release()
        await expect
          .poll(async () => (await repo.getJob(job.id))?.status, { timeout: 10_000 })
          .toBe('done')
        expect((await repo.getJob(job.id))?.attempts).toBe(1)
        expect(started).toEqual([job.id])
      } finally {
        release()
        await live.stop()
        await close()
      }
    }, 60_000)
  },
)

describe.each(['pglite', 'postgres'] as const)('the lanes of the job queue on %s', (kind) => {
  it('serves visitors’ and organisations’ jobs in turn, so a flood of one does not starve the other', async () => {
    // Issue 19 finding 4: ten visitor jobs queued first used to run before the organisation's.
    const { database, close } = await openTestDatabase(kind)
    const repo = createRepository(database.db)
    const order: string[] = []
    const handler = {
      run: async (payload: unknown) => {
        order.push((payload as { name: string }).name)
      },
      isPermanent: () => false,
    }
    const runner = createJobRunner(
      { repo, logger: createLogger({ logLevel: 'silent' }), metrics: createMetrics() },
      { visitor: handler, member: handler },
      { pollMs: 10, lanes: [['visitor']] },
    )
    try {
      for (let i = 0; i < 10; i++)
        await repo.enqueueJob({ kind: 'visitor', payload: { name: `v${i}` } })
      for (let i = 0; i < 3; i++)
        await repo.enqueueJob({ kind: 'member', payload: { name: `m${i}` } })
      expect(await runner.drain()).toBe(13)
      expect(order.slice(0, 6)).toEqual(['v0', 'm0', 'v1', 'm1', 'v2', 'm2'])
      expect(order.slice(6)).toEqual(['v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9'])
    } finally {
      await close()
    }
  })
})

describe('a job whose AI model ran out of time', () => {
  it('fails at once, whatever its kind says, since the same input takes as long again', async () => {
    // A real model timeout: a cold worker does not start within 100 ms.
    const ai = createAi({ timeoutMs: 100 })
    const input = await sharp({
      create: { width: 32, height: 32, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .png()
      .toBuffer()
    const timeout = await createEngine({ ai })
      .transform({ input, operations: parsePattern('qr.scan()').value })
      .catch((error: unknown) => error)
    await ai.close()
    const database = await createDatabase({ dataDir: 'memory://' })
    const repo = createRepository(database.db)
    const runner = createJobRunner(
      { repo, logger: createLogger({ logLevel: 'silent' }), metrics: createMetrics() },
      {
        // As a prediction does: the engine's error wrapped in an HTTP error (503, not permanent).
        wrapped: {
          run: async () => {
            throw new Error('The transformation took too long', { cause: timeout })
          },
          isPermanent: () => false,
        },
      },
      { pollMs: 10 },
    )
    try {
      const job = await repo.enqueueJob({ kind: 'wrapped', payload: {} })
      expect(await runner.drain()).toBe(1)
      expect(await repo.getJob(job.id)).toMatchObject({ status: 'failed', attempts: 1 })
    } finally {
      await database.close()
    }
  }, 60_000)
})
