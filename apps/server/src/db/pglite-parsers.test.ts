import { PGlite, types } from '@electric-sql/pglite'
import { eq, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shareDrizzleParsers, TEXT_TYPES } from './pglite-parsers.ts'
import { createRepository } from './repository.ts'
import * as schema from './schema.ts'
import { migratedPgliteSnapshot } from './test-database.ts'

type QueryOptions = NonNullable<Parameters<PGlite['query']>[2]>
type Transaction = Parameters<Parameters<PGlite['transaction']>[0]>[0]

describe('shareDrizzleParsers', () => {
  let client: PGlite
  /** The options each statement reached PGlite with (the wrapped `query` calls the original). */
  const seen: Array<QueryOptions | undefined> = []

  beforeAll(async () => {
    client = await PGlite.create('memory://', { loadDataDir: await migratedPgliteSnapshot() })
    const original = client.query.bind(client)
    client.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
      seen.push(options)
      return original(text, params, options)
    }) as PGlite['query']
    // A transaction's statements go through the transaction's own query: watched the same way.
    const transaction = client.transaction.bind(client)
    client.transaction = ((run: (tx: Transaction) => Promise<unknown>) =>
      transaction((tx) => {
        const watched: Transaction = Object.create(tx)
        watched.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
          seen.push(options)
          return tx.query(text, params, options)
        }) as Transaction['query']
        return run(watched)
      })) as PGlite['transaction']
    shareDrizzleParsers(client)
  }, 60_000)

  afterAll(async () => {
    await client.close()
  })

  it('reads a row through drizzle as before, without sending its parsers with the statement', async () => {
    const db = drizzle({ client, schema })
    const repo = createRepository(db)
    const organisation = await repo.createOrganisation({ cloudName: 'parsers', name: 'Parsers' })
    seen.length = 0
    const found = await repo.findOrganisationById(organisation.id)
    expect(found).toEqual(organisation)
    expect(found?.createdAt).toBeInstanceOf(Date)
    expect(seen.length).toBeGreaterThan(0)
    for (const options of seen) expect(options?.parsers).toBeUndefined()
    // The same statement through a plain drizzle over a client left as PGlite made it.
    const plain = await PGlite.create('memory://', {
      loadDataDir: await client.dumpDataDir('none'),
    })
    try {
      const row = await createRepository(drizzle({ client: plain, schema })).findOrganisationById(
        organisation.id,
      )
      expect(row).toEqual(found)
    } finally {
      await plain.close()
    }
  })

  it('reads the text types as text in raw statements and inside transactions', async () => {
    const db = drizzle({ client, schema })
    const query = sql`select timestamptz '2026-11-28 07:00:00+00' as at, date '2026-11-28' as day,
      interval '1 day' as span, array[timestamp '2026-11-28 07:00:00'] as times`
    const [raw] = (await db.execute(query)).rows
    expect(raw).toEqual({
      at: '2026-11-28 07:00:00+00',
      day: '2026-11-28',
      span: '1 day',
      times: '{"2026-11-28 07:00:00"}',
    })
    seen.length = 0
    const inside = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: schema.organisations.id, createdAt: schema.organisations.createdAt })
        .from(schema.organisations)
        .where(eq(schema.organisations.cloudName, 'parsers'))
      return rows[0]
    })
    expect(inside?.createdAt).toBeInstanceOf(Date)
    expect(seen.length).toBeGreaterThan(0)
    for (const options of seen) expect(options?.parsers).toBeUndefined()
  })

  it('keeps per-query parsers that are not only the repeated ones', async () => {
    const asNumber = await client.query<{ n: unknown }>('select 41 + 1 as n', [], {
      parsers: { [types.INT4]: (value: string) => `int:${value}` },
    })
    expect(asNumber.rows[0]?.n).toBe('int:42')
    // A parser of a shared type that does something else is honoured too.
    const stamped = await client.query<{ at: unknown }>(
      "select timestamptz '2026-11-28 07:00:00+00' as at",
      [],
      { parsers: { [types.TIMESTAMPTZ]: (value: string) => `at ${value}` } },
    )
    expect(stamped.rows[0]?.at).toBe('at 2026-11-28 07:00:00+00')
    expect(TEXT_TYPES).toContain(types.TIMESTAMPTZ)
  })
})
