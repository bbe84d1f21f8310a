import { describe, expect, it } from 'vitest'
import { collectPages, getAddons, getPlans, type Plan, splitPlans } from './api.ts'
import { DEFAULT_RUNTIME_CONFIG } from './runtime-config.ts'

const plan = (id: number, amount: number, interval?: string): Plan => ({
  _id: id,
  name: `Plan ${id}`,
  amount,
  ...(interval === undefined ? {} : { interval }),
  features: {},
})

describe('plans (SPEC §7.2)', () => {
  it('splits free, monthly and yearly plans, each by amount', () => {
    const split = splitPlans(
      [
        plan(3, 90, 'yearly'),
        plan(2, 20, 'monthly'),
        plan(-994, 0, 'monthly'),
        plan(1, 9, 'monthly'),
        plan(4, 30, 'yearly-discounted'),
      ],
      -994,
    )
    expect(split.freePlan?._id).toBe(-994)
    expect(split.monthlyPlans.map((p) => p._id)).toEqual([1, 2])
    expect(split.yearlyPlans.map((p) => p._id)).toEqual([4, 3])
  })

  it('has no free plan when the configured id is missing', () => {
    expect(splitPlans([plan(1, 9, 'monthly')], -994).freePlan).toBeNull()
  })

  it('follows page.hasNext from page 1 and collects every item', async () => {
    const asked: number[] = []
    const items = await collectPages(async (pageNo) => {
      asked.push(pageNo)
      return { items: [pageNo * 10, pageNo * 10 + 1], page: { hasNext: pageNo < 3 } }
    })
    expect(asked).toEqual([1, 2, 3])
    expect(items).toEqual([10, 11, 20, 21, 30, 31])
  })
})

describe('plans and addons that cannot be loaded (SPEC §8)', () => {
  // A client whose every call fails the way an unreachable API does.
  const down = new TypeError('fetch failed')
  const client = {
    request: () => Promise.reject(down),
  }

  it('write the cause to the log given, then reject with null', async () => {
    const written: { message: string; err: unknown }[] = []
    const log = (message: string, details: { err: unknown }) => {
      written.push({ message, err: details.err })
    }
    await expect(getPlans(client, DEFAULT_RUNTIME_CONFIG, log)).rejects.toBeNull()
    await expect(getAddons(client, DEFAULT_RUNTIME_CONFIG, log)).rejects.toBeNull()
    expect(written).toEqual([
      { message: 'The plans could not be loaded', err: down },
      { message: 'The addons could not be loaded', err: down },
    ])
  })
})
