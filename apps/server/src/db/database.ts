import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { shareDrizzleParsers } from './pglite-parsers.ts'
import * as schema from './schema.ts'

/** A Drizzle database typed with the Tessera schema; the same type for PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

/** An open database: the Drizzle handle plus what the server needs around it. */
export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Resolves when the database answers a trivial query (for `/readyz`). */
  ping(): Promise<void>
  /** Applies pending migrations; a no-op when there are none. `createDatabase` already ran them. */
  migrate(): Promise<void>
  /** Closes the pool or the PGlite instance; safe to call more than once. */
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** `postgres://…` selects a PostgreSQL server; without it the embedded PGlite is used. */
  url?: string
  /** PGlite data folder (default `./data/db`); `memory://` keeps the database in memory. */
  dataDir?: string
  /** Called with errors of idle pooled PostgreSQL connections (default: written to stderr). */
  onError?: (error: Error) => void
  /**
   * A PGlite data folder dumped by `dumpDataDir` to start from (tests: an already migrated
   * database loads in a fraction of the time `initdb` and the migrations take).
   */
  loadDataDir?: Blob
}

export const DEFAULT_DATA_DIR = './data/db'

/** The generated migrations, found beside the package rather than from the working directory. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url))

// Any constant works as long as every Tessera process uses the same one: it serialises
// migrations when several processes start against one PostgreSQL database.
const MIGRATION_LOCK_ID = 7_301_946_551_234_019n

/**
 * Opens the database and runs pending migrations: PostgreSQL when `url` is given, otherwise an
 * embedded PGlite persisted in `dataDir`. The returned handle must be closed.
 */
export async function createDatabase(options: DatabaseOptions = {}): Promise<Database> {
  return options.url === undefined
    ? openPglite(options.dataDir, options.loadDataDir)
    : openPostgres(options)
}

async function openPglite(dataDir = DEFAULT_DATA_DIR, loadDataDir?: Blob): Promise<Database> {
  if (!dataDir.includes('://')) await mkdir(dataDir, { recursive: true })
  const client = shareDrizzleParsers(
    await PGlite.create(dataDir, loadDataDir === undefined ? {} : { loadDataDir }),
  )
  const db = drizzlePglite({ client, schema })
  let closed = false
  const database: Database = {
    db,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      if (closed) return
      closed = true
      await client.close()
    },
  }
  await openOrClose(database)
  return database
}

// SQLSTATE classes and codes that mean the server cannot be used right now, not that the query
// was wrong: connection exceptions (08…), shutdowns and start-ups (57P01–57P03), too many
// connections (53300).
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[1-3]|53300)$/
const UNAVAILABLE_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
// node-postgres says these in words only.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|is not queryable|Client was closed|Connection ended/i

/**
 * Whether `error` (or one it wraps, as Drizzle does) says the database server cannot be reached
 * or is restarting, so the request may succeed if tried again shortly.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return false
    const { code, message, cause } = current as {
      code?: unknown
      message?: unknown
      cause?: unknown
    }
    if (typeof code === 'string') {
      if (UNAVAILABLE_SYSTEM_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code)) return true
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true
    current = cause
  }
  return false
}

async function openPostgres(options: DatabaseOptions): Promise<Database> {
  // A server that does not answer fails a request after 5 s instead of holding it forever.
  const pool = new pg.Pool({ connectionString: options.url, connectionTimeoutMillis: 5000 })
  const onError =
    options.onError ?? ((error: Error) => console.error('PostgreSQL pool error:', error))
  pool.on('error', onError)
  // The pool listens for errors of idle connections only: a connection lost while checked out
  // between two queries (inside a transaction, say, when the server restarts) would emit an
  // 'error' nobody hears, which ends the process. Every connection gets a listener of its own;
  // the query that was to run next fails, and the pool drops the connection when it is released.
  pool.on('connect', (client) => {
    client.on('error', onError)
  })
  const db = drizzleNodePg({ client: pool, schema })
  let closed = false
  const database: Database = {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    migrate: () => migratePostgres(pool),
    close: async () => {
      if (closed) return
      closed = true
      await pool.end()
    },
  }
  await openOrClose(database)
  return database
}

async function openOrClose(database: Database): Promise<void> {
  try {
    await database.migrate()
  } catch (error) {
    await database.close()
    throw error
  }
}

async function migratePostgres(pool: pg.Pool): Promise<void> {
  // The advisory lock belongs to one session, so the migrations run on that same connection.
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID.toString()])
    try {
      await migrateNodePg(drizzleNodePg({ client, schema }), {
        migrationsFolder: MIGRATIONS_FOLDER,
      })
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID.toString()])
    }
    client.release()
  } catch (error) {
    // A connection in an unknown state is destroyed rather than returned to the pool.
    client.release(error instanceof Error ? error : true)
    throw error
  }
}
