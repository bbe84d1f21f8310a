// What the integration suites (integrations-one-tap, integrations-analytics) share. Only the
// third parties are stood in for: a loopback server serves small scripts shaped like Google
// Identity Services, the tag manager and the chat widget, Google's JWKS, and an error-reporting
// collector. The adapters, the server's ID-token check and the session are the real ones.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { Page, Request } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { openPage, uniqueEmail, type ViewportName, type WebServer } from './harness.ts'
import type { WebSuite } from './suite.ts'

export const CLIENT_ID = 'tessera-web-test.apps.googleusercontent.com'
export const ANALYTICS_ID = 'GTM-TEST42'
export const CHAT_TOKEN = 'chat-token-1'
export const INVALID_NOTIFICATION = 'Invalid notification object from Google One Tap.'

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

export interface ThirdParty {
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

/** The vendors' stand-in for the suite: started before its tests (before its servers), closed after. */
export function thirdPartySuite(): { readonly third: ThirdParty } {
  let third: ThirdParty | undefined
  beforeAll(async () => {
    third = await startThirdParty()
  })
  afterAll(async () => {
    await third?.close()
  })
  return {
    get third() {
      if (third === undefined) throw new Error('the third parties are read before they started')
      return third
    },
  }
}

/** The settings of a server with every integration's key, its scripts served by the stand-in. */
export function withKeysEnv(third: ThirdParty): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_JWKS_URL: `${third.url}/oauth2/v3/certs`,
    WEB_ANALYTICS_ID: ANALYTICS_ID,
    WEB_CHAT_TOKEN: CHAT_TOKEN,
    WEB_ERROR_REPORTING_DSN: `http://public-key@${third.url.slice('http://'.length)}/errors/7`,
    WEB_GOOGLE_SCRIPT_URL: `${third.url}/gsi/client`,
    WEB_ANALYTICS_SCRIPT_URL: `${third.url}/gtm.js`,
    WEB_CHAT_SCRIPT_URL: `${third.url}/chat/widget.js`,
  }
}

export type GooglePlan =
  | { mode: 'none' }
  | { mode: 'missing' }
  | { mode: 'credential'; credential: string }

/**
 * Opens pages for a suite whose server has the keys: what "Google" does after the prompt is set
 * before the page loads; requests, console errors and every Content-Security-Policy complaint
 * (`cspViolations`, checked at the end of each file) are collected.
 */
export function integrationPages(web: WebSuite, vendors: { readonly third: ThirdParty }) {
  const cspViolations: string[] = []
  async function open(viewport: ViewportName, plan: GooglePlan, server: WebServer = web.server) {
    const opened = await openPage(web.browser, viewport, server.url)
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
  return {
    open,
    cspViolations,
    isGsi: (request: Request) => request.url() === `${vendors.third.url}/gsi/client`,
    isChatScript: (request: Request) => request.url() === `${vendors.third.url}/chat/widget.js`,
  }
}

export function dataLayer(page: Page): Promise<Record<string, unknown>[]> {
  return page.evaluate(() => (window as unknown as { dataLayer?: [] }).dataLayer ?? [])
}

export function gsiCalls(
  page: Page,
): Promise<{ initialize: { client_id: string }[]; prompts: number }> {
  return page.evaluate(
    () =>
      (window as unknown as { __gsi?: { initialize: []; prompts: number } }).__gsi ?? {
        initialize: [],
        prompts: 0,
      },
  )
}

export function googlePerson(firstName: string) {
  return {
    sub: `google-web-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    email: uniqueEmail(),
    email_verified: true,
    given_name: firstName,
    family_name: 'Hopper',
  }
}
