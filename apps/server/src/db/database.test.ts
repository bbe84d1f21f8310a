import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { count } from 'drizzle-orm'
import { pgSchema, serial, text } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase, type Database, MIGRATIONS_FOLDER } from './database.ts'
import { createRepository } from './repository.ts'
import { organisations } from './schema.ts'
import { createThrowawayDatabase, type ThrowawayDatabase } from './test-database.ts'

// A new PGlite data folder runs initdb in WebAssembly: several seconds on a small machine.
const SLOW = 60_000

const migrationsTable = pgSchema('drizzle').table('__drizzle_migrations', {
  id: serial('id'),
  hash: text('hash'),
})

async function journalLength(): Promise<number> {
  const journal = JSON.parse(
    await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: unknown[] }
  return journal.entries.length
}

async function appliedMigrations(database: Database): Promise<number | undefined> {
  return (await database.db.select({ n: count() }).from(migrationsTable))[0]?.n
}

describe('createDatabase with PGlite', () => {
  const opened: Database[] = []
  let dataDir: string | undefined

  afterAll(async () => {
    for (const database of opened) await database.close()
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  }, SLOW)

  it(
    'keeps its data in dataDir across close and reopen',
    async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'tessera-db-'))
      const folder = join(dataDir, 'nested', 'db')
      const first = await createDatabase({ dataDir: folder })
      opened.push(first)
      expect(first.kind).toBe('pglite')
      const repo = createRepository(first.db)
      const org = await repo.createOrganisation({ cloudName: 'persisted', name: 'Kept' })
      await repo.upsertFile(org.id, {
        path: 'kept.png',
        name: 'kept.png',
        size: 3,
        format: 'png',
        contentType: 'image/png',
        hash: 'a'.repeat(64),
        storageKey: 'originals/kept',
      })
      await first.close()

      const second = await createDatabase({ dataDir: folder })
      opened.push(second)
      const reopened = createRepository(second.db)
      expect(await reopened.findOrganisationByCloudName('persisted')).toEqual(org)
      expect(await reopened.findFile(org.id, 'kept.png')).toMatchObject({ version: 1, size: 3 })
      expect(await appliedMigrations(second)).toBe(await journalLength())
      await second.close()
    },
    SLOW,
  )

  it(
    'answers a ping and can be closed twice',
    async () => {
      const database = await createDatabase({ dataDir: 'memory://' })
      opened.push(database)
      await expect(database.ping()).resolves.toBeUndefined()
      await database.close()
      await expect(database.close()).resolves.toBeUndefined()
    },
    SLOW,
  )
})

describe('createDatabase with PostgreSQL', () => {
  const opened: Database[] = []
  let target: ThrowawayDatabase | undefined
  let setupError: unknown

  // A setup failure (PostgreSQL down) fails every test here rather than skipping it.
  beforeAll(async () => {
    try {
      target = await createThrowawayDatabase()
    } catch (error) {
      setupError = error
    }
  }, SLOW)

  beforeEach(() => {
    if (setupError !== undefined) throw setupError
  })

  afterAll(async () => {
    for (const database of opened) await database.close()
    await target?.drop()
  }, SLOW)

  it('migrates once when several processes start at the same time', async () => {
    const url = (target as ThrowawayDatabase).url
    const databases = await Promise.all(
      Array.from({ length: 4 }, () => createDatabase({ url, onError: () => undefined })),
    )
    opened.push(...databases)
    for (const database of databases) expect(database.kind).toBe('postgres')

    const [first] = databases as [Database]
    expect(await appliedMigrations(first)).toBe(await journalLength())
    await createRepository(first.db).createOrganisation({ cloudName: 'shared', name: 'Shared' })
    for (const database of databases) {
      expect((await database.db.select({ n: count() }).from(organisations))[0]?.n).toBe(1)
    }
  })

  it('answers a ping and can be closed twice', async () => {
    const database = await createDatabase({ url: (target as ThrowawayDatabase).url })
    opened.push(database)
    await expect(database.ping()).resolves.toBeUndefined()
    await database.close()
    await expect(database.close()).resolves.toBeUndefined()
  })

  it('rejects when the server cannot be reached', async () => {
    await expect(
      createDatabase({ url: 'postgres://postgres@127.0.0.1:1/tessera' }),
    ).rejects.toThrow(/ECONNREFUSED|connect/)
  })
})
