// The documentation site and the API pages in Chromium against a real server, at 1440 and 390 px
// (and /api/plugin at 320 px): SPEC §2.5–§2.7 links land on the right pages, search finds an
// operation, examples load live from the demo data, and an anonymous visitor sees no errors.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { horizontalOverflow, openPage, settled, watchConsoleErrors } from './harness.ts'
import { webSuite } from './suite.ts'

const web = webSuite()

/** Whether the image finished loading with pixels (a broken image has naturalWidth 0). */
async function loadedImage(page: Page, selector: string): Promise<{ width: number; ok: boolean }> {
  const image = page.locator(selector).first()
  await image.scrollIntoViewIfNeeded()
  await page.waitForFunction(
    (element) => element instanceof HTMLImageElement && element.complete,
    await image.elementHandle(),
    { timeout: 30_000 },
  )
  return image.evaluate((element) => ({
    width: (element as HTMLImageElement).naturalWidth,
    ok: (element as HTMLImageElement).naturalWidth > 0,
  }))
}

describe.each(['desktop', 'mobile'] as const)('documentation at %s width', (viewport) => {
  it('takes a use-case "Learn how" link to its documentation page (SPEC §2.7)', async () => {
    const { page, context, errors, consoleErrors } = await openPage(
      web.browser,
      viewport,
      web.server.url,
    )
    await page.goto('/')
    await settled(page)
    const learn = page.locator('a[href="/docs/transformations/ml/erase-bg"]').first()
    expect(await learn.textContent()).toBe('Learn how')
    await learn.scrollIntoViewIfNeeded()
    await learn.click()
    await page.waitForURL(`${web.server.url}/docs/transformations/ml/erase-bg`)
    await page.getByRole('heading', { level: 1, name: 'Erase BG (erase.bg)' }).waitFor()
    expect(await page.locator('.docs-content').textContent()).toContain(
      'This server runs it, as a background job',
    )
    // The other targets resolve as well, trailing slash and all.
    for (const target of [
      '/presets/using',
      '/optimizations/format/',
      '/transformations/basic/merge',
    ]) {
      const answer = await page.request.get(`/docs${target}`)
      expect(answer.status(), target).toBe(200)
    }
    expect(await horizontalOverflow(page)).toBe(0)
    expect(errors).toEqual([])
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  it('finds an operation by search and shows it with a live example', async () => {
    const { page, context, consoleErrors } = await openPage(web.browser, viewport, web.server.url)
    await page.goto('/docs')
    await settled(page)
    await page.getByTestId('docs-search-input').fill('resize')
    await page.getByTestId('docs-search-input').press('Enter')
    await page.waitForURL(/\/docs\/search\?q=resize$/)
    const first = page.getByTestId('docs-hits').locator('a').first()
    expect(await first.textContent()).toBe('Resize an image (t.resize)')
    await first.click()
    await page.waitForURL(`${web.server.url}/docs/transformations/basic/resize`)
    await page.getByRole('heading', { level: 1, name: 'Resize an image (t.resize)' }).waitFor()
    const table = await page.locator('.docs-content table').first().textContent()
    expect(table).toContain('lanczos3')
    expect(table).toContain('0 to 12000')
    expect(await loadedImage(page, '[data-testid="docs-example"] img')).toEqual({
      width: 300,
      ok: true,
    })
    const playground = page.getByRole('link', { name: 'Open in the playground' })
    expect(await playground.getAttribute('href')).toBe(
      `/playground?url=${encodeURIComponent(`${web.server.url}/v2/demo/t.resize(w:300,h:200)/samples/chelsea.png`)}`,
    )
    expect(await horizontalOverflow(page)).toBe(0)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  it('points the header and footer developer links at the documentation', async () => {
    const { page, context } = await openPage(web.browser, viewport, web.server.url)
    await page.goto('/faqs')
    await settled(page)
    // On a phone the footer's columns are folded: read the links whether shown or not.
    const footerLink = (name: string) =>
      page.locator('footer a', { hasText: new RegExp(`^${name}$`) }).getAttribute('href')
    expect(await footerLink('Getting Started')).toBe('/docs/getting-started')
    expect(await footerLink('Documentation')).toBe('/docs')
    expect(await footerLink('Integrations')).toBe('/docs/integrations')
    if (viewport === 'desktop') {
      const headerLink = page.locator('#dropdown-developers a', { hasText: /^Documentation$/ })
      expect(await headerLink.getAttribute('href')).toBe('/docs')
    }
    await page.goto('/docs/getting-started')
    await settled(page)
    expect(await page.locator('h1').textContent()).toBe('Getting started')
    // The README's example is there, and the console is the way in.
    expect(await page.locator('.docs-content').textContent()).toContain('t.resize(w:300)~t.flip()')
    expect(await page.locator('.docs-content a[href="/console/auth/signup"]').count()).toBe(1)
    await context.close()
  })

  it('renders the REST reference from the OpenAPI document', async () => {
    const { page, context } = await openPage(web.browser, viewport, web.server.url)
    await page.goto('/docs/rest-api')
    await settled(page)
    const content = await page.locator('.docs-content').textContent()
    expect(content).toContain('GET /service/public/transformation/v1.0/predictions')
    expect(content).toContain('POST /service/panel/assets/v1.0/upload/direct')
    expect(await horizontalOverflow(page)).toBe(0)
    await context.close()
  })
})

describe('API plugin page', () => {
  it('is readable at 320 px: no sideways scroll, enum values shown, live examples load', async () => {
    const context = await web.browser.newContext({
      viewport: { width: 320, height: 800 },
      baseURL: web.server.url,
    })
    const page = await context.newPage()
    const consoleErrors = watchConsoleErrors(page)
    await page.goto('/api/plugin?plugin=t')
    await settled(page)
    expect(await horizontalOverflow(page)).toBe(0)
    const resize = page.locator('#resize')
    const fit = resize.getByTestId('param').filter({ hasText: 'fit' })
    expect(await fit.locator('.enum-values code').allTextContents()).toEqual([
      'cover',
      'contain',
      'fill',
      'inside',
      'outside',
    ])
    expect(await fit.locator('.enum-values').isVisible()).toBe(true)
    expect(await resize.getByTestId('run-status').textContent()).toBe('Runs on this server')
    expect(await loadedImage(page, '#resize [data-testid="example-result"] img')).toEqual({
      width: 300,
      ok: true,
    })
    expect(
      await resize.getByRole('link', { name: 'Open in the playground' }).getAttribute('href'),
    ).toBe(
      `/playground?url=${encodeURIComponent(`${web.server.url}/v2/demo/t.resize(w:300,h:200)/samples/chelsea.png`)}`,
    )
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  it('shows a slow operation once its job is done, and says which operations do not run here', async () => {
    const { page, context, consoleErrors } = await openPage(web.browser, 'mobile', web.server.url)
    await page.goto('/api/plugin?plugin=ic')
    await settled(page)
    // ic.crop answers 202 while its job runs; the page retries until the image is there.
    await page.locator('#crop [data-testid="example-result"] img').waitFor({ timeout: 30_000 })
    expect(await loadedImage(page, '#crop [data-testid="example-result"] img')).toEqual({
      width: 300,
      ok: true,
    })
    // A generative operation has no model here.
    await page.goto('/api/plugin?plugin=generate')
    await settled(page)
    expect(await page.getByTestId('run-status').textContent()).toContain('Not run by this server')
    expect(await page.getByTestId('example-result').count()).toBe(0)
    expect(await horizontalOverflow(page)).toBe(0)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  it('has a working live example for every operation this server runs', async () => {
    const { page, context } = await openPage(web.browser, 'desktop', web.server.url)
    for (const plugin of ['t', 'ic', 'pdf']) {
      await page.goto(`/api/plugin?plugin=${plugin}`)
      const examples = await page.getByTestId('example-url').allTextContents()
      const runs = await page.getByTestId('run-status').allTextContents()
      for (const [index, url] of examples.entries()) {
        if (!runs[index]?.startsWith('Runs on this server')) continue
        // As the page does: the server signs an AI example (the demo is strict); others come back.
        const signing = await page.request.post(
          `${web.server.url}/service/public/playground/v1.0/sign`,
          { data: { url } },
        )
        expect(signing.status(), url).toBe(200)
        const target = ((await signing.json()) as { url: string }).url
        let status = 202
        for (let attempt = 0; attempt < 30 && status === 202; attempt++) {
          const answer = await page.request.get(target)
          status = answer.status()
          if (status === 200) {
            expect(answer.headers()['content-type'], url).toMatch(/^image\//)
          } else if (status === 202) await page.waitForTimeout(500)
        }
        expect(status, url).toBe(200)
      }
    }
    await context.close()
  })
})
