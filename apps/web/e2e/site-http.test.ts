// The website's documents over plain HTTP against a real server (SPEC §2, §4, §9): rendered
// pages, their tags, the sitemap, robots.txt, static assets and the runtime configuration. No
// browser: what needs one is in site.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STATIC_PAGES } from '../app/lib/site-routes.ts'
import { startWebServer, type WebServer } from './harness.ts'

let server: WebServer

beforeAll(async () => {
  server = await startWebServer({
    WEB_IOS_APP_URL: 'https://apps.apple.com/app/tessera/id1',
    WEB_ANDROID_APP_URL: 'https://play.google.com/store/apps/details?id=tessera',
  })
})

afterAll(async () => {
  await server?.stop()
})

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { redirect: 'manual', ...init })

describe('routes and documents', () => {
  it('server-renders every page of SPEC §2.1 with a heading', async () => {
    for (const path of [
      ...STATIC_PAGES,
      '/page-not-found',
      '/usecase/image-branding',
      '/ai-tools/background-remover',
      '/apps/background-remover',
      '/api/plugin?plugin=t',
    ]) {
      const response = await get(path)
      expect(response.status, path).toBe(200)
      if (response.status === 200) {
        const html = await response.text()
        if (path !== '/playground') expect(html, path).toMatch(/<h1[\s>]/)
      }
    }
  })

  it('keeps API paths on their JSON 404', async () => {
    const response = await get('/service/no/such/call')
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ code: 'not_found' })
  })

  it('lists every route but /page-not-found in /sitemap.xml', async () => {
    const response = await get('/sitemap.xml')
    expect(response.headers.get('content-type')).toContain('application/xml')
    const xml = await response.text()
    for (const path of STATIC_PAGES) expect(xml).toContain(`<loc>${server.url}${path}</loc>`)
    expect(xml).toContain(`<loc>${server.url}/usecase/smart-merchandise-listing</loc>`)
    expect(xml).toContain(`<loc>${server.url}/ai-tools/background-remover</loc>`)
    expect(xml).not.toContain('page-not-found')
  })

  it('serves robots.txt pointing at the sitemap', async () => {
    const text = await (await get('/robots.txt')).text()
    expect(text).toContain('User-agent: *')
    expect(text).toContain(`Sitemap: ${server.url}/sitemap.xml`)
  })

  it('serves static assets under /static/ with immutable caching', async () => {
    const html = await (await get('/')).text()
    const scripts = [...html.matchAll(/(?:src|href)="(\/static\/[^"]+\.(?:js|css))"/g)].map(
      (m) => m[1],
    )
    expect(scripts.length).toBeGreaterThan(0)
    for (const path of scripts) {
      const response = await get(path ?? '')
      expect(response.status, path).toBe(200)
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    }
    expect((await get('/static/nope.js')).status).toBe(404)
    // Traversal is refused before routing (400) or finds nothing (404); never a file.
    expect([400, 404]).toContain((await get('/static/..%2f..%2fpackage.json')).status)
  })

  it('sets title, description, canonical and share tags on every page (SPEC §2.4)', async () => {
    for (const path of STATIC_PAGES) {
      const html = await (await get(path)).text()
      expect(html, path).toMatch(/<title>[^<]+<\/title>/)
      expect(html, path).toMatch(/<meta name="description" content="[^"]+"/)
      expect(html, path).toContain(`<link rel="canonical" href="${server.url}${path}"/>`)
      expect(html, path).toContain(`<meta property="og:url" content="${server.url}${path}"/>`)
      expect(html, path).toMatch(/<meta property="og:image" content="http[^"]+"/)
      expect(html, path).toContain('<meta property="og:type" content="website"/>')
      expect(html, path).toContain('<meta property="og:locale" content="en_US"/>')
      expect(html, path).toContain('<meta name="twitter:card" content="summary_large_image"/>')
    }
  })

  it('injects the runtime configuration with the panel signing key and no server secrets', async () => {
    const html = await (await get('/')).text()
    const match = /window\.__TESSERA_CONFIG__=(\{.*?\})<\/script>/.exec(html)
    expect(match).not.toBeNull()
    const config = JSON.parse(match?.[1] ?? '{}') as Record<string, unknown>
    expect(config.consoleUrl).toBe('/console')
    expect(typeof config.panelSigningKey).toBe('string')
    expect(config.panelSigningKey).not.toBe('')
    expect(JSON.stringify(config)).not.toMatch(/DATABASE_URL|S3_SECRET|postgres:/)
  })
})
