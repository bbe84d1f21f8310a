// The public content APIs through the real server, on PGlite and PostgreSQL: the answer shapes
// of SPEC §7.2, paging as its clients loop, filters, defaults, and bad or hostile input.
import { CATALOGUE } from '@tessera/url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BILLING_PAGE_SIZE } from '../billing/paths.ts'
import { seedBilling } from '../billing/seed.ts'
import {
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'
import {
  DEFAULT_APP_DESCRIPTION,
  DEFAULT_APP_THUMBNAIL,
  DEFAULT_APP_TITLE,
  FREE_PLAN_CREDITS,
  FREE_PLAN_ID,
  loadContent,
  SOCIAL_MEDIA_IDENTIFIERS,
} from './content.ts'

const BILLING = '/service/panel/billing/v1.0'
const APPS = '/service/public/apps/v1.0'
const PREDICTIONS = '/service/public/transformation/v1.0/predictions'
const PRODUCT_TAG = 'tessera'

/** Strings that would change an SQL query or a LIKE pattern if they were ever spliced in. */
const HOSTILE = [
  "' OR '1'='1",
  "tessera' --",
  "'; drop table plans; --",
  '" OR ""="',
  '%',
  '_',
  'tessera%',
  '\\',
  '{tessera}',
  "ARRAY['tessera']",
  '1) OR (1=1',
  '$1',
  '*',
  '.*',
  '../../etc/passwd',
  '<script>alert(1)</script>',
]

/** The hostile strings that can be a path segment (encoded / and \\ are refused before routing). */
const HOSTILE_SEGMENTS = HOSTILE.filter((text) => !text.includes('/') && !text.includes('\\'))

interface Page {
  current: number
  size: number
  hasNext: boolean
  itemTotal: number
  type: string
}
interface Feature {
  name: string
  displayName: string
  value: string | number | boolean
}
interface PlanItem {
  _id: number
  name: string
  amount: number
  interval: string
  credits: number
  currency: string
  custom: boolean
  tags: string[]
  features: Record<string, Feature>
}
interface AppItem {
  _id: string
  slug: string
  tags: string[]
  config: {
    title: string
    description: string
    thumbnailURL: string
    isFeatured: boolean
    url: string
    transformation: string
    operations: string[]
  }
  createdAt: string
}

const content = await loadContent()

describe.each<TestDatabaseKind>(testDatabases('server'))('public content APIs on %s', (kind) => {
  let server: TestServer
  let get: (path: string) => Promise<Response>
  let getJson: <T>(path: string) => Promise<{ status: number; body: T; response: Response }>

  beforeAll(async () => {
    server = await startTestServer(kind)
    get = (path) => fetch(`${server.url}${path}`)
    getJson = async <T>(path: string) => {
      const response = await get(path)
      return {
        status: response.status,
        body: (await response.json()) as T,
        response,
      }
    }
  })
  afterAll(async () => {
    await server?.stop()
  })

  async function expectBadQuery(path: string, mentions?: string) {
    const { status, body, response } = await getJson<{
      code: string
      message: string
    }>(path)
    expect(status, path).toBe(400)
    expect(body.code, path).toBe('invalid_query')
    expect(typeof body.message).toBe('string')
    if (mentions !== undefined) expect(body.message, path).toContain(mentions)
    expect(response.headers.get('content-type')).toContain('application/json')
  }

  /** The pricing client of SPEC §7.2: pageNo from 1, collect items while page.hasNext. */
  async function collect<T>(path: string, query: string) {
    const items: T[] = []
    const pages: Page[] = []
    for (let pageNo = 1; ; pageNo++) {
      const { status, body } = await getJson<{ items: T[]; page: Page }>(
        `${path}?${query}&pageNo=${pageNo}`,
      )
      expect(status).toBe(200)
      items.push(...body.items)
      pages.push(body.page)
      if (!body.page.hasNext) break
      expect(pageNo).toBeLessThan(50)
    }
    return { items, pages }
  }

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
      const { body } = await getJson<{ items: PlanItem[] }>(
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
      const custom = await getJson<{ items: PlanItem[]; page: Page }>(
        `${BILLING}/plans?custom=true&pageSize=100`,
      )
      expect(custom.body.items.map((plan) => plan.name)).toEqual(['Enterprise'])
      expect(custom.body.items.every((plan) => plan.custom)).toBe(true)
      const both = await getJson<{ page: Page }>(`${BILLING}/plans?pageSize=100`)
      expect(both.body.page.itemTotal).toBe(content.plans.length)
      const enterprise = await getJson<{ items: PlanItem[] }>(
        `${BILLING}/plans?tag=enterprise&pageSize=100`,
      )
      expect(enterprise.body.items.map((plan) => plan._id)).toEqual([90])
      const none = await getJson<{ items: PlanItem[]; page: Page }>(
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
      const { status, body } = await getJson<{
        items: PlanItem[]
        page: Page
      }>(`${BILLING}/plans?custom=false&pageNo=999`)
      expect(status).toBe(200)
      expect(body.items).toEqual([])
      expect(body.page).toMatchObject({ current: 999, hasNext: false })
    })

    it('is cacheable for a minute', async () => {
      const response = await get(`${BILLING}/plans?custom=false`)
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
        const { status, body } = await getJson<{
          items: PlanItem[]
          page: Page
        }>(`${BILLING}/plans?custom=false&tag=${encodeURIComponent(tag)}`)
        expect(status, tag).toBe(200)
        expect(body.items, tag).toEqual([])
        expect(body.page.itemTotal, tag).toBe(0)
      }
      const after = await getJson<{ page: Page }>(`${BILLING}/plans?custom=false&tag=tessera`)
      expect(after.body.page.itemTotal).toBe(publicPlans.length)
    })

    it('seeds again without changing anything, and picks up an edited plan', async () => {
      const path = `${BILLING}/plans?pageSize=100`
      const before = await (await get(path)).text()
      await seedBilling(server.services.context.repo, content)
      expect(await (await get(path)).text()).toBe(before)

      const edited = content.plans.map((plan) =>
        plan.name === 'Pro' ? { ...plan, amount: 31.5 } : plan,
      )
      await seedBilling(server.services.context.repo, {
        plans: edited,
        addons: content.addons,
      })
      const { body } = await getJson<{ items: PlanItem[] }>(path)
      expect(body.items.find((plan) => plan.name === 'Pro')?.amount).toBe(31.5)
      await seedBilling(server.services.context.repo, content)
      const restored = await getJson<{ items: PlanItem[] }>(path)
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
      const { body } = await getJson<{ items: PlanItem[] }>(`${BILLING}/addons?custom=true`)
      expect(body.items.map((addon) => addon.name)).toEqual(['Custom credit pack'])
    })
  })

  describe('dynamic apps', () => {
    const list = (query = '') =>
      getJson<{ items: AppItem[]; page: Page }>(`${APPS}/dynamicApps${query}`)

    it('lists apps newest first with SPEC §7.2 page fields', async () => {
      const { status, body, response } = await list()
      expect(status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('public, max-age=60')
      expect(body.page).toEqual({
        current: 1,
        size: 12,
        hasNext: false,
        itemTotal: content.apps.length,
        type: 'number',
      })
      const created = body.items.map((app) => Date.parse(app.createdAt))
      expect(created).toEqual([...created].sort((a, b) => b - a))
      for (const app of body.items) {
        expect(Object.keys(app.config).sort()).toEqual(
          [
            'description',
            'isFeatured',
            'operations',
            'thumbnailURL',
            'title',
            'transformation',
            'url',
          ].sort(),
        )
        expect(app.config.thumbnailURL.startsWith(`${server.config.publicUrl}/v2/`)).toBe(true)
      }
    })

    it('lists the tools the site links, each running its operation', async () => {
      const { body } = await list('?pageSize=100')
      const bySlug = new Map(body.items.map((app) => [app.slug, app]))
      const expected: Record<string, string> = {
        'background-remover': 'erase.bg',
        'image-upscaler': 'sr.upscale',
        'watermark-remover': 'wm.remove',
        'image-compressor': 't.compress',
        'format-converter': 't.toFormat',
        'smart-crop': 'ic.crop',
      }
      for (const [slug, operation] of Object.entries(expected)) {
        expect(bySlug.get(slug)?.config.operations, slug).toContain(operation)
      }
      expect(bySlug.get('ai-headshots')?.config.title).toBe('AI Headshots')
      const featured = body.items.filter((app) => app.config.isFeatured).map((app) => app.slug)
      expect(featured.sort()).toEqual(
        ['ai-headshots', 'background-remover', 'image-upscaler', 'watermark-remover'].sort(),
      )
    })

    it("gives an app without title, description or thumbnail SPEC §9's defaults", async () => {
      const { status, body } = await getJson<AppItem>(`${APPS}/dynamicApps/colour-booster`)
      expect(status).toBe(200)
      expect(body.config).toMatchObject({
        title: DEFAULT_APP_TITLE,
        description: DEFAULT_APP_DESCRIPTION,
        thumbnailURL: `${server.config.publicUrl}${DEFAULT_APP_THUMBNAIL}`,
      })
      expect(body.config.title).toBe('Untitled App')
    })

    it('answers one app by slug, and 404 not_found for an unknown slug', async () => {
      const found = await getJson<AppItem>(`${APPS}/dynamicApps/background-remover`)
      expect(found.status).toBe(200)
      expect(found.body).toMatchObject({
        slug: 'background-remover',
        config: {
          title: 'Background Remover',
          isFeatured: true,
          transformation: 'erase.bg(i:general)',
        },
      })
      for (const slug of ['nope', 'Background-Remover', ...HOSTILE_SEGMENTS, 'x'.repeat(5000)]) {
        const { status, body } = await getJson<{
          code: string
          message: string
        }>(`${APPS}/dynamicApps/${encodeURIComponent(slug)}`)
        expect(status, slug).toBe(404)
        expect(body.code, slug).toBe('not_found')
        expect(typeof body.message).toBe('string')
      }
    })

    it('filters by any of the given tags', async () => {
      const { body } = await list('?tags=people,%20CLEANUP%20,,&pageSize=100')
      expect(body.items.map((app) => app.slug).sort()).toEqual([
        'ai-headshots',
        'watermark-remover',
      ])
      expect(body.page.itemTotal).toBe(2)
    })

    it('searches title and description, trimmed and case-insensitive', async () => {
      const byTitle = await list(`?searchQuery=${encodeURIComponent('  REMOVER ')}`)
      expect(byTitle.body.items.map((app) => app.slug).sort()).toEqual([
        'background-remover',
        'watermark-remover',
      ])
      const byDescription = await list('?searchQuery=greyscale')
      expect(byDescription.body.items.map((app) => app.slug)).toEqual(['black-and-white'])
      const byDefault = await list('?searchQuery=untitled')
      expect(byDefault.body.items.map((app) => app.slug)).toEqual(['colour-booster'])
      const blank = await list('?searchQuery=%20%20')
      expect(blank.body.page.itemTotal).toBe(content.apps.length)
      const combined = await list('?searchQuery=image&tags=ai-tools&pageSize=100')
      for (const app of combined.body.items) {
        expect(app.tags).toContain('ai-tools')
        expect(`${app.config.title} ${app.config.description}`.toLowerCase()).toContain('image')
      }
    })

    it('sorts by title or createdAt in either order', async () => {
      const titles = (await list('?sortBy=title&pageSize=100')).body.items.map(
        (app) => app.config.title,
      )
      expect(titles).toEqual(
        [...titles].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
      )
      const reversed = (await list('?sortBy=title&sortOrder=desc&pageSize=100')).body.items.map(
        (app) => app.config.title,
      )
      expect(reversed).toEqual([...titles].reverse())
      const oldest = (await list('?sortBy=createdAt&sortOrder=asc&pageSize=100')).body.items
      const times = oldest.map((app) => Date.parse(app.createdAt))
      expect(times).toEqual([...times].sort((a, b) => a - b))
    })

    it('pages with hasNext and itemTotal, every app exactly once', async () => {
      const { items, pages } = await collect<AppItem>(
        `${APPS}/dynamicApps`,
        'pageSize=3&sortBy=createdAt&sortOrder=desc',
      )
      expect(pages.length).toBe(Math.ceil(content.apps.length / 3))
      expect(pages.every((page) => page.itemTotal === content.apps.length)).toBe(true)
      expect(new Set(items.map((app) => app.slug)).size).toBe(content.apps.length)
    })

    it('matches nothing for search text or tags that look like SQL or patterns', async () => {
      for (const text of HOSTILE) {
        for (const key of ['searchQuery', 'tags']) {
          const { status, body } = await list(`?${key}=${encodeURIComponent(text)}`)
          expect(status, `${key}=${text}`).toBe(200)
          expect(body.items, `${key}=${text}`).toEqual([])
          expect(body.page.itemTotal).toBe(0)
        }
      }
    })

    it.each([
      ['sortBy=name', 'sortBy'],
      ['sortBy=createdAt;drop', 'sortBy'],
      ['sortOrder=up', 'sortOrder'],
      ['sortOrder=ASC', 'sortOrder'],
      ['pageNo=0', 'pageNo'],
      ['pageSize=1000', 'pageSize'],
      ['pageSize=-5', 'pageSize'],
      [`searchQuery=${'a'.repeat(101)}`, 'searchQuery'],
      [`searchQuery=${'a'.repeat(257)}`, 'longer than 256'],
      ['searchQuery=a%00', 'control characters'],
      [`tags=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`, 'tags'],
      [`tags=${'t'.repeat(65)}`, 'tags'],
      ['searchQuery=a&searchQuery=b', 'more than once'],
      [Array.from({ length: 51 }, (_, i) => `x${i}=1`).join('&'), 'Too many'],
    ])('refuses %s with 400 invalid_query', async (query, mentions) => {
      await expectBadQuery(`${APPS}/dynamicApps?${query}`, mentions)
    })
  })

  describe('predictions', () => {
    it("lists the runnable models as a plain array, in Pixelbin's shape", async () => {
      const { status, body, response } =
        await getJson<
          {
            id: string
            name: string
            displayName: string
            description: string
            bannerImage: string
            operation: string
          }[]
        >(PREDICTIONS)
      expect(status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('public, max-age=60')
      expect(body.map((item) => item.id)).toEqual(content.predictions.map((item) => item.id))
      for (const item of body) {
        expect(item.name).toBe(item.id)
        expect(item.displayName.length).toBeGreaterThan(0)
        expect(item.bannerImage).toMatch(/^https?:\/\//)
        expect(item.description.length).toBeGreaterThan(0)
        const [plugin = '', method = ''] = item.operation.split('.')
        expect(CATALOGUE.getOperation(plugin, method), item.operation).toBeDefined()
      }
    })

    it('answers each schema with fields built from the catalogue params of its operation', async () => {
      for (const prediction of content.predictions) {
        const { status, body } = await getJson<{
          id: string
          operation: string
          input: unknown
          schema: {
            type: string
            required: string[]
            properties: Record<string, Record<string, unknown>>
          }
          apiDetails: {
            urlTemplate: string
            runnable: boolean
            example?: string
          }
        }>(`${PREDICTIONS}/schema/${prediction.id}`)
        expect(status).toBe(200)
        expect(body.id).toBe(prediction.id)
        expect(body.operation).toBe(prediction.operation.key)
        expect(body.schema.type).toBe('object')
        expect(body.input).toEqual(body.schema)
        expect(body.schema.required).toContain('image')
        expect(body.schema.properties.image).toMatchObject({
          type: 'string',
          format: 'uri',
        })
        for (const param of prediction.operation.params) {
          const field = body.schema.properties[param.name]
          expect(field, `${prediction.id}.${param.name}`).toMatchObject({
            title: param.title,
            'x-param': param.id,
          })
          if (param.enum !== undefined) expect(field?.enum).toEqual(param.enum)
          if (param.min !== undefined) expect(field?.minimum).toBe(param.min)
          if (param.max !== undefined) expect(field?.maximum).toBe(param.max)
          if (param.type === 'integer') expect(field?.type).toBe('integer')
          if (param.type === 'boolean') expect(field?.type).toBe('boolean')
          if (param.default !== null && param.type !== 'enum') {
            expect(field?.default).toEqual(param.default)
          }
        }
        expect(Object.keys(body.schema.properties)).toHaveLength(
          prediction.operation.params.length + 1,
        )
        expect(body.apiDetails.urlTemplate).toContain(
          `/v2/{cloudName}/${prediction.operation.key}(`,
        )
        expect(body.apiDetails.runnable).toBe(prediction.operation.runnable)
      }
    })

    it('gives erase_bg the foreground-type enum with its default', async () => {
      const { body } = await getJson<{
        schema: {
          properties: Record<string, { enum?: string[]; default?: unknown }>
        }
      }>(`${PREDICTIONS}/schema/erase_bg`)
      expect(body.schema.properties.industryType).toMatchObject({
        enum: ['general', 'ecommerce', 'car', 'human', 'object'],
        default: 'general',
      })
    })

    it('rejects an unknown id with 404 and an empty object', async () => {
      for (const id of ['nope', 'ERASE_BG', 'erase.bg', ...HOSTILE_SEGMENTS, 'x'.repeat(5000)]) {
        const response = await get(`${PREDICTIONS}/schema/${encodeURIComponent(id)}`)
        expect(response.status, id).toBe(404)
        expect(response.headers.get('content-type')).toContain('application/json')
        expect(await response.json(), id).toEqual({})
      }
    })
  })

  describe('CMS (Strapi-shaped)', () => {
    interface SectionList {
      data: {
        id: number
        attributes: {
          sectionId: string
          header?: { title: string; description: string }
          cards?: {
            id: number
            title: string
            description: string
            image: string
            link: string
          }[]
        }
      }[]
      meta: {
        pagination: {
          page: number
          pageSize: number
          pageCount: number
          total: number
        }
      }
    }
    interface WebsiteList {
      data: {
        id: number
        attributes: {
          searchTag: string
          lastUpdated: string
          socialMediaLinks?: {
            id: number
            identifier: string
            link: string
          }[]
          footerBadgeList?: {
            id: number
            badgeName: string
            badgeUrl: string
          }[]
        }
      }[]
      meta: { pagination: { total: number } }
    }
    const DOC_PATHS = [
      '/transformations/ml/erase-bg',
      '/transformations/ml/intelligent-crop',
      '/transformations/ml/watermark-remover',
      '/transformations/basic/merge',
      '/optimizations/format/',
      '/presets',
      '/presets/using',
      '/presets/configuring',
      '/transformations',
    ]
    const websitePath =
      '/cms/api/websites?filters[searchTag]=tessera&populate=socialMediaLinks&populate=footerBadgeList'

    it('answers the six use-case sections of SPEC §2.7 with header and 2 to 3 cards', async () => {
      const { status, body, response } = await getJson<SectionList>(
        '/cms/api/product-sections?populate=*',
      )
      expect(status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('public, max-age=60')
      expect(body.data.map((entry) => entry.attributes.sectionId)).toEqual([
        'smart-merchandise-listing',
        'image-branding',
        'one-glance-creation',
        'simplified-image-workflows',
        'content-aware-smart-crop',
        'intelligence',
      ])
      for (const { id, attributes } of body.data) {
        expect(typeof id).toBe('number')
        expect(attributes.header?.title.length).toBeGreaterThan(0)
        expect(attributes.header?.description.length).toBeGreaterThan(0)
        expect(attributes.cards?.length).toBeGreaterThanOrEqual(2)
        expect(attributes.cards?.length).toBeLessThanOrEqual(3)
        for (const card of attributes.cards ?? []) {
          expect(DOC_PATHS).toContain(card.link)
          expect(card.image.startsWith(`${server.config.publicUrl}/v2/`)).toBe(true)
          expect(card.title.length * card.description.length).toBeGreaterThan(0)
        }
      }
      const links = new Set(
        body.data.flatMap((entry) => entry.attributes.cards ?? []).map((card) => card.link),
      )
      expect([...links].sort()).toEqual([...DOC_PATHS].sort())
      expect(body.meta.pagination).toEqual({
        page: 1,
        pageSize: 25,
        pageCount: 1,
        total: 6,
      })
    })

    it('leaves components out unless populate asks for them, as Strapi does', async () => {
      const bare = await getJson<SectionList>('/cms/api/product-sections')
      expect(bare.body.data[0]?.attributes).toEqual({
        sectionId: 'smart-merchandise-listing',
      })
      const headerOnly = await getJson<SectionList>('/cms/api/product-sections?populate=header')
      expect(headerOnly.body.data[0]?.attributes.header).toBeDefined()
      expect(headerOnly.body.data[0]?.attributes.cards).toBeUndefined()
      const indexed = await getJson<SectionList>(
        '/cms/api/product-sections?populate[0]=header&populate[1]=cards',
      )
      expect(indexed.body).toEqual(
        (await getJson<SectionList>('/cms/api/product-sections?populate=*')).body,
      )
    })

    it('filters and pages sections', async () => {
      const one = await getJson<SectionList>(
        '/cms/api/product-sections?filters[sectionId][$eq]=intelligence&populate=*',
      )
      expect(one.body.data.map((entry) => entry.attributes.sectionId)).toEqual(['intelligence'])
      const page = await getJson<SectionList>(
        '/cms/api/product-sections?pagination[page]=2&pagination[pageSize]=4',
      )
      expect(page.body.data).toHaveLength(2)
      expect(page.body.meta.pagination).toEqual({
        page: 2,
        pageSize: 4,
        pageCount: 2,
        total: 6,
      })
    })

    it('answers the site configuration for its search tag', async () => {
      const { status, body } = await getJson<WebsiteList>(websitePath)
      expect(status).toBe(200)
      expect(body.data).toHaveLength(1)
      const attributes = body.data[0]?.attributes
      expect(attributes?.searchTag).toBe('tessera')
      expect(Number.isNaN(Date.parse(attributes?.lastUpdated ?? ''))).toBe(false)
      expect(attributes?.socialMediaLinks?.map((link) => link.identifier).sort()).toEqual(
        [...SOCIAL_MEDIA_IDENTIFIERS].sort(),
      )
      for (const link of attributes?.socialMediaLinks ?? [])
        expect(link.link).toMatch(/^https:\/\//)
      // SPEC §4: the client caches the configuration only when both lists have more than 1 entry.
      expect(attributes?.footerBadgeList?.length).toBeGreaterThan(1)
      for (const badge of attributes?.footerBadgeList ?? []) {
        expect(badge.badgeName.length).toBeGreaterThan(0)
        expect(badge.badgeUrl).toMatch(/^https?:\/\//)
      }
    })

    it('answers only the populated lists', async () => {
      const { body } = await getJson<WebsiteList>(
        '/cms/api/websites?filters[searchTag]=tessera&populate=socialMediaLinks',
      )
      expect(body.data[0]?.attributes.socialMediaLinks).toHaveLength(5)
      expect(body.data[0]?.attributes.footerBadgeList).toBeUndefined()
    })

    it('answers empty data for an unknown or hostile search tag', async () => {
      for (const tag of ['other', 'TESSERA', ' tessera', ...HOSTILE]) {
        const { status, body } = await getJson<WebsiteList>(
          `/cms/api/websites?filters[searchTag]=${encodeURIComponent(tag)}&populate=socialMediaLinks`,
        )
        expect(status, tag).toBe(200)
        expect(body.data, tag).toEqual([])
        expect(body.meta.pagination.total).toBe(0)
      }
    })

    it.each([
      ['/cms/api/product-sections?populate=secrets', 'populate'],
      ['/cms/api/product-sections?populate=header,password', 'populate'],
      ['/cms/api/product-sections?populate[x][populate]=*', 'populate'],
      ['/cms/api/websites?populate=cards', 'populate'],
      ['/cms/api/websites?filters[password]=x', 'filter'],
      ['/cms/api/websites?filters[searchTag][$ne]=x', 'filter'],
      ['/cms/api/websites?filters[searchTag]=a&filters[searchTag]=b', 'more than once'],
      ['/cms/api/websites?filters[searchTag]=a&filters[searchTag][$eq]=b', 'more than once'],
      ['/cms/api/websites?pagination[pageSize]=1000', 'pagination[pageSize]'],
      ['/cms/api/product-sections?pagination[page]=0', 'pagination[page]'],
      [`/cms/api/websites?filters[searchTag]=${'x'.repeat(300)}`, 'longer than 256'],
      ['/cms/api/websites?filters[searchTag]=%00', 'control characters'],
    ])('refuses %s with 400 invalid_query', async (path, mentions) => {
      await expectBadQuery(path, mentions)
    })
  })

  it('names only images the server delivers (thumbnails, card images, badges)', async () => {
    const answers = await Promise.all(
      [
        `${APPS}/dynamicApps?pageSize=100`,
        PREDICTIONS,
        '/cms/api/product-sections?populate=*',
        '/cms/api/websites?populate=*',
      ].map(async (path) => (await get(path)).text()),
    )
    const base = server.config.publicUrl
    const pattern = new RegExp(`"(${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/v2/[^"]+)"`, 'g')
    const urls = new Set(
      answers.flatMap((text) => [...text.matchAll(pattern)].map((m) => m[1] as string)),
    )
    expect(urls.size).toBeGreaterThan(10)
    for (const url of urls) {
      const response = await get(url.slice(base.length))
      expect(response.status, url).toBe(200)
      expect(response.headers.get('content-type'), url).toMatch(/^image\//)
      await response.arrayBuffer()
    }
  })

  it('answers hostile text in every query field with 200 or 400, never an error', async () => {
    const fields: Record<string, string[]> = {
      [`${BILLING}/plans`]: ['custom', 'tag', 'pageNo', 'pageSize'],
      [`${BILLING}/addons`]: ['custom', 'tag', 'pageNo', 'pageSize'],
      [`${APPS}/dynamicApps`]: ['tags', 'pageNo', 'pageSize', 'sortBy', 'sortOrder', 'searchQuery'],
      '/cms/api/product-sections': [
        'populate',
        'filters[sectionId]',
        'pagination[page]',
        'pagination[pageSize]',
      ],
      '/cms/api/websites': ['populate', 'filters[searchTag]', 'pagination[page]'],
    }
    for (const [path, names] of Object.entries(fields)) {
      for (const name of names) {
        // `populate=*` is Strapi's own syntax, not hostile.
        for (const text of HOSTILE.filter((item) => name !== 'populate' || item !== '*')) {
          const url = `${path}?${encodeURIComponent(name)}=${encodeURIComponent(text)}`
          const { status, body } = await getJson<{
            code?: string
            items?: unknown[]
            data?: unknown[]
          }>(url)
          expect([200, 400], url).toContain(status)
          if (status === 400) expect(body.code, url).toBe('invalid_query')
          else expect(body.items ?? body.data, url).toEqual([])
        }
      }
    }
    expect((await get('/healthz')).status).toBe(200)
  })

  it('refuses encoded separators in a slug or id before routing (400 invalid_path)', async () => {
    for (const path of [
      `${APPS}/dynamicApps/${encodeURIComponent('../../etc/passwd')}`,
      `${APPS}/dynamicApps/a%5Cb`,
      `${PREDICTIONS}/schema/a%2Fb`,
    ]) {
      const { status, body } = await getJson<{ code: string }>(path)
      expect(status, path).toBe(400)
      expect(body.code).toBe('invalid_path')
    }
  })

  describe('announcements', () => {
    it('answers the current announcements as { items }, newest first', async () => {
      const { status, body, response } = await getJson<{
        items: {
          id: number
          title: string
          startsAt: string
          endsAt?: string
        }[]
      }>('/api/announcements')
      expect(status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('public, max-age=60')
      const now = Date.now()
      const current = content.announcements.filter(
        (item) =>
          Date.parse(item.startsAt) <= now &&
          (item.endsAt === undefined || Date.parse(item.endsAt) > now),
      )
      expect(body.items.map((item) => item.id).sort()).toEqual(
        current.map((item) => item.id).sort(),
      )
      expect(body.items.some((item) => item.id === 3)).toBe(false)
      const starts = body.items.map((item) => Date.parse(item.startsAt))
      expect(starts).toEqual([...starts].sort((a, b) => b - a))
    })
  })

  it('keeps serving after all of the above', async () => {
    expect((await get('/healthz')).status).toBe(200)
  })
})
