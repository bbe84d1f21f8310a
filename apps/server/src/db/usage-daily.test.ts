// Usage over time on both engines (issue 24, item 4): counts from several meters (processes) at
// once add up into one row per organisation and day, days with nothing are answered as zeros,
// credits spent come from the ledger, a deleted organisation's counts are dropped while the
// others' are written, and days past the retention are deleted.
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../platform/logger.ts'
import { createUsageMeter, utcDay } from '../platform/usage-meter.ts'
import { useTestRepository } from './repository-suite.ts'
import { organisations } from './schema.ts'

const ENGINES = ['pglite', 'postgres'] as const
const logger = createLogger({ logLevel: 'silent' } as never)

describe.each(ENGINES)('usage per day (%s)', (engine) => {
  const suite = useTestRepository(engine)

  it('adds the counts of several meters into one row per organisation and day', async () => {
    const org = await suite.repo.createOrganisation({ cloudName: `usage-${engine}-a`, name: 'A' })
    const other = await suite.repo.createOrganisation({ cloudName: `usage-${engine}-b`, name: 'B' })
    const at = Date.parse('2026-03-10T12:00:00Z')
    let now = at
    const meters = [1, 2, 3].map(() =>
      createUsageMeter(suite.repo, logger, { flushMs: 3_600_000, now: () => now }),
    )
    for (const [index, meter] of meters.entries()) {
      for (let i = 0; i < 100; i++) meter.count(org.id, { requests: 1, bytes: 1000 + index })
      meter.count(org.id, { renders: 2, aiRuns: 1 })
      meter.count(other.id, { requests: 5, bytes: 5 })
    }
    expect(meters[0]?.pending).toBe(2)
    // The three "processes" write at once.
    await Promise.all(meters.map((meter) => meter.flush()))
    now = at + 86_400_000
    meters[0]?.count(org.id, { requests: 7, bytes: 70 })
    await Promise.all(meters.map((meter) => meter.stop()))
    const days = await suite.repo.dailyUsage(org.id, '2026-03-09', '2026-03-12')
    expect(days).toEqual([
      { day: '2026-03-09', requests: 0, bytes: 0, renders: 0, aiRuns: 0, credits: 0 },
      {
        day: '2026-03-10',
        requests: 300,
        bytes: 100 * (1000 + 1001 + 1002),
        renders: 6,
        aiRuns: 3,
        credits: 0,
      },
      { day: '2026-03-11', requests: 7, bytes: 70, renders: 0, aiRuns: 0, credits: 0 },
      { day: '2026-03-12', requests: 0, bytes: 0, renders: 0, aiRuns: 0, credits: 0 },
    ])
    const theirs = await suite.repo.dailyUsage(other.id, '2026-03-10', '2026-03-10')
    expect(theirs[0]).toMatchObject({ requests: 15, bytes: 15 })
  })

  it('answers credits spent per day from the ledger', async () => {
    const org = await suite.repo.createOrganisation({ cloudName: `usage-${engine}-c`, name: 'C' })
    await suite.repo.grantCredits(org.id, 50, 'test_grant')
    expect(await suite.repo.spendCredits(org.id, 3, 'ai_transformation', 'k1')).toBeTruthy()
    expect(await suite.repo.spendCredits(org.id, 4, 'ai_transformation', 'k2')).toBeTruthy()
    const today = utcDay()
    const [day] = await suite.repo.dailyUsage(org.id, today, today)
    expect(day?.credits).toBe(7)
  })

  it('drops the counts of a deleted organisation and writes the others', async () => {
    const kept = await suite.repo.createOrganisation({ cloudName: `usage-${engine}-d`, name: 'D' })
    const gone = await suite.repo.createOrganisation({ cloudName: `usage-${engine}-e`, name: 'E' })
    const meter = createUsageMeter(suite.repo, logger, { flushMs: 3_600_000 })
    meter.count(kept.id, { requests: 2 })
    meter.count(gone.id, { requests: 3 })
    await suite.database.db.delete(organisations).where(eq(organisations.id, gone.id))
    await meter.stop()
    expect(meter.pending).toBe(0)
    const today = utcDay()
    expect((await suite.repo.dailyUsage(kept.id, today, today))[0]?.requests).toBe(2)
  })

  it('deletes the days before the retention', async () => {
    const org = await suite.repo.createOrganisation({ cloudName: `usage-${engine}-f`, name: 'F' })
    await suite.repo.addUsage([
      { organisationId: org.id, day: '2020-01-01', requests: 1, bytes: 1, renders: 0, aiRuns: 0 },
      { organisationId: org.id, day: '2026-01-01', requests: 1, bytes: 1, renders: 0, aiRuns: 0 },
    ])
    expect(await suite.repo.pruneUsage('2025-01-01')).toBeGreaterThanOrEqual(1)
    const old = await suite.repo.dailyUsage(org.id, '2020-01-01', '2020-01-01')
    expect(old[0]?.requests).toBe(0)
    const recent = await suite.repo.dailyUsage(org.id, '2026-01-01', '2026-01-01')
    expect(recent[0]?.requests).toBe(1)
  })
})
