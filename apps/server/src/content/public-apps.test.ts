// The public dynamic apps and the predictions catalogue through the real server: lists, one app,
// schemas and bad queries.
import { CATALOGUE } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../test-suite.ts'
import { DEFAULT_APP_DESCRIPTION, DEFAULT_APP_THUMBNAIL, DEFAULT_APP_TITLE } from './content.ts'
import {
  APPS,
  type AppItem,
  content,
  HOSTILE,
  HOSTILE_SEGMENTS,
  type Page,
  PREDICTIONS,
  usePublicApiSuite,
} from './public-api-suite.ts'

describeEachDatabase('server', 'public content APIs on %s', usePublicApiSuite, (t) => {
  const { expectBadQuery, collect } = t

  describe('dynamic apps', () => {
    const list = (query = '') =>
      t.getJson<{ items: AppItem[]; page: Page }>(`${APPS}/dynamicApps${query}`)

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
        expect(app.config.thumbnailURL.startsWith(`${t.server.config.publicUrl}/v2/`)).toBe(true)
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
      const { status, body } = await t.getJson<AppItem>(`${APPS}/dynamicApps/colour-booster`)
      expect(status).toBe(200)
      expect(body.config).toMatchObject({
        title: DEFAULT_APP_TITLE,
        description: DEFAULT_APP_DESCRIPTION,
        thumbnailURL: `${t.server.config.publicUrl}${DEFAULT_APP_THUMBNAIL}`,
      })
      expect(body.config.title).toBe('Untitled App')
    })

    it('answers one app by slug, and 404 not_found for an unknown slug', async () => {
      const found = await t.getJson<AppItem>(`${APPS}/dynamicApps/background-remover`)
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
        const { status, body } = await t.getJson<{
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
        await t.getJson<
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
        const { status, body } = await t.getJson<{
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
      const { body } = await t.getJson<{
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
        const response = await t.get(`${PREDICTIONS}/schema/${encodeURIComponent(id)}`)
        expect(response.status, id).toBe(404)
        expect(response.headers.get('content-type')).toContain('application/json')
        expect(await response.json(), id).toEqual({})
      }
    })
  })
})
