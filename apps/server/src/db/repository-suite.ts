// Test support for the repository suites (repository-*.test.ts): the two backends (PGlite and
// PostgreSQL), two repositories over one database of each, and inputs with unique names.
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { pgSchema, serial, text } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, beforeEach, describe } from 'vitest'
import { createDatabase, type Database } from './database.ts'
import { createRepository, type FileInput, type Repository } from './repository.ts'
import { jobs } from './schema.ts'
import {
  createThrowawayDatabase,
  openTestDatabase,
  type TestDatabase,
  type TestDatabaseKind,
} from './test-database.ts'

export interface Backend {
  name: string
  /** Two handles on one database; on PostgreSQL they are separate pools, like two processes. */
  open(): Promise<{ first: Database; second: Database; close(): Promise<void> }>
}

export const BACKENDS: Backend[] = [
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

export const SETUP_TIMEOUT = 60_000

export const migrationsTable = pgSchema('drizzle').table('__drizzle_migrations', {
  id: serial('id'),
  hash: text('hash'),
})

export const unique = (label: string) => `${label}_${randomBytes(5).toString('hex')}`
export const randomHash = () => randomBytes(32).toString('hex')

export function fileInput(path: string, overrides: Partial<FileInput> = {}): FileInput {
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

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('Expected the promise to reject')
}

export function causeCode(error: unknown): unknown {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as Error & { code?: unknown }).code
    if (code !== undefined) return code
  }
  return undefined
}

/** Opens two repositories over one database of `backend` before the suite's tests; a setup failure fails every test rather than skipping it. */
export function useRepositorySuite(backend: Backend) {
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
  return {
    get handles() {
      return handles
    },
    get database() {
      return database
    },
    get repo() {
      return repo
    },
    get otherRepo() {
      return otherRepo
    },
    get setupError() {
      return setupError
    },
    newOrganisation,
    makeDue,
  }
}

export type RepositorySuite = ReturnType<typeof useRepositorySuite>

/** A repository test file's suite: its `tests` on each backend, over `useRepositorySuite`. */
export function describeRepository(tests: (t: RepositorySuite) => void): void {
  describe.each(BACKENDS)('the repository on $name', (backend) => {
    tests(useRepositorySuite(backend))
  })
}

/**
 * Opens a migrated test database of `kind` (db/test-database.ts) and a repository over it before
 * the suite's tests (hooks declared after this one run after it), and closes it after them.
 */
export function useTestRepository(kind: TestDatabaseKind) {
  let opened: TestDatabase | undefined
  let repo: Repository | undefined
  beforeAll(async () => {
    opened = await openTestDatabase(kind)
    repo = createRepository(opened.database.db)
  }, SETUP_TIMEOUT)
  afterAll(async () => {
    await opened?.close()
  })
  const open = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test database is not open')
    return value
  }
  return {
    get database(): Database {
      return open(opened).database
    },
    get repo(): Repository {
      return open(repo)
    },
  }
}

export function derivedInput(organisationId: string, fileId: string, fileVersion: number) {
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
