// The website in Chromium against a real server, at 1440 px and 390 px (SPEC §2, §4, §9). What
// needs no browser (documents, headers, sitemap, assets) is in site-http.test.ts.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, settled, startWebServer, type WebServer, workerBrowser } from './harness.ts'

let server: WebServer
let browser: Browser

beforeAll(async () => {
  server = await startWebServer({
    WEB_IOS_APP_URL: 'https://apps.apple.com/app/tessera/id1',
    WEB_ANDROID_APP_URL: 'https://play.google.com/store/apps/details?id=tessera',
  })
  browser = await workerBrowser()
})

afterAll(async () => {
  await server?.stop()
})

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { redirect: 'manual', ...init })

describe('routes and documents', () => {
  it('answers any other path with the not-found page and 404 (issue 24: no redirect home)', async () => {
    for (const path of ['/no/such/page', '/products/extra', '/api/unknown', '/usecase']) {
      const response = await get(path)
      expect(response.status, path).toBe(404)
      expect(await response.text(), path).toContain('This page does not exist')
    }
    const { page, context } = await openPage(browser, 'desktop', server.url)
    await page.goto('/definitely-missing')
    expect(new URL(page.url()).pathname).toBe('/definitely-missing')
    await context.close()
  })
})

describe.each(['desktop', 'mobile'] as const)('layout at %s width', (viewport) => {
  it('renders the home page without errors, with header, hero, use cases and footer', async () => {
    const { page, context, errors } = await openPage(browser, viewport, server.url)
    await page.goto('/')
    await settled(page)
    await expect(page.locator('h1').first().textContent()).resolves.toContain('transformed by URL')
    expect(await page.getByTestId('site-header').isVisible()).toBe(true)
    expect(await page.getByTestId('site-footer').isVisible()).toBe(true)
    for (const id of [
      'smart-merchandise-listing',
      'image-branding',
      'one-glance-creation',
      'simplified-image-workflows',
      'content-aware-smart-crop',
      'intelligence',
    ]) {
      expect(await page.getByTestId(`usecase-${id}`).count(), id).toBe(1)
    }
    expect(await page.getByTestId('sibling-promos').locator('article').count()).toBe(3)
    // Images come from our own delivery and load.
    const broken = await page.evaluate(() =>
      [...document.images]
        .filter((img) => img.loading !== 'lazy' && img.complete && img.naturalWidth === 0)
        .map((img) => img.src),
    )
    expect(broken).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it('hides header and footer on /playground and renders it only in the browser', async () => {
    const html = await (await get('/playground')).text()
    expect(html).not.toContain('data-testid="playground"')
    const { page, context } = await openPage(browser, viewport, server.url)
    await page.goto('/playground')
    await page.getByTestId('playground').waitFor()
    expect(await page.getByTestId('site-header').count()).toBe(0)
    expect(await page.getByTestId('site-footer').count()).toBe(0)
    await context.close()
  })

  it('hides header and footer with hideInApp=true and drops the top padding', async () => {
    const { page, context } = await openPage(browser, viewport, server.url)
    await page.goto('/faqs?hideInApp=true')
    expect(await page.getByTestId('site-header').count()).toBe(0)
    expect(await page.getByTestId('site-footer').count()).toBe(0)
    expect(await page.getByTestId('main').getAttribute('class')).not.toContain('has-top-padding')
    await page.goto('/faqs')
    expect(await page.getByTestId('main').getAttribute('class')).toContain('has-top-padding')
    await page.goto('/pricing')
    expect(await page.getByTestId('main').getAttribute('class')).not.toContain('has-top-padding')
    await context.close()
  })

  it('shows social links and badges from the CMS, store badges, the year and the legal notice', async () => {
    const { page, context } = await openPage(browser, viewport, server.url)
    await page.goto('/about-us')
    const identifiers = await page
      .getByTestId('social-links')
      .locator('a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('data-identifier')))
    expect(identifiers).toEqual(['discord', 'linkedin', 'instagram', 'youtube', 'twitter'])
    expect(await page.getByTestId('footer-badges').locator('img').count()).toBe(2)
    expect(await page.getByTestId('store-badges').locator('a').count()).toBe(2)
    expect(await page.getByTestId('copyright').textContent()).toContain(
      String(new Date().getFullYear()),
    )
    expect(await page.locator('.legal-notice').textContent()).toContain('AGPL')
    await context.close()
  })

  it('gives anonymous visitors Login and Sign up on first paint, with no session call', async () => {
    const { page, context, errors, consoleErrors } = await openPage(browser, viewport, server.url)
    // The server resolved the session (no cookie: anonymous) before rendering.
    const html = await (await get('/features')).text()
    expect(html).not.toContain('data-testid="session-loader"')
    expect(html).toContain('data-testid="login-link"')
    const sessionCalls: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/users/v1.0/session')) sessionCalls.push(request.url())
    })
    await page.goto('/features')
    await settled(page)
    expect(sessionCalls).toEqual([])
    expect(errors).toEqual([])
    expect(consoleErrors).toEqual([])
    expect(await page.getByTestId('session-loader').count()).toBe(0)
    if (viewport === 'desktop') {
      expect(await page.getByTestId('login-link').isVisible()).toBe(true)
      expect(await page.getByTestId('signup-link').isVisible()).toBe(true)
    }
    const bookDemo = page.getByTestId('book-demo')
    expect(await bookDemo.getAttribute('target')).toBe('_blank')
    await context.close()
  })

  it('stores the anonymous id under the three keys and only fp_ref of affiliate data', async () => {
    const { page, context } = await openPage(browser, viewport, server.url)
    await page.goto('/?fp_ref=partner42&utm_source=x')
    await settled(page)
    const stored = await page.evaluate(() => ({
      ids: ['pixb_anonymous_id', 'anonymous_id', 'ajs_anonymous_id'].map((k) =>
        localStorage.getItem(k),
      ),
      affiliate: localStorage.getItem('tessera.affiliate'),
    }))
    expect(stored.ids[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(new Set(stored.ids).size).toBe(1)
    expect(JSON.parse(stored.affiliate ?? '{}')).toEqual({ fp_ref: 'partner42' })
    await context.close()
  })

  it('builds login links per SPEC §2.3 on AI tool and API pages', async () => {
    const { page, context } = await openPage(browser, viewport, server.url)
    const loginHref = async () => {
      if (viewport === 'mobile') {
        return page
          .getByTestId('sidebar')
          .locator('a', { hasText: /^Login$/ })
          .getAttribute('href')
      }
      return page.getByTestId('login-link').getAttribute('href')
    }
    await page.goto('/ai-tools/background-remover')
    await settled(page)
    expect(await loginHref()).toBe('/console/auth/login?redirectTo=%2Fapps%2Fbackground-remover')
    await page.goto('/api')
    await settled(page)
    expect(await loginHref()).toBe('/console/auth/login?isolateFlow=true&redirectTo=%2Fapi')
    await page.goto('/api/plugin?plugin=t')
    await settled(page)
    expect(await loginHref()).toBe(
      '/console/auth/login?isolateFlow=true&redirectTo=%2Fapi%2Fplugin%3Fplugin%3Dt',
    )
    await page.goto('/features')
    await settled(page)
    expect(await loginHref()).toBe(
      `/console/auth/login?redirectUrl=${encodeURIComponent(`${server.url}/features`)}`,
    )
    await context.close()
  })
})

describe('header at desktop width', () => {
  it('opens dropdowns on click and hover, and closes them on outside click and scroll', async () => {
    const { page, context } = await openPage(browser, 'desktop', server.url)
    await page.goto('/products')
    await settled(page)
    const aiTools = page.getByTestId('nav-ai-tools')
    const menu = page.locator('#dropdown-ai-tools')
    const developers = page.locator('#dropdown-developers')
    const state = { timeout: 3000 }
    await aiTools.click()
    await menu.waitFor({ state: 'visible', ...state })
    expect(await menu.locator('a').allTextContents()).toEqual([
      'Background Remover',
      'Image Upscaler',
      'Watermark Remover',
      'AI Headshots',
      'See All',
    ])
    // An outside click closes it.
    await page.locator('h1').first().click()
    await menu.waitFor({ state: 'hidden', ...state })
    // Hover opens, leaving closes.
    await page.getByTestId('nav-developers').hover()
    await developers.waitFor({ state: 'visible', ...state })
    expect(await developers.locator('a').allTextContents()).toEqual([
      'Documentation',
      'APIs',
      'Integrations',
      'Playground',
      'Predictions',
    ])
    await page.locator('h1').first().hover()
    await developers.waitFor({ state: 'hidden', ...state })
    // Scrolling closes an open dropdown.
    await aiTools.click()
    await menu.waitFor({ state: 'visible', ...state })
    await page.mouse.wheel(0, 500)
    await menu.waitFor({ state: 'hidden', ...state })
    expect(await page.getByTestId('hamburger').isVisible()).toBe(false)
    expect(await page.getByTestId('nav-pricing').getAttribute('target')).toBeNull()
    await context.close()
  })

  it('toggles a dropdown with the keyboard and closes it with Escape', async () => {
    const { page, context } = await openPage(browser, 'desktop', server.url)
    await page.goto('/faqs')
    await settled(page)
    const menu = page.locator('#dropdown-ai-tools')
    const toggle = page.getByTestId('nav-ai-tools')
    await toggle.focus()
    await page.keyboard.press('Enter')
    await menu.waitFor({ state: 'visible', timeout: 3000 })
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    // The open menu is reachable: its links are the next stops for Tab.
    expect(await menu.getByRole('link').count()).toBeGreaterThan(0)
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'hidden', timeout: 3000 })
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    // Escape leaves the keyboard where it was, on the toggle.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'nav-ai-tools',
    )
    await context.close()
  })

  it('blurs the header background once the page is scrolled', async () => {
    const { page, context } = await openPage(browser, 'desktop', server.url)
    await page.goto('/')
    await settled(page)
    const header = page.getByTestId('site-header')
    expect(await header.getAttribute('class')).not.toContain('is-scrolled')
    await page.evaluate(() => window.scrollTo(0, 600))
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="site-header"]')?.classList.contains('is-scrolled'),
    )
    const filter = await header.evaluate((el) => getComputedStyle(el).backdropFilter)
    expect(filter).toContain('blur')
    await context.close()
  })
})

