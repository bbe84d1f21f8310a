import { describe, expect, it } from 'vitest'
import { BILLING_PAGE_SIZE } from '../billing/paths.ts'
import { seedBilling } from '../billing/seed.ts'
import { describeEachDatabase } from '../test-suite.ts'
import { FREE_PLAN_CREDITS, FREE_PLAN_ID } from './content.ts'
import {
  BILLING,
  content,
  HOSTILE,
  type Page,
  type PlanItem,
  PRODUCT_TAG,
  usePublicApiSuite,
} from './public-api-suite.ts'

describeEachDatabase('server', 'public content APIs on %s', usePublicApiSuite, (t) => {
  const { expectBadQuery, collect } = t

  describe('plans', () => {
    const publicPlans = content.plans.filter(
      (plan) => !plan.custom && plan.active && plan.tags.includes(PRODUCT_TAG),
    )

    it('pages through every public plan the way the pricing client loops', async () => {
      const { items, pages } = await collect<PlanItem>(
        `${BILLING}/plans`,
        `custom=false&tag=${PRODUCT_TAG}`,
      )
      expect(pages.length).toBeGreaterThanOrEqual(3)
      pages.forEach((page, index) => {
        expect(page).toEqual({
          current: index + 1,
          size: BILLING_PAGE_SIZE,
          hasNext: index < pages.length - 1,
          itemTotal: publicPlans.length,
          type: 'number',
        })
      })
      expect(items.map((plan) => plan._id).sort((a, b) => a - b)).toEqual(
        publicPlans.map((plan) => plan.id).sort((a, b) => a - b),
      )

      // The client's split: free by id, yearly by an interval starting with yearly.
      const byAmount = (a: PlanItem, b: PlanItem) => a.amount - b.amount
      const free = items.find((plan) => plan._id === FREE_PLAN_ID)
      const paid = items.filter((plan) => plan._id !== FREE_PLAN_ID)
      const yearly = paid.filter((plan) => plan.interval.startsWith('yearly')).sort(byAmount)
      const monthly = paid.filter((plan) => plan.interval === 'monthly').sort(byAmount)
      expect(free).toMatchObject({
        amount: 0,
        credits: FREE_PLAN_CREDITS,
        custom: false,
      })
      expect(monthly.map((plan) => plan.name)).toEqual(['Starter', 'Pro', 'Business'])
      expect(yearly.map((plan) => plan.name)).toEqual([
        'Starter (yearly)',
        'Pro (yearly)',
        'Business (yearly)',
      ])
      expect(monthly.map((plan) => plan.amount)).toEqual([9, 29, 99])
      expect(yearly.map((plan) => plan.amount)).toEqual([90, 290, 990])
      expect(monthly.length + yearly.length + 1).toBe(items.length)
    })

    it('answers each plan with _id, name, amount, interval and features keyed by name', async () => {
      const { body } = await t.getJson<{ items: PlanItem[] }>(
        `${BILLING}/plans?custom=false&tag=${PRODUCT_TAG}&pageNo=1&pageSize=100`,
      )
      for (const plan of body.items) {
        const source = content.plans.find((item) => item.id === plan._id)
        expect(source).toBeDefined()
        expect(plan).toMatchObject({
          name: source?.name,
          amount: source?.amount,
          interval: source?.interval,
          currency: 'USD',
          tags: source?.tags,
        })
        expect(typeof plan.amount).toBe('number')
        expect(Object.keys(plan.features)).toEqual(Object.keys(source?.features ?? {}))
        for (const [name, feature] of Object.entries(plan.features)) {
          expect(feature.name).toBe(name)
          expect(feature).toMatchObject(source?.features[name] ?? {})
        }
      }
      expect(body.items[0]?._id).toBe(FREE_PLAN_ID)
      expect(body.items[0]?.features.credits?.value).toBe(FREE_PLAN_CREDITS)
    })

    it('filters by custom and tag', async () => {
      const custom = await t.getJson<{ items: PlanItem[]; page: Page }>(
        `${BILLING}/plans?custom=true&pageSize=100`,
      )
      expect(custom.body.items.map((plan) => plan.name)).toEqual(['Enterprise'])
      expect(custom.body.items.every((plan) => plan.custom)).toBe(true)
      const both = await t.getJson<{ page: Page }>(`${BILLING}/plans?pageSize=100`)
      expect(both.body.page.itemTotal).toBe(content.plans.length)
      const enterprise = await t.getJson<{ items: PlanItem[] }>(
        `${BILLING}/plans?tag=enterprise&pageSize=100`,
      )
      expect(enterprise.body.items.map((plan) => plan._id)).toEqual([90])
      const none = await t.getJson<{ items: PlanItem[]; page: Page }>(
        `${BILLING}/plans?tag=enterprise&custom=false`,
      )
      expect(none.body).toEqual({
        items: [],
        page: {
          current: 1,
          size: BILLING_PAGE_SIZE,
          hasNext: false,
          itemTotal: 0,
          type: 'number',
        },
      })
    })

    it('answers an empty page past the last one', async () => {
      const { status, body } = await t.getJson<{
        items: PlanItem[]
        page: Page
      }>(`${BILLING}/plans?custom=false&pageNo=999`)
      expect(status).toBe(200)
      expect(body.items).toEqual([])
      expect(body.page).toMatchObject({ current: 999, hasNext: false })
    })

    it('is cacheable for a minute', async () => {
      const response = await t.get(`${BILLING}/plans?custom=false`)
      expect(response.headers.get('cache-control')).toBe('public, max-age=60')
      expect(response.headers.get('content-type')).toContain('application/json')
    })

    it.each([
      ['pageNo=0', 'pageNo'],
      ['pageNo=-1', 'pageNo'],
      ['pageNo=abc', 'pageNo'],
      ['pageNo=1.5', 'pageNo'],
      ['pageNo=1e3', 'pageNo'],
      ['pageNo=0x10', 'pageNo'],
      ['pageNo=', 'pageNo'],
      ['pageNo=%20', 'pageNo'],
      ['pageNo=99999999999999999999', 'pageNo'],
      ['pageNo=100001', 'pageNo'],
      ['pageNo=1&pageNo=2', 'more than once'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=101', 'pageSize'],
      ['pageSize=NaN', 'pageSize'],
      ['custom=yes', 'custom'],
      ['custom=TRUE', 'custom'],
      ['custom=true&custom=false', 'more than once'],
      [`tag=${'x'.repeat(65)}`, 'tag'],
      [`tag=${'x'.repeat(300)}`, 'longer than 256'],
      ['tag=a%00b', 'control characters'],
      ['tag=a%0Ab', 'control characters'],
    ])('refuses %s with 400 invalid_query', async (query, mentions) => {
      await expectBadQuery(`${BILLING}/plans?${query}`, mentions)
      await expectBadQuery(`${BILLING}/addons?${query}`, mentions)
    })

    it('matches nothing for tags that look like SQL or patterns, and the table survives', async () => {
      for (const tag of HOSTILE) {
        const { status, body } = await t.getJson<{
          items: PlanItem[]
          page: Page
        }>(`${BILLING}/plans?custom=false&tag=${encodeURIComponent(tag)}`)
        expect(status, tag).toBe(200)
        expect(body.items, tag).toEqual([])
        expect(body.page.itemTotal, tag).toBe(0)
      }
      const after = await t.getJson<{ page: Page }>(`${BILLING}/plans?custom=false&tag=tessera`)
      expect(after.body.page.itemTotal).toBe(publicPlans.length)
    })

    it('seeds again without changing anything, and picks up an edited plan', async () => {
      const path = `${BILLING}/plans?pageSize=100`
      const before = await (await t.get(path)).text()
      await seedBilling(t.server.services.context.repo, content)
      expect(await (await t.get(path)).text()).toBe(before)

      const edited = content.plans.map((plan) =>
        plan.name === 'Pro' ? { ...plan, amount: 31.5 } : plan,
      )
      await seedBilling(t.server.services.context.repo, {
        plans: edited,
        addons: content.addons,
      })
      const { body } = await t.getJson<{ items: PlanItem[] }>(path)
      expect(body.items.find((plan) => plan.name === 'Pro')?.amount).toBe(31.5)
      await seedBilling(t.server.services.context.repo, content)
      const restored = await t.getJson<{ items: PlanItem[] }>(path)
      expect(restored.body.items.find((plan) => plan.name === 'Pro')?.amount).toBe(29)
      expect(restored.body.items).toHaveLength(content.plans.length)
    })
  })

  describe('addons', () => {
    it('pages through every public addon the way the client loops, cheapest first', async () => {
      const expected = content.addons.filter((addon) => !addon.custom && addon.active)
      const { items, pages } = await collect<PlanItem>(`${BILLING}/addons`, 'custom=false')
      expect(pages.length).toBeGreaterThanOrEqual(2)
      expect(pages.at(-1)?.hasNext).toBe(false)
      expect(items.map((addon) => addon._id)).toEqual(expected.map((addon) => addon.id))
      const amounts = items.map((addon) => addon.amount)
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b))
      for (const addon of items) {
        expect(addon.features.credits).toMatchObject({
          name: 'credits',
          value: addon.credits,
        })
        expect(addon).not.toHaveProperty('interval')
      }
    })

    it('filters custom addons', async () => {
      const { body } = await t.getJson<{ items: PlanItem[] }>(`${BILLING}/addons?custom=true`)
      expect(body.items.map((addon) => addon.name)).toEqual(['Custom credit pack'])
    })
  })
})
