// Test support: throwaway PostgreSQL databases, so suites never share or keep state, and the
// migrated starting points every test database is copied from (migrations run once per change of
// the migration files, not once per test server: decision 012).
import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { createDatabase, type Database, MIGRATIONS_FOLDER } from './database.ts'
import * as schema from './schema.ts'

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

function urlOf(name: string): string {
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * A short hash of the migration files: a template or snapshot built from other migrations is
 * never used.
 */
async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256')
  const files = (await readdir(MIGRATIONS_FOLDER, { recursive: true }))
    .filter((file) => /\.(sql|json)$/.test(file))
    .sort()
  for (const file of files) {
    hash.update(file)
    hash.update(await readFile(join(MIGRATIONS_FOLDER, file)))
  }
  return hash.digest('hex').slice(0, 12)
}

// SQLSTATE 55006: a database still has a session (one just closed may take a moment to end), so
// it can be neither a template nor renamed yet.
async function whileInUse<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

// Serialises building the template between test workers and between test runs.
const TEMPLATE_LOCK_ID = '7301946551234020'

/**
 * The name of a PostgreSQL database with every migration applied, built once for the current
 * migration files (kept between runs) and copied by `CREATE DATABASE … TEMPLATE`.
 */
async function buildMigratedTemplate(): Promise<string> {
  const name = `tessera_template_${await migrationsHash()}`
  await withAdmin(async (client) => {
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID])
    try {
      const found = await client.query('select 1 from pg_database where datname = $1', [name])
      if (found.rowCount !== 0) return
      // Built under another name and renamed when complete: a run stopped half-way leaves no
      // half-migrated template behind.
      const building = `${name}_${randomBytes(4).toString('hex')}`
      await client.query(`create database ${pg.escapeIdentifier(building)}`)
      try {
        const database = await createDatabase({ url: urlOf(building) })
        await database.close()
        await whileInUse(() =>
          client.query(
            `alter database ${pg.escapeIdentifier(building)} rename to ${pg.escapeIdentifier(name)}`,
          ),
        )
      } catch (error) {
        await client.query(`drop database if exists ${pg.escapeIdentifier(building)} with (force)`)
        throw error
      }
    } finally {
      await client.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID])
    }
  })
  return name
}

let migratedTemplate: Promise<string> | undefined

/**
 * Creates a database named `tessera_test_<random>`, empty or (`migrated`) a copy of the migrated
 * template; `drop()` removes it.
 */
export async function createThrowawayDatabase(
  options: { migrated?: boolean } = {},
): Promise<ThrowawayDatabase> {
  const name = `tessera_test_${randomBytes(6).toString('hex')}`
  let template: string | undefined
  if (options.migrated === true) {
    migratedTemplate ??= buildMigratedTemplate()
    migratedTemplate.catch(() => {
      migratedTemplate = undefined
    })
    template = await migratedTemplate
  }
  const from = template === undefined ? '' : ` template ${pg.escapeIdentifier(template)}`
  await withAdmin((client) =>
    whileInUse(() => client.query(`create database ${pg.escapeIdentifier(name)}${from}`)),
  )
  return {
    url: urlOf(name),
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
    const database = await createDatabase({
      dataDir: 'memory://',
      loadDataDir: await migratedPgliteSnapshot(),
    })
    return { database, close: () => database.close() }
  }
  const target = await createThrowawayDatabase({ migrated: true })
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

/**
 * A migrated in-memory PGlite, dumped: loading it (`loadDataDir`) takes well under a second,
 * where `initdb` and the migrations take about three. Built once per set of migration files and
 * kept in the temporary folder, so each test process reads it instead of building it.
 */
async function buildPgliteSnapshot(): Promise<Blob> {
  const file = join(tmpdir(), `tessera-pglite-${await migrationsHash()}.tar`)
  const kept = await readFile(file).catch(() => undefined)
  if (kept !== undefined) return new Blob([kept])
  const client = await PGlite.create('memory://')
  try {
    await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER })
    const dump = await client.dumpDataDir('none')
    // Written aside and renamed: workers building it at the same time never read half a file.
    const partial = `${file}.${randomBytes(4).toString('hex')}`
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
    await rename(partial, file)
    return dump
  } finally {
    await client.close()
  }
}

let pgliteSnapshot: Promise<Blob> | undefined

/** The migrated PGlite snapshot (see `buildPgliteSnapshot`), shared within a test process. */
export function migratedPgliteSnapshot(): Promise<Blob> {
  pgliteSnapshot ??= buildPgliteSnapshot()
  pgliteSnapshot.catch(() => {
    pgliteSnapshot = undefined
  })
  return pgliteSnapshot
}

export type TestDatabaseKind = 'pglite' | 'postgres'

/**
 * The one database of the suites whose subject is not the database: the `server` suites and the
 * browser suites (env `TEST_DATABASE`, default PostgreSQL: a copy of the migrated template
 * starts and stops a test server in about 1.1 s, a PGlite loaded from the migrated snapshot in
 * about 1.5 s, and its queries run in WebAssembly on the server's main thread;
 * docs/benchmarks.md, "Test suite time").
 */
export function defaultTestDatabase(): TestDatabaseKind {
  const chosen = process.env.TEST_DATABASE ?? 'postgres'
  if (chosen !== 'pglite' && chosen !== 'postgres') {
    throw new Error(`TEST_DATABASE must be pglite or postgres, not ${chosen}`)
  }
  return chosen
}
