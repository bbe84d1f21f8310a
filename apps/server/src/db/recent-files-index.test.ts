// The console's recent files (`GET …/recent-files`) read one organisation's newest files through
// `files_organisation_updated_idx` (migration 0008) instead of sorting every file it owns.
//
// The proof is the planner's own answer: EXPLAIN of the exact query `listRecentFiles` runs, on a
// table of 20,000 files across 40 organisations after ANALYZE. At a few rows any plan is cheap and
// PostgreSQL may scan the table, so EXPLAIN is only asked once the table has enough rows. Both
// engines: the migrations must apply on the embedded PGlite (PostgreSQL 18) as on PostgreSQL 15.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { count, sql } from 'drizzle-orm'
import { pgSchema, serial, text } from 'drizzle-orm/pg-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS_FOLDER } from './database.ts'
import { useTestRepository } from './repository-suite.ts'
import { recentFilesQuery } from './usage-queries.ts'

const ENGINES = ['pglite', 'postgres'] as const
const INDEX = 'files_organisation_updated_idx'
const ORGANISATIONS = 40
const FILES_EACH = 500

const migrationsTable = pgSchema('drizzle').table('__drizzle_migrations', {
  id: serial('id'),
  hash: text('hash'),
})

interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  Plans?: PlanNode[]
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)]
}

/** The rows of a raw query on PGlite (`{ rows }`) and node-postgres (`QueryResult`) alike. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}

describe.each(ENGINES)('the recent-files index (%s)', (engine) => {
  const suite = useTestRepository(engine)
  let organisationId: string

  beforeAll(async () => {
    const ids: string[] = []
    for (let n = 0; n < ORGANISATIONS; n++) {
      ids.push(
        (await suite.repo.createOrganisation({ cloudName: `recent${n}`, name: `Recent ${n}` })).id,
      )
    }
    organisationId = ids[7] as string
    // Every organisation gets FILES_EACH files with updated_at spread over the last days.
    await suite.database.db.execute(sql`
      insert into files (organisation_id, path, name, size, format, content_type, hash, storage_key, updated_at)
      select o.id, 'f/' || g || '.png', g || '.png', g, 'png', 'image/png',
             md5(o.id::text || g) || md5(g::text || o.id::text), 'originals/' || o.id || '/' || g,
             now() - make_interval(secs => g * 37 % 86400)
      from organisations o, generate_series(1, ${FILES_EACH}) g`)
    await suite.database.db.execute(sql`analyze files`)
  }, 120_000)

  it('applies every migration, 0008 included', async () => {
    const journal = JSON.parse(
      await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: unknown[] }
    const [applied] = await suite.database.db.select({ n: count() }).from(migrationsTable)
    expect(applied?.n).toBe(journal.entries.length)
    const indexes = rowsOf<{ indexdef: string }>(
      await suite.database.db.execute(
        sql`select indexdef from pg_indexes where tablename = 'files' and indexname = ${INDEX}`,
      ),
    )
    expect(indexes.map((row) => row.indexdef)).toEqual([
      `CREATE INDEX ${INDEX} ON public.files USING btree (organisation_id, updated_at, id)`,
    ])
  })

  it('reads a page of one organisation through the index, without sorting', async () => {
    for (const offset of [0, 50]) {
      const query = recentFilesQuery(suite.database.db, organisationId, { limit: 25, offset })
      const [row] = rowsOf<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        await suite.database.db.execute(sql`explain (format json) ${query.getSQL()}`),
      )
      const [explained] = row?.['QUERY PLAN'] ?? []
      if (explained === undefined) throw new Error('EXPLAIN answered without a plan')
      const nodes = nodesOf(explained.Plan)
      const described = nodes.map((node) => `${node['Node Type']} ${node['Index Name'] ?? ''}`)
      expect(
        nodes.some((node) => node['Index Name'] === INDEX),
        described.join(', '),
      ).toBe(true)
      expect(described.filter((node) => node.startsWith('Sort'))).toEqual([])
    }
  })
})
