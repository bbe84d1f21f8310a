// One suite, two engines: every repository behaviour is checked on the embedded PGlite and on a
// PostgreSQL 15 server, because production runs on either with the same migrations.
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { count, eq, sql } from 'drizzle-orm'
import { pgSchema, serial, text } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase, type Database, MIGRATIONS_FOLDER } from './database.ts'
import { isUniqueViolation } from './query-helpers.ts'
import { createRepository, type FileInput, type Repository } from './repository.ts'
import { files, jobs, organisations, presets } from './schema.ts'
import { createThrowawayDatabase } from './test-database.ts'

interface Backend {
  name: string
  /** Two handles on one database; on PostgreSQL they are separate pools, like two processes. */
  open(): Promise<{ first: Database; second: Database; close(): Promise<void> }>
}

const BACKENDS: Backend[] = [
  {
    name: 'PGlite (in memory)',
    open: async () => {
      const database = await createDatabase({ dataDir: 'memory://' })
      return { first: database, second: database, close: () => database.close() }
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const target = await createThrowawayDatabase()
      const opened: Database[] = []
      const close = async () => {
        for (const database of opened) await database.close()
        await target.drop()
      }
      try {
        opened.push(await createDatabase({ url: target.url }))
        opened.push(await createDatabase({ url: target.url }))
      } catch (error) {
        await close()
        throw error
      }
      const [first, second] = opened as [Database, Database]
      return { first, second, close }
    },
  },
]

const SETUP_TIMEOUT = 60_000

const migrationsTable = pgSchema('drizzle').table('__drizzle_migrations', {
  id: serial('id'),
  hash: text('hash'),
})

const unique = (label: string) => `${label}_${randomBytes(5).toString('hex')}`
const randomHash = () => randomBytes(32).toString('hex')

function fileInput(path: string, overrides: Partial<FileInput> = {}): FileInput {
  return {
    path,
    name: path.split('/').at(-1) ?? path,
    size: 1234,
    format: 'png',
    contentType: 'image/png',
    width: 10,
    height: 20,
    hash: randomHash(),
    storageKey: `originals/${unique('k')}`,
    ...overrides,
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('Expected the promise to reject')
}

function causeCode(error: unknown): unknown {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as Error & { code?: unknown }).code
    if (code !== undefined) return code
  }
  return undefined
}

