// Test support: throwaway PostgreSQL databases, so suites never share or keep state.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { createDatabase, type Database } from './database.ts'

/** Admin connection used to create and drop test databases (env `TEST_DATABASE_URL`). */
export const ADMIN_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export interface ThrowawayDatabase {
  url: string
  name: string
  drop(): Promise<void>
}

function redact(url: string): string {
  const parsed = new URL(url)
  if (parsed.password !== '') parsed.password = '***'
  return parsed.toString()
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 })
  try {
    await client.connect()
  } catch (error) {
    await client.end().catch(() => undefined)
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(
      `PostgreSQL is not reachable at ${redact(ADMIN_URL)} (${reason}). The PostgreSQL tests ` +
        'need a server: start it with `pg_ctlcluster --skip-systemctl-redirect 15 main start`, ' +
        'or set TEST_DATABASE_URL to an admin connection URL.',
      { cause: error },
    )
  }
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/** Creates an empty database named `tessera_test_<random>`; `drop()` removes it. */
export async function createThrowawayDatabase(): Promise<ThrowawayDatabase> {
  const name = `tessera_test_${randomBytes(6).toString('hex')}`
  await withAdmin((client) => client.query(`create database ${pg.escapeIdentifier(name)}`))
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await withAdmin((client) =>
        client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`),
      )
    },
  }
}

/** A migrated database of either engine: embedded PGlite in memory, or a throwaway PostgreSQL one. */
export interface TestDatabase {
  database: Database
  /** Closes it and, on PostgreSQL, drops it. */
  close(): Promise<void>
}

export async function openTestDatabase(engine: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = await createDatabase({ dataDir: 'memory://' })
    return { database, close: () => database.close() }
  }
  const target = await createThrowawayDatabase()
  try {
    const database = await createDatabase({ url: target.url })
    return {
      database,
      close: async () => {
        await database.close()
        await target.drop()
      },
    }
  } catch (error) {
    await target.drop()
    throw error
  }
}
