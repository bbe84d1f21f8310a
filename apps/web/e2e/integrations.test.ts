// The third-party integrations in Chromium against a real server (SPEC §4, §6, §7.2, §8). Only
// the third parties are stood in for: a loopback server serves small scripts shaped like Google
// Identity Services, the tag manager and the chat widget, Google's JWKS, and an error-reporting
// collector. The adapters, the server's ID-token check and the session are the real ones.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  launchBrowser,
  openPage,
  settled,
  startWebServer,
  uniqueEmail,
  type ViewportName,
  type WebServer,
} from './harness.ts'

const CLIENT_ID = 'tessera-web-test.apps.googleusercontent.com'
const ANALYTICS_ID = 'GTM-TEST42'
const CHAT_TOKEN = 'chat-token-1'
const INVALID_NOTIFICATION = 'Invalid notification object from Google One Tap.'

// Google Identity Services as the adapter sees it. `window.__fakeGsi` (set before the page
// loads) says what "Google" does after the prompt: hand over a credential, call back with
// nothing, or nothing at all.
const FAKE_GSI = `
window.__gsi = { initialize: [], prompts: 0 };
window.google = { accounts: { id: {
  initialize: function (options) {
    window.__gsi.initialize.push({ client_id: options.client_id });
    window.__gsi.callback = options.callback;
  },
  prompt: function (listener) {
    window.__gsi.prompts += 1;
    if (listener) listener({ getMomentType: function () { return 'display'; }, isDisplayed: function () { return true; } });
    var plan = window.__fakeGsi || { mode: 'none' };
    setTimeout(function () {
      if (plan.mode === 'credential') window.__gsi.callback({ credential: plan.credential, select_by: 'auto' });
      if (plan.mode === 'missing') window.__gsi.callback();
    }, 50);
  },
  cancel: function () {}
} } };
`

// The tag manager container: like Google Tag Manager it announces gtm.dom and gtm.load in the
// dataLayer once it runs.
const FAKE_GTM = `
(function () {
  var layer = (window.dataLayer = window.dataLayer || []);
  setTimeout(function () { layer.push({ event: 'gtm.dom' }); layer.push({ event: 'gtm.load' }); }, 20);
})();
`

// The chat widget (Freshchat's shape): a first conversation answers user:created with a
// restoreId, which the adapter keeps for the next restore call.
const FAKE_CHAT = `
window.__chat = [];
window.fcWidget = {
  listeners: {},
  on: function (name, listener) { (this.listeners[name] = this.listeners[name] || []).push(listener); },
  init: function (options) {
    window.__chat.push(options);
    var self = this;
    setTimeout(function () {
      (self.listeners['widget:loaded'] || []).forEach(function (f) { f({}); });
      if (!options.restoreId) {
        (self.listeners['user:created'] || []).forEach(function (f) {
          f({ status: 200, data: { restoreId: 'restore-' + options.externalId } });
        });
      }
    }, 20);
  },
  destroy: function () {}
};
`

interface ThirdParty {
  url: string
  envelopes: string[]
  sign(claims: Record<string, unknown>): Promise<string>
  close(): Promise<void>
}

type Jose = typeof import('jose')

