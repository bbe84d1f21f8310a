import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../test-suite.ts'
import { SOCIAL_MEDIA_IDENTIFIERS } from './content.ts'
import { content, HOSTILE, usePublicApiSuite } from './public-api-suite.ts'

describeEachDatabase('server', 'public content APIs on %s', usePublicApiSuite, (t) => {
  const { expectBadQuery } = t

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
      const { status, body, response } = await t.getJson<SectionList>(
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
          expect(card.image.startsWith(`${t.server.config.publicUrl}/v2/`)).toBe(true)
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
      const bare = await t.getJson<SectionList>('/cms/api/product-sections')
      expect(bare.body.data[0]?.attributes).toEqual({
        sectionId: 'smart-merchandise-listing',
      })
      const headerOnly = await t.getJson<SectionList>('/cms/api/product-sections?populate=header')
      expect(headerOnly.body.data[0]?.attributes.header).toBeDefined()
      expect(headerOnly.body.data[0]?.attributes.cards).toBeUndefined()
      const indexed = await t.getJson<SectionList>(
        '/cms/api/product-sections?populate[0]=header&populate[1]=cards',
      )
      expect(indexed.body).toEqual(
        (await t.getJson<SectionList>('/cms/api/product-sections?populate=*')).body,
      )
    })

    it('filters and pages sections', async () => {
      const one = await t.getJson<SectionList>(
        '/cms/api/product-sections?filters[sectionId][$eq]=intelligence&populate=*',
      )
      expect(one.body.data.map((entry) => entry.attributes.sectionId)).toEqual(['intelligence'])
      const page = await t.getJson<SectionList>(
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
      const { status, body } = await t.getJson<WebsiteList>(websitePath)
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
      const { body } = await t.getJson<WebsiteList>(
        '/cms/api/websites?filters[searchTag]=tessera&populate=socialMediaLinks',
      )
      expect(body.data[0]?.attributes.socialMediaLinks).toHaveLength(5)
      expect(body.data[0]?.attributes.footerBadgeList).toBeUndefined()
    })

    it('answers empty data for an unknown or hostile search tag', async () => {
      for (const tag of ['other', 'TESSERA', ' tessera', ...HOSTILE]) {
        const { status, body } = await t.getJson<WebsiteList>(
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

  describe('announcements', () => {
    it('answers the current announcements as { items }, newest first', async () => {
      const { status, body, response } = await t.getJson<{
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
})
