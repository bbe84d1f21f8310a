// The Content-Security-Policy in Chromium against a real server (issue 9): the pages run with
// no violation (React Router's scripts and the runtime configuration carry the nonce), an inline
// script injected without the nonce is blocked, no page may be framed, and a third party's host
// is allowed only when its integration is configured.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, settled, startWebServer, type WebServer, workerBrowser } from './harness.ts'

const VENDOR = 'http://127.0.0.1:9'

let plain: WebServer
let withKeys: WebServer
let browser: Browser

beforeAll(async () => {
  ;[plain, withKeys, browser] = await Promise.all([
    startWebServer(),
    startWebServer({
      GOOGLE_CLIENT_ID: 'csp-test.apps.googleusercontent.com',
      WEB_GOOGLE_SCRIPT_URL: `${VENDOR}/gsi/client`,
      WEB_ERROR_REPORTING_DSN: 'https://key@errors.example.com/7',
    }),
    workerBrowser(),
  ])
})

afterAll(async () => {
  await plain?.stop()
  await withKeys?.stop()
})

/** Records every CSP violation the page reports, from before its first script. */
async function watch(page: Page): Promise<string[]> {
  const messages: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) messages.push(message.text())
  })
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { __violations: string[] }).__violations = seen
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  return messages
}

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)

describe('Content-Security-Policy', () => {
  it('renders and hydrates the site and console with no violation', async () => {
    const { page, context, errors } = await openPage(browser, 'desktop', plain.url)
    const messages = await watch(page)
    for (const path of [
      '/',
      '/ai-tools/background-remover',
      '/ai-tools/no-such-tool',
      '/pricing',
      '/console/auth/login',
      '/console/auth/signup',
    ]) {
      const response = await page.goto(path)
      await settled(page)
      const policy = response?.headers()['content-security-policy'] ?? ''
      expect(policy, path).toContain("frame-ancestors 'none'")
      expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/)
      expect(await violations(page), path).toEqual([])
      // Hydrated: the runtime configuration ran and React took over the page.
      expect(await page.evaluate(() => '__TESSERA_CONFIG__' in window), path).toBe(true)
    }
    // A client-side navigation works under the policy too.
    await page.goto('/')
    await settled(page)
    await page.locator('a[href="/pricing"]').first().click()
    await page.waitForURL('**/pricing')
    await settled(page)
    expect(await violations(page)).toEqual([])
    expect(messages).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it('blocks an inline script injected without the nonce', async () => {
    const { page, context } = await openPage(browser, 'mobile', plain.url)
    await watch(page)
    await page.goto('/')
    await settled(page)
    await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.__injected = true'
      document.body.append(script)
      const handler = document.createElement('img')
      handler.setAttribute('onerror', 'window.__injected = true')
      handler.src = 'data:,not-an-image'
      document.body.append(handler)
    })
    await expect.poll(() => violations(page)).toHaveLength(2)
    expect(await page.evaluate(() => '__injected' in window)).toBe(false)
    expect((await violations(page)).every((entry) => entry.startsWith('script-src'))).toBe(true)
    await context.close()
  })

  it('uses a new nonce for every response', async () => {
    const nonceOf = async () => {
      const html = await (await fetch(`${plain.url}/`)).text()
      return /<script[^>]* nonce="([^"]+)"/.exec(html)?.[1]
    }
    const first = await nonceOf()
    expect(first).toBeDefined()
    expect(await nonceOf()).not.toBe(first)
  })

  it('asks browsers to keep to HTTPS only when the page came over HTTPS', async () => {
    const viaHttps = await fetch(`${plain.url}/`, { headers: { 'x-forwarded-proto': 'https' } })
    expect(viaHttps.headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    )
    expect((await fetch(`${plain.url}/`)).headers.get('strict-transport-security')).toBeNull()
  })

  it('allows an integration’s hosts only when it is configured', async () => {
    const without = (await fetch(`${plain.url}/`)).headers.get('content-security-policy') ?? ''
    const configured =
      (await fetch(`${withKeys.url}/console/auth/login`)).headers.get('content-security-policy') ??
      ''
    expect(without).not.toContain(VENDOR)
    expect(without).not.toContain('errors.example.com')
    expect(without).toContain("frame-src 'none'")
    expect(configured).toMatch(new RegExp(`script-src [^;]*${VENDOR}`))
    expect(configured).toMatch(new RegExp(`frame-src [^;]*${VENDOR}`))
    expect(configured).toMatch(/connect-src [^;]*https:\/\/errors\.example\.com/)
    expect(configured).not.toMatch(/script-src [^;]*errors\.example\.com/)
  })
})