/** jose as the server resolves it (a dependency of @tessera/server, not of this app). */
async function loadJose(): Promise<Jose> {
  const fromServer = createRequire(new URL('../../server/package.json', import.meta.url))
  return (await import(pathToFileURL(fromServer.resolve('jose')).href)) as Jose
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function startThirdParty(): Promise<ThirdParty> {
  const jose = await loadJose()
  const keys = await jose.generateKeyPair('RS256')
  const jwk = { ...(await jose.exportJWK(keys.publicKey)), kid: 'test-1', alg: 'RS256', use: 'sig' }
  const envelopes: string[] = []
  const scripts: Record<string, string> = {
    '/gsi/client': FAKE_GSI,
    '/gtm.js': FAKE_GTM,
    '/chat/widget.js': FAKE_CHAT,
  }
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    const script = scripts[path]
    if (request.method === 'GET' && script !== undefined) {
      response.writeHead(200, { 'content-type': 'text/javascript' })
      response.end(script)
    } else if (path === '/oauth2/v3/certs') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ keys: [jwk] }))
    } else if (request.method === 'POST' && path === '/errors/api/7/envelope/') {
      envelopes.push(await readBody(request))
      response.writeHead(200)
      response.end('{}')
    } else {
      response.writeHead(404)
      response.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    envelopes,
    sign: (claims) =>
      new jose.SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-1' })
        .setIssuer('https://accounts.google.com')
        .setAudience(CLIENT_ID)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(keys.privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

let third: ThirdParty
let withKeys: WebServer
let withoutKeys: WebServer
let browser: Browser

beforeAll(async () => {
  third = await startThirdParty()
  ;[withKeys, withoutKeys, browser] = await Promise.all([
    startWebServer({
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_JWKS_URL: `${third.url}/oauth2/v3/certs`,
      WEB_ANALYTICS_ID: ANALYTICS_ID,
      WEB_CHAT_TOKEN: CHAT_TOKEN,
      WEB_ERROR_REPORTING_DSN: `http://public-key@${third.url.slice('http://'.length)}/errors/7`,
      WEB_GOOGLE_SCRIPT_URL: `${third.url}/gsi/client`,
      WEB_ANALYTICS_SCRIPT_URL: `${third.url}/gtm.js`,
      WEB_CHAT_SCRIPT_URL: `${third.url}/chat/widget.js`,
    }),
    startWebServer(),
    launchBrowser(),
  ])
})

afterAll(async () => {
  await browser?.close()
  await withKeys?.stop()
  await withoutKeys?.stop()
  await third?.close()
})

/** Every Content-Security-Policy complaint of every page these tests open (checked last). */
const cspViolations: string[] = []

type GooglePlan =
  | { mode: 'none' }
  | { mode: 'missing' }
  | { mode: 'credential'; credential: string }

async function open(viewport: ViewportName, plan: GooglePlan, server = withKeys) {
  const opened = await openPage(browser, viewport, server.url)
  await opened.context.addInitScript((value) => {
    ;(window as unknown as { __fakeGsi: unknown }).__fakeGsi = value
  }, plan)
  const requests: Request[] = []
  opened.page.on('request', (request) => requests.push(request))
  const consoleErrors: string[] = []
  opened.page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text())
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text())
  })
  return { ...opened, requests, consoleErrors }
}

const isGsi = (request: Request) => request.url() === `${third.url}/gsi/client`
const isChatScript = (request: Request) => request.url() === `${third.url}/chat/widget.js`

function dataLayer(page: Page): Promise<Record<string, unknown>[]> {
  return page.evaluate(() => (window as unknown as { dataLayer?: [] }).dataLayer ?? [])
}

function gsiCalls(page: Page): Promise<{ initialize: { client_id: string }[]; prompts: number }> {
  return page.evaluate(
    () =>
      (window as unknown as { __gsi?: { initialize: []; prompts: number } }).__gsi ?? {
        initialize: [],
        prompts: 0,
      },
  )
}

