// Which database errors mean "try again shortly" (answered 503 + Retry-After by the app) and which
// are real failures: from real errors of a real server and of a port nobody listens on.
import { createServer } from 'node:net'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase, type Database, isDatabaseUnavailable } from './database.ts'
import { createThrowawayDatabase, type ThrowawayDatabase } from './test-database.ts'

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  return typeof address === 'object' && address !== null ? address.port : 1
}

describe('isDatabaseUnavailable', () => {
  let throwaway: ThrowawayDatabase
  let database: Database

  beforeAll(async () => {
    throwaway = await createThrowawayDatabase()
    database = await createDatabase({ url: throwaway.url, onError: () => undefined })
  })
  afterAll(async () => {
    await database?.close()
    await throwaway?.drop()
  })

  it('is true for a server that refuses connections', async () => {
    const error = await createDatabase({
      url: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`,
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Error)
    expect(isDatabaseUnavailable(error)).toBe(true)
  })

  it('is true for a query on a connection the server ended (a restart)', async () => {
    const error = await database.db
      .execute(sql`select pg_terminate_backend(pg_backend_pid())`)
      .catch((caught: unknown) => caught)
    expect(isDatabaseUnavailable(error)).toBe(true)
    // The pool replaces the connection: the next query works.
    await database.ping()
  })

  it('survives a connection lost while checked out between two queries (no unheard error event)', async () => {
    const admin = new pg.Client({ connectionString: throwaway.url })
    await admin.connect()
    try {
      const error = await database.db
        .transaction(async (tx) => {
          const { rows } = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
            rows: { pid: number }[]
          }
          await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid])
          // The connection's 'error' event comes now, while no query of ours is running.
          await new Promise((resolve) => setTimeout(resolve, 300))
          await tx.execute(sql`select 1`)
        })
        .catch((caught: unknown) => caught)
      expect(isDatabaseUnavailable(error)).toBe(true)
    } finally {
      await admin.end()
    }
    await database.ping()
  })

  it('is false for a query the server refused as wrong', async () => {
    const error = await database.db
      .execute(sql`select * from no_such_table`)
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Error)
    expect(isDatabaseUnavailable(error)).toBe(false)
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false)
    expect(isDatabaseUnavailable(undefined)).toBe(false)
  })
})