describe('header and footer at mobile width', () => {
  it('opens the sidebar with Login, Sign up and Go to Dashboard, locks scrolling, closes on navigation', async () => {
    const { page, context } = await openPage(browser, 'mobile', server.url)
    await page.goto('/faqs')
    await settled(page)
    expect(await page.locator('.site-nav').isVisible()).toBe(false)
    await page.getByTestId('hamburger').click()
    const sidebar = page.getByTestId('sidebar')
    expect(await sidebar.isVisible()).toBe(true)
    for (const label of ['Login', 'Sign up', 'Go to Dashboard']) {
      expect(await sidebar.getByText(label, { exact: true }).isVisible(), label).toBe(true)
    }
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden')
    await sidebar.getByText('APIs', { exact: true }).click()
    await page.waitForURL(/\/api$/)
    await sidebar.waitFor({ state: 'hidden' })
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('visible')
    await context.close()
  })

  it('navigates in the page from header and footer links, as React Router links do', async () => {
    const { page, context, errors } = await openPage(browser, 'desktop', server.url)
    await page.goto('/about-us')
    await settled(page)
    // A marker on the window survives a client-side navigation, not a page load.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }))
    const sameDocument = () =>
      page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true)
    await page
      .getByTestId('site-footer')
      .getByRole('link', { name: 'caution notice', exact: true })
      .click()
    await page.waitForURL(/\/terms-of-use#caution-notice$/)
    expect(await sameDocument()).toBe(true)
    await page.getByTestId('site-header').getByRole('link', { name: 'Tessera home' }).click()
    await page.waitForURL(`${server.url}/`)
    await settled(page)
    expect(await sameDocument()).toBe(true)
    // A modified click is left to the browser (a new tab), and this page stays.
    const opened = context.waitForEvent('page')
    await page
      .getByTestId('site-footer')
      .getByRole('link', { name: 'caution notice', exact: true })
      .click({ modifiers: ['Shift'] })
    await (await opened).close()
    expect(new URL(page.url()).pathname).toBe('/')
    expect(await sameDocument()).toBe(true)
    expect(errors).toEqual([])
    await context.close()
  })

  it('turns the footer columns into accordions with one open at a time', async () => {
    const { page, context } = await openPage(browser, 'mobile', server.url)
    await page.goto('/about-us')
    await settled(page)
    const links = (id: string) => page.locator(`#footer-links-${id}`)
    expect(await links('products').isVisible()).toBe(false)
    await page.getByTestId('footer-column-products').getByRole('button').click()
    expect(await links('products').isVisible()).toBe(true)
    await page.getByTestId('footer-column-company').getByRole('button').click()
    expect(await links('company').isVisible()).toBe(true)
    expect(await links('products').isVisible()).toBe(false)
    expect(await page.locator('.footer-column.is-open').count()).toBe(1)
    await context.close()
  })
})