function googlePerson(firstName: string) {
  return {
    sub: `google-web-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    email: uniqueEmail(),
    email_verified: true,
    given_name: firstName,
    family_name: 'Hopper',
  }
}

describe('Google one-tap (SPEC §4, §6, §8)', () => {
  it('is offered to a logged-out visitor once the session check has settled', async () => {
    const { page, context, requests, errors } = await open('desktop', { mode: 'none' })
    await page.goto('/pricing')
    await page.waitForFunction(
      () => (window as unknown as { __gsi?: { prompts: number } }).__gsi?.prompts === 1,
    )
    expect(await gsiCalls(page)).toMatchObject({
      initialize: [{ client_id: CLIENT_ID }],
      prompts: 1,
    })
    expect(requests.filter(isGsi)).toHaveLength(1)
    // The server found no session cookie while rendering: logged out, and no session call.
    expect(requests.filter((r) => r.url().includes('/users/v1.0/session'))).toEqual([])
    expect(await page.getByTestId('login-link').first().getAttribute('href')).toBeTruthy()
    expect(errors).toEqual([])
    await context.close()
  })

  it('is not offered in preview mode', async () => {
    const { page, context, requests } = await open('desktop', { mode: 'none' })
    await page.goto('/features?__preview=true')
    await settled(page)
    await page.getByTestId('login-link').first().waitFor({ state: 'attached' })
    expect(requests.filter(isGsi)).toEqual([])
    expect(await page.evaluate(() => 'google' in window)).toBe(false)
    await context.close()
  })

  it('throws the SPEC error when Google calls back with no object, and the visitor stays out', async () => {
    const { page, context, errors } = await open('desktop', { mode: 'missing' })
    await page.goto('/')
    await expect.poll(() => errors).toContain(INVALID_NOTIFICATION)
    await settled(page)
    expect(await page.getByTestId('profile-button').count()).toBe(0)
    await context.close()
  })

  it('logs a script that does not load and keeps the Login and Sign up buttons (SPEC §8)', async () => {
    const { page, context, consoleErrors, errors } = await open('desktop', { mode: 'none' })
    await page.route(`${third.url}/gsi/client`, (route) => route.abort('blockedbyclient'))
    await page.goto('/faqs')
    await expect
      .poll(() => consoleErrors.join('\n'))
      .toContain('One-tap: Google Identity Services did not load')
    expect(await page.getByTestId('signup-link').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('profile-button').count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })

  describe.each(['desktop', 'mobile'] as const)('at %s width', (viewport) => {
    it('signs in with one-tap: greeting without a reload, AUTHORISED_USER, then the chat widget', async () => {
      const person = googlePerson(viewport === 'desktop' ? 'Grace' : 'Ada')
      const credential = await third.sign(person)
      const { page, context, requests, errors } = await open(viewport, {
        mode: 'credential',
        credential,
      })
      let loads = 0
      page.on('load', () => {
        loads += 1
      })
      const signIn = page.waitForRequest(
        (request) =>
          request.method() === 'POST' &&
          request.url().endsWith('/service/panel/users/v1.0/auth/google'),
      )
      await page.goto('/?fp_ref=partner-7')
      const posted = await signIn
      const answer = await posted.response()
      expect(answer?.status()).toBe(201)
      const body = posted.postDataJSON() as Record<string, unknown>
      const anonymousId = await page.evaluate(() => localStorage.getItem('pixb_anonymous_id'))
      expect(body).toEqual({
        credential,
        state: { path: '/', anonymousId },
        affiliate: { fp_ref: 'partner-7' },
      })
      expect(posted.headers()['x-ebg-signature']).toMatch(/^v1:[0-9a-f]{64}$/)

      const name = page.getByTestId('profile-name').first()
      await expect.poll(() => name.textContent()).toBe(`Hi, ${person.given_name}`)
      expect(loads).toBe(1)

      // Identified as a signed-in user, and only then the chat widget.
      await expect
        .poll(async () => (await dataLayer(page)).filter((e) => e.event === 'AUTHORISED_USER'))
        .toHaveLength(1)
      const user = (await answer?.json()) as { user: { _id: string } }
      const identify = (await dataLayer(page)).find((entry) => entry.event === 'identify')
      expect(identify).toMatchObject({ userId: user.user._id, email: person.email, anonymousId })
      const chatAt = requests.findIndex(isChatScript)
      expect(chatAt).toBeGreaterThan(requests.indexOf(posted))
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __chat?: [] }).__chat ?? []))
        .toEqual([
          {
            token: CHAT_TOKEN,
            host: third.url,
            externalId: user.user._id,
            firstName: person.given_name,
            lastName: 'Hopper',
            email: person.email,
          },
        ])
      expect(errors).toEqual([])

      // The next page: a signed-in user gets no one-tap, and the restore call carries restoreId.
      await expect
        .poll(() =>
          page.evaluate((id) => localStorage.getItem(`tessera.chatRestoreId.${id}`), user.user._id),
        )
        .toBe(`restore-${user.user._id}`)
      const before = requests.length
      await page.goto('/pricing')
      await settled(page)
      await expect.poll(() => name.textContent()).toBe(`Hi, ${person.given_name}`)
      expect(requests.slice(before).filter(isGsi)).toEqual([])
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __chat?: [] }).__chat ?? []))
        .toMatchObject([{ externalId: user.user._id, restoreId: `restore-${user.user._id}` }])
      await context.close()
    })
  })
})

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
      `${third.url}/gtm.js?id=${ANALYTICS_ID}`,
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
    await page.waitForURL(`${withKeys.url}/pricing`)
    await expect
      .poll(async () => (await dataLayer(page)).filter((entry) => entry.event === 'page_view'))
      .toMatchObject([{ page_path: '/pricing', page_location: `${withKeys.url}/pricing` }])

    await page.locator('a[href="/"]').first().click()
    await page.waitForURL(`${withKeys.url}/`)
    await page.locator('a[href="/pricing"]').first().click()
    await page.waitForURL(`${withKeys.url}/pricing`)
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
      .poll(() => third.envelopes.find((body) => body.includes('reported from the browser test')))
      .toBeDefined()
    const body = third.envelopes.find((text) => text.includes('reported from the browser test'))
    const [header, item, event] = (body ?? '').split('\n').map((line) => JSON.parse(line))
    expect(header).toMatchObject({ dsn: expect.stringContaining('public-key@') })
    expect(item).toEqual({ type: 'event' })
    expect(event).toMatchObject({
      platform: 'javascript',
      request: { url: `${withKeys.url}/tools` },
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
    const { page, context, requests, errors } = await open('desktop', { mode: 'none' }, withoutKeys)
    await page.goto('/')
    await settled(page)
    await page.goto('/console/auth/signup')
    await settled(page)
    await page.fill('#firstName', 'Keyless')
    await page.fill('#lastName', 'Tester')
    await page.fill('#email', uniqueEmail())
    await page.fill('#password', 'a long enough password')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(/\/console$/)
    await page.goto('/pricing')
    await settled(page)
    await expect
      .poll(() => page.getByTestId('profile-name').first().textContent())
      .toBe('Hi, Keyless')
    const origin = new URL(withoutKeys.url).origin
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
