import { describe, expect, it } from 'vitest'
import { STATIC_PAGES, sitemapPaths, sitemapXml } from './site-routes.ts'

describe('sitemap', () => {
  it('lists every page but /page-not-found, and each use case and app', () => {
    const paths = sitemapPaths({ useCases: ['image-branding'], appSlugs: ['upscaler'] })
    for (const page of STATIC_PAGES) expect(paths).toContain(page)
    expect(paths).toContain('/usecase/image-branding')
    expect(paths).toContain('/ai-tools/upscaler')
    expect(paths).toContain('/apps/upscaler')
    expect(paths).not.toContain('/page-not-found')
  })

  it('lists the documentation pages and each prediction', () => {
    const paths = sitemapPaths({
      useCases: [],
      appSlugs: [],
      docsPaths: ['', '/presets/using'],
      predictionIds: ['ic_crop'],
    })
    expect(paths).toContain('/docs')
    expect(paths).toContain('/docs/presets/using')
    expect(paths).toContain('/predictions')
    expect(paths).toContain('/predictions/ic_crop')
    expect(paths.filter((path) => path === '/docs')).toHaveLength(1)
  })

  it('writes absolute, escaped locations', () => {
    const xml = sitemapXml('https://www.example.com/', ['/', '/a&b'])
    expect(xml).toContain('<loc>https://www.example.com/</loc>')
    expect(xml).toContain('<loc>https://www.example.com/a&amp;b</loc>')
  })
})