describe('pages with data', () => {
  it('shows plans from billing with a monthly/yearly switch', async () => {
    const { page, context } = await openPage(browser, 'desktop', server.url)
    await page.goto('/pricing')
    await settled(page)
    const plans = () => page.getByTestId('plan').locator('h2, .plan-price').allTextContents()
    const monthly = await plans()
    expect(monthly[0]).toBe('Free')
    expect(monthly.length).toBeGreaterThan(2)
    expect(monthly.join(' ')).toContain('/ month')
    await page.getByTestId('interval-yearly').click()
    await page.waitForURL(/interval=yearly/)
    await page.waitForFunction(() => document.body.textContent?.includes('/ year'))
    const yearly = await plans()
    expect(yearly[0]).toBe('Free')
    expect(yearly).not.toEqual(monthly)
    expect(await page.getByTestId('addons').locator('article').count()).toBeGreaterThan(0)
    await context.close()
  })

  it('lists AI tools, searches with a trimmed q and falls back on a bad page number', async () => {
    const { page, context } = await openPage(browser, 'desktop', server.url)
    await page.goto('/ai-tools?page=abc&q=%20remover%20')
    const titles = await page.getByTestId('app-card').locator('h3').allTextContents()
    expect(titles).toContain('Watermark Remover')
    expect(titles).toContain('Background Remover')
    expect(titles).not.toContain('Image Upscaler')
    expect(await page.locator('#q').inputValue()).toBe('remover')
    await page.goto('/ai-tools')
    expect(await page.getByTestId('app-card').count()).toBeGreaterThan(2)
    await context.close()
    // An unknown tool answers 404 with the not-available page, under both addresses.
    for (const path of ['/ai-tools/no-such-tool', '/apps/no-such-tool']) {
      const answer = await get(path)
      expect(answer.status, path).toBe(404)
      const missing = await answer.text()
      expect(missing).toContain('data-testid="app-missing"')
      expect(missing).toContain('no-such-tool')
      expect(missing).toContain('content="noindex"')
    }
    const known = await get('/apps/background-remover')
    expect(known.status).toBe(200)
    expect(await known.text()).toContain('data-testid="app-page"')
  })

  it('validates the contact form and stores a valid message on the server', async () => {
    const { page, context } = await openPage(browser, 'mobile', server.url)
    await page.goto('/contactus?topic=demo')
    await settled(page)
    expect(await page.locator('#topic').inputValue()).toBe('demo')
    await page.getByRole('button', { name: 'Send message' }).click()
    await page.locator('#name-error').waitFor()
    expect(await page.locator('#email-error').textContent()).toContain('email')
    await page.fill('#name', 'Grace Hopper')
    await page.fill('#email', 'grace@example.com')
    await page.fill('#message', 'We would like a demo for our team of twelve.')
    await page.getByRole('button', { name: 'Send message' }).click()
    await page.getByTestId('contact-success').waitFor()
    const [stored] = await server.contactMessages(1)
    expect(stored).toMatchObject({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      topic: 'demo',
    })
    await context.close()
  })
})