describe.each(BACKENDS)('the repository on $name', (backend) => {
  let handles: Awaited<ReturnType<Backend['open']>> | undefined
  let database: Database
  let repo: Repository
  let otherRepo: Repository

  let setupError: unknown

  // A setup failure (PostgreSQL down) fails every test of the suite rather than skipping it.
  beforeAll(async () => {
    try {
      handles = await backend.open()
      database = handles.first
      repo = createRepository(handles.first.db)
      otherRepo = createRepository(handles.second.db)
    } catch (error) {
      setupError = error
    }
  }, SETUP_TIMEOUT)

  beforeEach(() => {
    if (setupError !== undefined) throw setupError
  })

  afterAll(async () => {
    await handles?.close()
  }, SETUP_TIMEOUT)

  const newOrganisation = () =>
    repo.createOrganisation({ cloudName: unique('org'), name: 'An organisation' })

  /** Makes a job due now, as if its backoff had passed. */
  const makeDue = (id: string) =>
    database.db
      .update(jobs)
      .set({ runAfter: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, id))

  describe('migrations', () => {
    it('leaves the database unchanged when run again', async () => {
      const journal = JSON.parse(
        await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
      ) as { entries: unknown[] }
      await newOrganisation()
      const countOrganisations = async () =>
        (await database.db.select({ n: count() }).from(organisations))[0]?.n
      const before = await countOrganisations()

      await database.migrate()
      await database.migrate()

      const [applied] = await database.db.select({ n: count() }).from(migrationsTable)
      expect(applied?.n).toBe(journal.entries.length)
      expect(await countOrganisations()).toBe(before)
    })

    it('answers a ping', async () => {
      await expect(database.ping()).resolves.toBeUndefined()
    })
  })

  describe('organisations', () => {
    it('finds an organisation by cloud name and by id', async () => {
      const created = await repo.createOrganisation({
        cloudName: unique('Acme-'),
        name: 'Acme',
        requireSignedUrls: true,
      })
      expect(created).toMatchObject({ name: 'Acme', requireSignedUrls: true })
      expect(created.createdAt).toBeInstanceOf(Date)
      expect(await repo.findOrganisationByCloudName(created.cloudName)).toEqual(created)
      expect(await repo.findOrganisationById(created.id)).toEqual(created)
      expect(await repo.findOrganisationByCloudName(unique('nobody'))).toBeUndefined()
      expect(await repo.findOrganisationById('not-a-uuid')).toBeUndefined()
    })

    it('defaults requireSignedUrls to false', async () => {
      expect((await newOrganisation()).requireSignedUrls).toBe(false)
    })

    it('refuses a cloud name that is already taken', async () => {
      const first = await newOrganisation()
      const error = await rejection(
        repo.createOrganisation({ cloudName: first.cloudName, name: 'Impostor' }),
      )
      expect(isUniqueViolation(error, 'organisations_cloud_name_key')).toBe(true)
    })

    it.each(['ab', 'has space', 'dot.name', 'ünï'])('refuses the cloud name %j', async (name) => {
      const error = await rejection(repo.createOrganisation({ cloudName: name, name: 'Bad' }))
      expect(causeCode(error)).toBe('23514')
      expect(isUniqueViolation(error)).toBe(false)
    })

    it('finds a zone only through its own organisation', async () => {
      const a = await newOrganisation()
      const b = await newOrganisation()
      const zone = await repo.createZone(a.id, { slug: 'zone_1', name: 'Main' })
      await repo.createZone(b.id, { slug: 'zone_1', name: 'Same slug, other tenant' })
      expect(await repo.findZone(a.id, 'zone_1')).toEqual(zone)
      expect((await repo.findZone(b.id, 'zone_1'))?.id).not.toBe(zone.id)
      expect(await repo.findZone(a.id, 'zone_2')).toBeUndefined()
      const duplicate = await rejection(repo.createZone(a.id, { slug: 'zone_1', name: 'Again' }))
      expect(isUniqueViolation(duplicate, 'zones_organisation_slug_key')).toBe(true)
    })

    it('refuses a zone slug that is not six URL-safe characters', async () => {
      const org = await newOrganisation()
      for (const slug of ['short', 'toolong', 'ab/cde']) {
        expect(causeCode(await rejection(repo.createZone(org.id, { slug, name: 'x' })))).toBe(
          '23514',
        )
      }
    })
  })

  describe('signing keys', () => {
    it('finds an active key by access key and forgets it once revoked', async () => {
      const org = await newOrganisation()
      const key = await repo.createSigningKey(org.id)
      expect(key.accessKey).toMatch(/^[0-9a-f]{32}$/)
      expect(key.secret).toMatch(/^[0-9a-f]{64}$/)
      expect(await repo.findSigningKey(key.accessKey)).toEqual(key)

      const other = await newOrganisation()
      expect(await repo.revokeSigningKey(other.id, key.accessKey)).toBe(false)
      expect(await repo.findSigningKey(key.accessKey)).toEqual(key)

      expect(await repo.revokeSigningKey(org.id, key.accessKey)).toBe(true)
      expect(await repo.findSigningKey(key.accessKey)).toBeUndefined()
      expect(await repo.revokeSigningKey(org.id, key.accessKey)).toBe(false)
    })

    it('keeps access keys unique across organisations', async () => {
      const accessKey = unique('ak')
      await repo.createSigningKey((await newOrganisation()).id, { accessKey, secret: 's1' })
      const error = await rejection(
        repo.createSigningKey((await newOrganisation()).id, { accessKey, secret: 's2' }),
      )
      expect(isUniqueViolation(error, 'signing_keys_access_key_key')).toBe(true)
    })
  })

  describe('files', () => {
    it("does not find one organisation's file with another organisation's id", async () => {
      const a = await newOrganisation()
      const b = await newOrganisation()
      const file = await repo.upsertFile(a.id, fileInput('photos/cat.png'))
      expect(await repo.findFile(a.id, 'photos/cat.png')).toEqual(file)
      expect(await repo.findFile(b.id, 'photos/cat.png')).toBeUndefined()
      expect(await repo.listFiles(b.id, { limit: 10 })).toEqual([])
      expect(await repo.deleteFile(b.id, 'photos/cat.png')).toBeUndefined()
      expect(await repo.findFile(a.id, 'photos/cat.png')).toEqual(file)
    })

    it('stores a new file at version 1 with its fields', async () => {
      const org = await newOrganisation()
      const input = fileInput('a/b/c.png', { size: 5_000_000_000, width: null, height: null })
      const file = await repo.upsertFile(org.id, input)
      expect(file).toMatchObject({ ...input, organisationId: org.id, version: 1 })
      expect(file.size).toBe(5_000_000_000)
      expect(file.updatedAt).toBeInstanceOf(Date)
    })

    it('bumps the version and replaces the fields when a path is overwritten', async () => {
      const org = await newOrganisation()
      const first = await repo.upsertFile(org.id, fileInput('logo.png'))
      const replacement = fileInput('logo.png', { format: 'webp', contentType: 'image/webp' })
      const second = await repo.upsertFile(org.id, replacement)
      const third = await repo.upsertFile(org.id, fileInput('logo.png'))

      expect(second).toMatchObject({ ...replacement, id: first.id, version: 2 })
      expect(second.createdAt).toEqual(first.createdAt)
      expect(third.version).toBe(3)
      expect(await repo.findFile(org.id, 'logo.png')).toEqual(third)
    })

    it('allows a path once per organisation', async () => {
      const a = await newOrganisation()
      const b = await newOrganisation()
      const row = (organisationId: string) => ({ organisationId, ...fileInput('same.png') })
      await database.db.insert(files).values(row(a.id))
      await database.db.insert(files).values(row(b.id))
      const error = await rejection(database.db.insert(files).values(row(a.id)))
      expect(isUniqueViolation(error, 'files_organisation_path_key')).toBe(true)
    })

    it('refuses a hash that is not sha256 hex', async () => {
      const org = await newOrganisation()
      const error = await rejection(repo.upsertFile(org.id, fileInput('x.png', { hash: 'abc' })))
      expect(causeCode(error)).toBe('23514')
    })

    it('lists files by path with a literal prefix, a limit and an offset', async () => {
      const org = await newOrganisation()
      for (const path of ['b/2.png', 'a/1.png', 'b/1.png', 'b%/x.png', 'b_/y.png', 'bb/z.png']) {
        await repo.upsertFile(org.id, fileInput(path))
      }
      const paths = async (options: Parameters<Repository['listFiles']>[1]) =>
        (await repo.listFiles(org.id, options)).map((file) => file.path)

      expect(await paths({ limit: 100 })).toEqual([
        'a/1.png',
        'b%/x.png',
        'b/1.png',
        'b/2.png',
        'b_/y.png',
        'bb/z.png',
      ])
      expect(await paths({ prefix: 'b/', limit: 100 })).toEqual(['b/1.png', 'b/2.png'])
      expect(await paths({ prefix: 'b%', limit: 100 })).toEqual(['b%/x.png'])
      expect(await paths({ prefix: 'b_', limit: 100 })).toEqual(['b_/y.png'])
      expect(await paths({ limit: 2, offset: 1 })).toEqual(['b%/x.png', 'b/1.png'])
      expect(await paths({ prefix: 'zzz', limit: 10 })).toEqual([])
      await expect(repo.listFiles(org.id, { limit: -1 })).rejects.toThrow(RangeError)
    })

    it('deletes a file with its derived images and returns their storage keys', async () => {
      const org = await newOrganisation()
      const file = await repo.upsertFile(org.id, fileInput('gone.png'))
      const derived = await repo.recordDerived(derivedInput(org.id, file.id, file.version))

      const deleted = await repo.deleteFile(org.id, 'gone.png')

      expect(deleted).toEqual({ file, derivedStorageKeys: [derived.storageKey] })
      expect(await repo.findFile(org.id, 'gone.png')).toBeUndefined()
      expect(await repo.findDerived(derived.cacheKey)).toBeUndefined()
      expect(await repo.deleteFile(org.id, 'gone.png')).toBeUndefined()
    })
  })

  describe('presets', () => {
    it('creates, replaces and lists presets per organisation', async () => {
      const a = await newOrganisation()
      const b = await newOrganisation()
      const thumb = await repo.upsertPreset(a.id, {
        name: 'thumb',
        transformation: 't.resize(w:$w)',
        params: { w: { type: 'integer', default: 100 } },
      })
      expect(thumb).toMatchObject({ archived: false, params: { w: { default: 100 } } })
      await repo.upsertPreset(a.id, { name: 'avatar', transformation: 't.flip()' })
      await repo.upsertPreset(b.id, { name: 'thumb', transformation: 't.flop()' })

      const replaced = await repo.upsertPreset(a.id, {
        name: 'thumb',
        transformation: 't.resize(w:200)',
        archived: true,
      })

      expect(replaced).toMatchObject({ id: thumb.id, params: {}, archived: true })
      expect(await repo.findPreset(a.id, 'thumb')).toEqual(replaced)
      expect((await repo.findPreset(b.id, 'thumb'))?.transformation).toBe('t.flop()')
      expect((await repo.listPresets(a.id)).map((preset) => preset.name)).toEqual([
        'avatar',
        'thumb',
      ])
      expect(await repo.findPreset(a.id, 'missing')).toBeUndefined()
    })

    it('allows a preset name once per organisation', async () => {
      const org = await newOrganisation()
      const row = { organisationId: org.id, name: 'p', transformation: 't.flip()' }
      await database.db.insert(presets).values(row)
      const error = await rejection(database.db.insert(presets).values(row))
      expect(isUniqueViolation(error, 'presets_organisation_name_key')).toBe(true)
    })
  })

  describe('derived images', () => {
    it('records a cache key once and returns the first row to a later writer', async () => {
      const org = await newOrganisation()
      const file = await repo.upsertFile(org.id, fileInput('d.png'))
      const input = derivedInput(org.id, file.id, file.version)
      const first = await repo.recordDerived(input)
      const second = await otherRepo.recordDerived({ ...input, storageKey: 'derived/other' })

      expect(first).toMatchObject({ ...input, size: 99 })
      expect(second).toEqual(first)
      expect(await repo.findDerived(input.cacheKey)).toEqual(first)
      expect(await repo.findDerived(unique('missing'))).toBeUndefined()
    })

    it('keeps the transformation context, filling in one a row stored without it', async () => {
      const org = await newOrganisation()
      const file = await repo.upsertFile(org.id, fileInput('c.png'))
      const input = derivedInput(org.id, file.id, file.version)
      const context = [{ name: 'od.detect', data: { objects: [{ label: 'person' }] } }]
      expect((await repo.recordDerived(input)).context).toBeNull()
      const filled = await repo.recordDerived({ ...input, context })
      expect(filled.context).toEqual(context)
      // A context once kept is not replaced.
      const again = await repo.recordDerived({ ...input, context: [{ name: 'other' }] })
      expect(again.context).toEqual(context)
      expect((await repo.findDerived(input.cacheKey))?.context).toEqual(context)
    })

    it('moves lastAccessedAt forward when touched', async () => {
      const org = await newOrganisation()
      const file = await repo.upsertFile(org.id, fileInput('t.png'))
      const derived = await repo.recordDerived(derivedInput(org.id, file.id, file.version))
      await repo.touchDerived(derived.id)
      const touched = await repo.findDerived(derived.cacheKey)
      expect(touched?.lastAccessedAt.getTime()).toBeGreaterThanOrEqual(
        derived.lastAccessedAt.getTime(),
      )
    })

    it("forgets a file's derived images and returns their storage keys", async () => {
      const org = await newOrganisation()
      const file = await repo.upsertFile(org.id, fileInput('many.png'))
      const other = await repo.upsertFile(org.id, fileInput('other.png'))
      const one = await repo.recordDerived(derivedInput(org.id, file.id, 1))
      const two = await repo.recordDerived(derivedInput(org.id, file.id, 1))
      const kept = await repo.recordDerived(derivedInput(org.id, other.id, 1))

      const keys = await repo.deleteDerivedForFile(file.id)

      expect(keys.sort()).toEqual([one.storageKey, two.storageKey].sort())
      expect(await repo.findDerived(one.cacheKey)).toBeUndefined()
      expect(await repo.findDerived(kept.cacheKey)).toEqual(kept)
      expect(await repo.deleteDerivedForFile(file.id)).toEqual([])
    })
  })

  describe('jobs', () => {
    it('enqueues a queued job with defaults', async () => {
      const org = await newOrganisation()
      const job = await repo.enqueueJob({
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
      expect(await repo.getJob(job.id)).toEqual(job)
      expect(await repo.getJob('42')).toBeUndefined()
    })

    it('returns the existing job for a dedupe key until that job fails', async () => {
      const kind = unique('kind')
      const dedupeKey = unique('cache')
      const first = await repo.enqueueJob({ kind, dedupeKey, payload: { n: 1 }, maxAttempts: 1 })
      const again = await otherRepo.enqueueJob({ kind, dedupeKey, payload: { n: 2 } })
      expect(again).toEqual(first)
      expect(await repo.findJobByDedupeKey(dedupeKey)).toEqual(first)

      const claimed = await repo.claimJob('worker-a', [kind])
      expect(await repo.enqueueJob({ kind, dedupeKey, payload: { n: 3 } })).toEqual(claimed)
      const failed = await repo.failJob(first.id, 'boom')
      expect(failed?.status).toBe('failed')

      const revived = await repo.enqueueJob({ kind, dedupeKey, payload: { n: 4 } })
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
      const job = await repo.enqueueJob({ kind, dedupeKey, payload: {} })
      await repo.claimJob('w', [kind])
      const done = await repo.completeJob(job.id, { storageKey: 'derived/x' })
      expect(await repo.enqueueJob({ kind, dedupeKey, payload: {} })).toEqual(done)
    })

    it('enqueues every job that has no dedupe key', async () => {
      const kind = unique('kind')
      const a = await repo.enqueueJob({ kind, payload: {} })
      const b = await repo.enqueueJob({ kind, payload: {}, dedupeKey: null })
      expect(a.id).not.toBe(b.id)
    })

    it('claims the oldest due job of the requested kinds', async () => {
      const kind = unique('kind')
      const otherKind = unique('kind')
      await repo.enqueueJob({ kind, payload: { n: 0 }, runAfter: new Date(Date.now() + 3600_000) })
      const oldest = await repo.enqueueJob({ kind, payload: { n: 1 } })
      const newer = await repo.enqueueJob({ kind, payload: { n: 2 } })
      const other = await repo.enqueueJob({ kind: otherKind, payload: {} })

      const claimed = await repo.claimJob('worker-a', [kind])
      expect(claimed).toMatchObject({
        id: oldest.id,
        status: 'running',
        lockedBy: 'worker-a',
        attempts: 1,
      })
      expect(claimed?.lockedAt).toBeInstanceOf(Date)
      expect((await repo.claimJob('worker-a', [kind]))?.id).toBe(newer.id)
      expect(await repo.claimJob('worker-a', [kind])).toBeUndefined()
      expect(await repo.claimJob('worker-a', [])).toBeUndefined()
      expect((await repo.claimJob('worker-b', [kind, otherKind]))?.id).toBe(other.id)
    })

    it('gives every job to exactly one of many concurrent claimers', async () => {
      const kind = unique('kind')
      const enqueued = await Promise.all(
        Array.from({ length: 40 }, (_, n) => repo.enqueueJob({ kind, payload: { n } })),
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
        Array.from({ length: 8 }, (_, n) => worker(`worker-${n}`, n % 2 === 0 ? repo : otherRepo)),
      )

      const claimed = results.flat()
      expect(claimed).toHaveLength(enqueued.length)
      expect(new Set(claimed)).toEqual(new Set(enqueued.map((job) => job.id)))
    })

    it('queues a failed job again after a backoff and fails it for good after maxAttempts', async () => {
      const kind = unique('kind')
      const job = await repo.enqueueJob({ kind, payload: {} })
      for (let attempt = 1; attempt <= 2; attempt++) {
        const claimed = await repo.claimJob('worker', [kind])
        expect(claimed).toMatchObject({ id: job.id, attempts: attempt })
        const retried = await repo.failJob(job.id, `failure ${attempt}`)
        expect(retried).toMatchObject({
          status: 'queued',
          error: `failure ${attempt}`,
          lockedBy: null,
          lockedAt: null,
        })
        expect(retried?.runAfter.getTime()).toBeGreaterThan(claimed?.lockedAt?.getTime() ?? 0)
        expect(await repo.claimJob('worker', [kind])).toBeUndefined()
        await makeDue(job.id)
      }
      await repo.claimJob('worker', [kind])
      const failed = await repo.failJob(job.id, 'failure 3')
      expect(failed).toMatchObject({ status: 'failed', attempts: 3, error: 'failure 3' })
      await makeDue(job.id)
      expect(await repo.claimJob('worker', [kind])).toBeUndefined()
      expect(await repo.failJob(job.id, 'again')).toBeUndefined()
    })

    it('doubles the backoff with every attempt up to the maximum', async () => {
      const kind = unique('kind')
      const minutes = 60_000
      const backoffRepo = createRepository(database.db, {
        retryBaseMs: 10 * minutes,
        retryMaxMs: 30 * minutes,
      })
      const job = await backoffRepo.enqueueJob({ kind, payload: {}, maxAttempts: 5 })
      const delays: number[] = []
      for (let attempt = 1; attempt <= 4; attempt++) {
        await makeDue(job.id)
        const claimed = await backoffRepo.claimJob('worker', [kind])
        const retried = await backoffRepo.failJob(job.id, 'again')
        // Both instants come from the database clock; rounding to 10 minutes absorbs the gap.
        delays.push((retried?.runAfter.getTime() ?? 0) - (claimed?.lockedAt?.getTime() ?? 0))
      }
      expect(delays.map((delay) => Math.round(delay / (10 * minutes)))).toEqual([1, 2, 3, 3])
    })

    it('fails a job at once when told not to retry', async () => {
      const kind = unique('kind')
      const job = await repo.enqueueJob({ kind, payload: {} })
      await repo.claimJob('worker', [kind])
      expect(await repo.failJob(job.id, 'bad input', { retry: false })).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: 'bad input',
      })
    })

    it('completes only a running job and keeps its result', async () => {
      const kind = unique('kind')
      const job = await repo.enqueueJob({ kind, payload: {} })
      expect(await repo.completeJob(job.id, { early: true })).toBeUndefined()
      await repo.claimJob('worker', [kind])
      const done = await repo.completeJob(job.id, { storageKey: 'derived/a.webp', width: 10 })
      expect(done).toMatchObject({
        status: 'done',
        result: { storageKey: 'derived/a.webp', width: 10 },
        lockedAt: null,
      })
      expect(await repo.completeJob(job.id, { twice: true })).toBeUndefined()
      expect(await repo.getJob(job.id)).toEqual(done)
    })

    it('completes a job without a result', async () => {
      const kind = unique('kind')
      const job = await repo.enqueueJob({ kind, payload: {} })
      await repo.claimJob('worker', [kind])
      expect(await repo.completeJob(job.id)).toMatchObject({ status: 'done', result: null })
    })

    it.each([
      ['a string', 'derived/a.webp'],
      ['a number', 42],
      ['an array', [1, 'two', { three: 3 }]],
      ['an object', { storageKey: 'derived/a.webp' }],
    ])('keeps %s as a result', async (_, result) => {
      const kind = unique('kind')
      const job = await repo.enqueueJob({ kind, payload: {} })
      await repo.claimJob('worker', [kind])
      await repo.completeJob(job.id, result)
      expect((await repo.getJob(job.id))?.result).toEqual(result)
    })

    it('claims a running job again once its lock is stale', async () => {
      const kind = unique('kind')
      const job = await repo.enqueueJob({ kind, payload: {} })
      await repo.claimJob('crashed-worker', [kind])
      expect(await repo.claimJob('other-worker', [kind])).toBeUndefined()
      await database.db
        .update(jobs)
        .set({ lockedAt: sql`now() - interval '6 minutes'` })
        .where(eq(jobs.id, job.id))

      const reclaimed = await repo.claimJob('other-worker', [kind])

      expect(reclaimed).toMatchObject({
        id: job.id,
        status: 'running',
        lockedBy: 'other-worker',
        attempts: 2,
      })
    })

    it('fails a stale running job that has no attempts left instead of running it again', async () => {
      const kind = unique('kind')
      const job = await repo.enqueueJob({ kind, payload: {}, maxAttempts: 1 })
      const next = await repo.enqueueJob({ kind, payload: {} })
      await repo.claimJob('crashed-worker', [kind])
      await database.db
        .update(jobs)
        .set({ lockedAt: sql`now() - interval '1 hour'` })
        .where(eq(jobs.id, job.id))

      expect((await repo.claimJob('other-worker', [kind]))?.id).toBe(next.id)
      expect(await repo.getJob(job.id)).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: 'worker crashed-worker stopped responding',
        lockedBy: null,
      })
    })

    it('removes the jobs, files, presets and keys of a deleted organisation', async () => {
      const org = await newOrganisation()
      const file = await repo.upsertFile(org.id, fileInput('x.png'))
      const job = await repo.enqueueJob({
        kind: unique('kind'),
        organisationId: org.id,
        payload: {},
      })
      const key = await repo.createSigningKey(org.id)
      await repo.upsertPreset(org.id, { name: 'p', transformation: 't.flip()' })
      await database.db.delete(organisations).where(eq(organisations.id, org.id))
      expect(await repo.findFile(org.id, file.path)).toBeUndefined()
      expect(await repo.getJob(job.id)).toBeUndefined()
      expect(await repo.findSigningKey(key.accessKey)).toBeUndefined()
      expect(await repo.listPresets(org.id)).toEqual([])
    })
  })
})

function derivedInput(organisationId: string, fileId: string, fileVersion: number) {
  const cacheKey = unique('cache')
  return {
    organisationId,
    fileId,
    fileVersion,
    cacheKey,
    storageKey: `derived/${cacheKey}.webp`,
    format: 'webp',
    contentType: 'image/webp',
    size: 99,
    width: 5,
    height: 6,
  }
}
