// Limits are taken atomically on both engines: many takes at once never record more than the
// limit, a refusal says when to come back, a released use frees its room, weights count as
// their weight, and a limit may tighten with another key of the same take.
import { describe, expect, it } from 'vitest'
import { useTestRepository } from './repository-suite.ts'

const ENGINES = ['pglite', 'postgres'] as const
const HOUR = 60 * 60_000

describe.each(ENGINES)('atomic limits (%s)', (engine) => {
  const suite = useTestRepository(engine)

  it('lets at most the limit of 50 takes at once through, and records only those', async () => {
    const rule = { key: 'test:burst', limit: 5, windowMs: HOUR }
    const takes = await Promise.all(
      Array.from({ length: 50 }, () => suite.repo.takeRateEvents([rule])),
    )
    expect(takes.filter((take) => take.ok)).toHaveLength(5)
    expect((await suite.repo.countRateEvents(rule.key, HOUR)).count).toBe(5)
    const refused = takes.find((take) => !take.ok)
    expect(refused).toMatchObject({ ok: false, key: rule.key })
    if (refused?.ok === false) {
      expect(refused.retryAfterMs).toBeGreaterThan(HOUR - 60_000)
      expect(refused.retryAfterMs).toBeLessThanOrEqual(HOUR)
    }
  })

  it('records nothing under any rule when one of them refuses', async () => {
    const open = { key: 'test:open', limit: 100, windowMs: HOUR }
    const full = { key: 'test:full', limit: 1, windowMs: HOUR }
    expect((await suite.repo.takeRateEvents([open, full])).ok).toBe(true)
    const refused = await suite.repo.takeRateEvents([open, full])
    expect(refused).toMatchObject({ ok: false, key: 'test:full' })
    expect((await suite.repo.countRateEvents('test:open', HOUR)).count).toBe(1)
  })

  it('says when the last of several refusing rules frees up', async () => {
    const soon = { key: 'test:soon', limit: 1, windowMs: 60_000 }
    const late = { key: 'test:late', limit: 1, windowMs: HOUR }
    expect((await suite.repo.takeRateEvents([soon, late])).ok).toBe(true)
    const refused = await suite.repo.takeRateEvents([soon, late])
    expect(refused).toMatchObject({ ok: false, key: 'test:late' })
    if (!refused.ok) expect(refused.retryAfterMs).toBeGreaterThan(60_000)
  })

  it('frees the room of a released use', async () => {
    const rule = { key: 'test:release', limit: 1, windowMs: HOUR }
    const first = await suite.repo.takeRateEvents([rule])
    expect(first.ok).toBe(true)
    expect((await suite.repo.takeRateEvents([rule])).ok).toBe(false)
    if (first.ok) await suite.repo.releaseRateEvents(first.ids)
    expect((await suite.repo.takeRateEvents([rule])).ok).toBe(true)
  })

  it('counts weights: credits or bytes, never more than the limit at once', async () => {
    const rule = { key: 'test:weights', limit: 10, windowMs: HOUR, weight: 3 }
    const takes = await Promise.all(
      Array.from({ length: 20 }, () => suite.repo.takeRateEvents([rule])),
    )
    expect(takes.filter((take) => take.ok)).toHaveLength(3)
    expect((await suite.repo.countRateEvents(rule.key, HOUR)).count).toBe(9)
    // A use heavier than the whole limit could never pass: come back after the window.
    const never = await suite.repo.takeRateEvents([{ ...rule, key: 'test:heavy', weight: 11 }])
    expect(never).toMatchObject({ ok: false, retryAfterMs: HOUR })
  })

  it('tightens a limit by another key of the same take, under the same locks', async () => {
    const wide = { key: 'test:wide', limit: Number.POSITIVE_INFINITY, windowMs: HOUR }
    for (let i = 0; i < 3; i++) await suite.repo.recordRateEvent('test:wide')
    const narrow = {
      key: 'test:narrow',
      limit: (countOf: (key: string) => number) => (countOf('test:wide') >= 3 ? 1 : 5),
      windowMs: HOUR,
    }
    const takes = await Promise.all(
      Array.from({ length: 10 }, () => suite.repo.takeRateEvents([wide, narrow])),
    )
    expect(takes.filter((take) => take.ok)).toHaveLength(1)
  })
})
