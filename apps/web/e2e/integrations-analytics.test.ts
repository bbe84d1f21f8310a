// The analytics tag manager, error reporting, and a server without any vendor's key, in Chromium
// against a real server (SPEC §4, §6, §7.2, §8). The vendors are stood in for
// (integrations-vendors.ts); Google one-tap: integrations-one-tap.test.ts.
import { describe, expect, it } from 'vitest'
import { openSignUp, settled } from './harness.ts'
import {
  ANALYTICS_ID,
  dataLayer,
  integrationPages,
  thirdPartySuite,
  withKeysEnv,
} from './integrations-vendors.ts'
import { suiteServer, webSuite } from './suite.ts'

const vendors = thirdPartySuite()
const web = webSuite(() => withKeysEnv(vendors.third))
const keyless = suiteServer()
const { open, cspViolations } = integrationPages(web, vendors)

describe('analytics tag manager (SPEC §4, §6)', () => {
  it('loads the container, reports page views on route changes but not for /, and identifies', async () => {
    const { page, context, requests, errors } = await open('desktop', { mode: 'none' })
    await page.goto('/')
    // Hydrated and quiet: the container has loaded and started by then on a busy machine too.
    await settled(page)
    await expect
      .poll(async () => (await dataLayer(page)).map((entry) => entry.event))
      .toContain('UNAUTHORISED_USER')
    expect(requests.map((request) => request.url())).toContain(
      `${vendors.third.url}/gtm.js?id=${ANALYTICS_ID}`,
    )
    const anonymousId = await page.evaluate(() => localStorage.getItem('pixb_anonymous_id'))
    const events = await dataLayer(page)
    expect(events[0]).toMatchObject({ event: 'gtm.js' })
    expect(events.find((entry) => entry.event === 'UNAUTHORISED_USER')).toEqual({
      event: 'UNAUTHORISED_USER',
      anonymousId,
    })
    expect(events.filter((entry) => entry.event === 'page_view')).toEqual([])

    await page.locator('a[href="/pricing"]').first().click()
    await page.waitForURL(`${web.server.url}/pricing`)
    await expect
      .poll(async () => (await dataLayer(page)).filter((entry) => entry.event === 'page_view'))
      .toMatchObject([{ page_path: '/pricing', page_location: `${web.server.url}/pricing` }])

    await page.locator('a[href="/"]').first().click()
    await page.waitForURL(`${web.server.url}/`)
    await page.locator('a[href="/pricing"]').first().click()
    await page.waitForURL(`${web.server.url}/pricing`)
    await expect
      .poll(async () =>
        (await dataLayer(page)).filter((e) => e.event === 'page_view').map((e) => e.page_path),
      )
      .toEqual(['/pricing', '/pricing'])
    // Identified once per visitor, however many pages.
    expect((await dataLayer(page)).filter((e) => e.event === 'UNAUTHORISED_USER')).toHaveLength(1)
    expect(errors).toEqual([])
    await context.close()
  })

  it('reports the landing page when it is not /', async () => {
    const { page, context } = await open('mobile', { mode: 'none' })
    await page.goto('/about-us')
    await expect
      .poll(async () => (await dataLayer(page)).filter((entry) => entry.event === 'page_view'))
      .toMatchObject([{ page_path: '/about-us' }])
    await context.close()
  })
})

describe('error reporting (SPEC §7.2, §8)', () => {
  it('posts an uncaught error to the reporting service', async () => {
    const { page, context } = await open('desktop', { mode: 'none' })
    await page.goto('/tools')
    await settled(page)
    await page.evaluate(() => {
      setTimeout(() => {
        throw new TypeError('reported from the browser test')
      })
    })
    await expect
      .poll(() =>
        vendors.third.envelopes.find((body) => body.includes('reported from the browser test')),
      )
      .toBeDefined()
    const body = vendors.third.envelopes.find((text) =>
      text.includes('reported from the browser test'),
    )
    const [header, item, event] = (body ?? '').split('\n').map((line) => JSON.parse(line))
    expect(header).toMatchObject({ dsn: expect.stringContaining('public-key@') })
    expect(item).toEqual({ type: 'event' })
    expect(event).toMatchObject({
      platform: 'javascript',
      request: { url: `${web.server.url}/tools` },
      exception: { values: [{ type: 'TypeError', value: 'reported from the browser test' }] },
    })
    await context.close()
  })

  it('logs a code chunk that fails to load to the console', async () => {
    const { page, context, consoleErrors } = await open('desktop', { mode: 'none' })
    await page.goto('/faqs')
    await settled(page)
    await page.evaluate(() => {
      const event = new Event('vite:preloadError', { cancelable: true })
      ;(event as Event & { payload?: unknown }).payload = new TypeError(
        'Failed to fetch dynamically imported module: /static/gone.js',
      )
      window.dispatchEvent(event)
    })
    await expect.poll(() => consoleErrors.join('\n')).toContain('Failed to load a code chunk')
    await context.close()
  })
})

describe('without keys', () => {
  it('loads nothing from a third party, for a visitor or a signed-in user', async () => {
    const { page, context, requests, errors } = await open(
      'desktop',
      { mode: 'none' },
      keyless.server,
    )
    await page.goto('/')
    await settled(page)
    await openSignUp(page, { firstName: 'Keyless', lastName: 'Tester' })
    await page.waitForURL(/\/console$/)
    await page.goto('/pricing')
    await settled(page)
    await expect
      .poll(() => page.getByTestId('profile-name').first().textContent())
      .toBe('Hi, Keyless')
    const origin = new URL(keyless.server.url).origin
    expect(requests.map((r) => r.url()).filter((url) => !url.startsWith(origin))).toEqual([])
    expect(
      await page.evaluate(() =>
        ['dataLayer', 'google', 'fcWidget'].filter((name) => name in window),
      ),
    ).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})

// Last: the vendors' scripts (configured hosts) ran under the pages' Content-Security-Policy.
it('loaded every integration without a Content-Security-Policy violation', () => {
  expect(cspViolations).toEqual([])
})
