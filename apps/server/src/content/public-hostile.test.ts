// Every public content call at once, through the real server: the images the answers name are
// delivered, hostile text in every query field is a 200 or a 400, encoded separators are refused.
import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../test-suite.ts'
import { APPS, BILLING, HOSTILE, PREDICTIONS, usePublicApiSuite } from './public-api-suite.ts'

describeEachDatabase('server', 'public content APIs on %s', usePublicApiSuite, (t) => {
  describe('all calls together', () => {
    it('names only images the server delivers (thumbnails, card images, badges)', async () => {
      const answers = await Promise.all(
        [
          `${APPS}/dynamicApps?pageSize=100`,
          PREDICTIONS,
          '/cms/api/product-sections?populate=*',
          '/cms/api/websites?populate=*',
        ].map(async (path) => (await t.get(path)).text()),
      )
      const base = t.server.config.publicUrl
      const pattern = new RegExp(`"(${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/v2/[^"]+)"`, 'g')
      const urls = new Set(
        answers.flatMap((text) => [...text.matchAll(pattern)].map((m) => m[1] as string)),
      )
      expect(urls.size).toBeGreaterThan(10)
      for (const url of urls) {
        const response = await t.get(url.slice(base.length))
        expect(response.status, url).toBe(200)
        expect(response.headers.get('content-type'), url).toMatch(/^image\//)
        await response.arrayBuffer()
      }
    })

    it('answers hostile text in every query field with 200 or 400, never an error', async () => {
      const fields: Record<string, string[]> = {
        [`${BILLING}/plans`]: ['custom', 'tag', 'pageNo', 'pageSize'],
        [`${BILLING}/addons`]: ['custom', 'tag', 'pageNo', 'pageSize'],
        [`${APPS}/dynamicApps`]: [
          'tags',
          'pageNo',
          'pageSize',
          'sortBy',
          'sortOrder',
          'searchQuery',
        ],
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
            const { status, body } = await t.getJson<{
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
      expect((await t.get('/healthz')).status).toBe(200)
    })

    it('refuses encoded separators in a slug or id before routing (400 invalid_path)', async () => {
      for (const path of [
        `${APPS}/dynamicApps/${encodeURIComponent('../../etc/passwd')}`,
        `${APPS}/dynamicApps/a%5Cb`,
        `${PREDICTIONS}/schema/a%2Fb`,
      ]) {
        const { status, body } = await t.getJson<{ code: string }>(path)
        expect(status, path).toBe(400)
        expect(body.code).toBe('invalid_path')
      }
    })

    it('keeps serving after all of the above', async () => {
      expect((await t.get('/healthz')).status).toBe(200)
    })
  })
})
