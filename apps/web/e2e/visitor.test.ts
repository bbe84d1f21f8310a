// What a visitor (no account) does with their own image, in Chromium against real servers at
// 1440 and 390 px (SPEC §2.8, §8; issue 12): upload with progress, run an AI tool on the upload
// end to end, the daily limits of uploads and AI renders with their message, the captcha on and
// off (Turnstile stood in for on loopback: its widget script and its siteverify API, as
// integrations-one-tap.test.ts stands in for Google and the tag manager), and a member without credits
// told about the 402 with a link to top up.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  chooseSample,
  dataLayerEvents,
  openPage,
  overflows,
  pollWithin,
  settled,
  startWebServer,
  submitSignUp,
  type ViewportName,
  type WebServer,
  watchUnexpectedErrors,
  workerBrowser,
} from './harness.ts'

const poll = pollWithin(20_000)

const TOOL = '/ai-tools/smart-crop'
const SITE_KEY = 'test-site-key'
const SECRET = 'test-secret'

// Turnstile's browser API as the adapter uses it. Like a managed widget that needs no click, it
// hands a token soon after render and after each reset; `window.__captchaToken` (set before the
// page loads) says which token: the verify stand-in passes tokens starting with `pass`.
const FAKE_TURNSTILE = `
window.__turnstile = { renders: 0, resets: 0, tokens: 0 };
window.turnstile = {
  render: function (element, options) {
    window.__turnstile.renders += 1;
    window.__turnstile.sitekey = options.sitekey;
    var box = document.createElement('p');
    box.textContent = 'Captcha stand-in';
    element.appendChild(box);
    window.__turnstile.issue = function () {
      setTimeout(function () {
        window.__turnstile.tokens += 1;
        options.callback((window.__captchaToken || 'pass') + '-' + window.__turnstile.tokens);
      }, 30);
    };
    window.__turnstile.issue();
    return 'widget-1';
  },
  reset: function () { window.__turnstile.resets += 1; window.__turnstile.issue(); },
  remove: function () {}
};
`

interface Stand {
  url: string
  verified: { response: string | null; secret: string | null }[]
  scriptLoads: number
  close(): Promise<unknown>
}

async function startCaptchaStandIn(): Promise<Stand> {
  const stand = { verified: [] as Stand['verified'], scriptLoads: 0 }
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    if (request.method === 'GET' && path === '/turnstile/v0/api.js') {
      stand.scriptLoads += 1
      response.writeHead(200, { 'content-type': 'text/javascript' })
      response.end(FAKE_TURNSTILE)
      return
    }
    if (request.method === 'POST' && path === '/turnstile/v0/siteverify') {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString())
        const token = form.get('response')
        stand.verified.push({ response: token, secret: form.get('secret') })
        const success = form.get('secret') === SECRET && token?.startsWith('pass') === true
        response.writeHead(200, { 'content-type': 'application/json' })
        // Turnstile names the host the widget was solved on: the server checks it is its own.
        response.end(JSON.stringify(success ? { success, hostname: '127.0.0.1' } : { success }))
      })
      return
    }
    response.writeHead(404)
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return Object.assign(stand, {
    url,
    close: () => new Promise((resolve) => server.close(resolve)),
  })
}

let browser: Browser
/** No captcha; members start without credits (the 402); generous visitor allowances. */
let open: WebServer
/** One upload and one AI render per address per day. */
let strict: WebServer
/** The captcha on, against the stand-in. */
let guarded: WebServer
let stand: Stand

beforeAll(async () => {
  stand = await startCaptchaStandIn()
  ;[open, strict, guarded] = await Promise.all([
    startWebServer({ FREE_PLAN_CREDITS: '0', ANON_UPLOADS_PER_DAY: '50' }),
    startWebServer({ ANON_UPLOADS_PER_DAY: '1', ANON_AI_RUNS_PER_DAY: '1' }),
    startWebServer({
      WEB_CAPTCHA_SITE_KEY: SITE_KEY,
      CAPTCHA_SECRET: SECRET,
      CAPTCHA_VERIFY_URL: `${stand.url}/turnstile/v0/siteverify`,
      WEB_CAPTCHA_SCRIPT_URL: `${stand.url}/turnstile/v0/api.js`,
    }),
  ])
  browser = await workerBrowser()
}, 180_000)

afterAll(async () => {
  await Promise.all([open?.stop(), strict?.stop(), guarded?.stop()])
  await stand?.close()
})

async function visit(
  server: WebServer,
  viewport: ViewportName,
  path: string,
  options: { allowed?: RegExp[]; captchaToken?: string } = {},
) {
  const opened = await openPage(browser, viewport, server.url)
  const errors = watchUnexpectedErrors(opened.page, options.allowed)
  if (options.captchaToken !== undefined) {
    const token = options.captchaToken
    await opened.page.addInitScript((value) => {
      ;(window as unknown as { __captchaToken: string }).__captchaToken = value
    }, token)
  }
  // Every value an upload progress bar shows, to see the progress move.
  await opened.page.addInitScript(() => {
    const seen: number[] = []
    ;(window as unknown as { __progress: number[] }).__progress = seen
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('progress')) seen.push(Number(bar.value))
    }).observe(document, { subtree: true, childList: true, attributes: true })
  })
  await opened.page.goto(path)
  await settled(opened.page)
  return { ...opened, errors }
}

/** Slows the page's uploads so the progress bar has time to move. */
async function throttleUploads(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 400 * 1024,
  })
}

for (const viewport of ['desktop', 'mobile'] as const) {
  describe(`a visitor at ${viewport}`, () => {
    it('uploads an image with progress and runs an AI tool on it end to end', async () => {
      const { page, context, errors } = await visit(open, viewport, TOOL)
      await throttleUploads(page)
      await chooseSample(page, 'coffee.png')
      await page.getByTestId('compare').waitFor({ timeout: 90_000 })
      const progress = await page.evaluate(
        () => (window as unknown as { __progress: number[] }).__progress,
      )
      expect(progress.some((value) => value > 0 && value < 100)).toBe(true)
      await poll(() => page.getByTestId('after-size').innerText()).toMatch(
        /^600 × 600 px · png · [\d.]+ KB$/,
      )
      // The upload is the demo's for a day, in a folder of its own; the run is signed.
      const runUrl = await page.getByTestId('run-url').innerText()
      expect(runUrl).toMatch(
        new RegExp(
          `^${open.url.replace(/[.]/g, '\\.')}/v2/demo/ic\\.crop\\(w:600,h:600,g:object\\)/visitor-uploads/[0-9a-f-]{36}/coffee\\.png\\?pbs=[0-9a-f]{64}&pbe=\\d+&pbt=[0-9a-f]+$`,
        ),
      )
      const seen = await dataLayerEvents(page)
      for (const name of [
        'file upload',
        'upload success',
        'transformation triggered',
        'polling succeeded',
        'success',
      ]) {
        expect(seen).toContain(name)
      }
      expect(await page.getByTestId('captcha').count()).toBe(0)
      expect(await overflows(page)).toBe(false)
      expect(errors).toEqual([])
      await context.close()
    })

    it('uploads in the playground: the upload becomes the image to transform', async () => {
      const { page, context, errors } = await visit(open, viewport, '/playground')
      await chooseSample(page, 'horse.png')
      await poll(() =>
        page.getByRole('status').filter({ hasText: 'Uploaded' }).innerText(),
      ).toMatch(/Uploaded; kept until .+\. \d+ uploads left today\./)
      await poll(() => page.getByTestId('url-snippet').innerText()).toMatch(
        /\/v2\/demo\/original\/visitor-uploads\/[0-9a-f-]{36}\/horse\.png$/,
      )
      const seen = await dataLayerEvents(page)
      expect(seen).toContain('file upload')
      expect(seen).toContain('upload success')
      expect(errors).toEqual([])
      await context.close()
    })
  })
}

describe('the daily limits', () => {
  // One address (this machine) for both widths: the desktop run uses the allowances, the phone
  // finds them used.
  it('at desktop: the first upload and render pass, the second upload is refused with the message', async () => {
    const { page, context, errors } = await visit(strict, 'desktop', TOOL, {
      allowed: [/status of 429/],
    })
    await chooseSample(page, 'coffee.png')
    await page.getByTestId('compare').waitFor({ timeout: 90_000 })
    await chooseSample(page, 'horse.png')
    const message = page.getByTestId('upload-error')
    await poll(() => message.innerText()).toMatch(
      /^This address has used its 1 uploads for today; try again in \d+ h\. Sign up to keep going with your own files\.$/,
    )
    await expect(
      message.getByRole('link', { name: 'Sign up' }).getAttribute('href'),
    ).resolves.toContain('signup')
    const seen = await dataLayerEvents(page)
    expect(seen).toContain('upload failed')
    expect(seen).toContain('daily limit exceeded')
    expect(errors).toEqual([])
    await context.close()
  })

  it('at 390 px: a new AI render is refused with the message; the upload too', async () => {
    const { page, context, errors } = await visit(strict, 'mobile', TOOL, {
      allowed: [/status of 429/, /HTTP 429/],
    })
    // A sample nobody has run yet: a new render, past the allowance.
    await page.getByRole('button', { name: 'Sample rocket.jpg' }).click()
    const limit = page.getByTestId('daily-limit')
    await poll(() => limit.innerText()).toMatch(
      /^This address has used its 1 AI credits for today; try again in \d+ h\. Sign up to keep going with your own credits\.$/,
    )
    await expect(limit.getByRole('link', { name: 'Sign up' }).count()).resolves.toBe(1)
    // Said once, where the result would have been.
    const result = page.getByTestId('tool-result')
    await expect(result.getByTestId('daily-limit').count()).resolves.toBe(1)
    await expect(page.getByText(/used its 1 AI credits/).count()).resolves.toBe(1)
    await chooseSample(page, 'horse.png')
    await poll(() => page.getByTestId('upload-error').innerText()).toContain(
      'used its 1 uploads for today',
    )
    expect(await dataLayerEvents(page)).toContain('daily limit exceeded')
    expect(errors).toEqual([])
    await context.close()
  })

  for (const viewport of ['desktop', 'mobile'] as const) {
    it(`in the playground at ${viewport}: a new AI render past the limit shows the message`, async () => {
      const chain = `${strict.url}/v2/demo/ic.crop(w:${viewport === 'desktop' ? 101 : 102},h:100)/samples/horse.png`
      const { page, context, errors } = await visit(
        strict,
        viewport,
        `/playground?url=${encodeURIComponent(chain)}`,
        { allowed: [/status of 429/, /HTTP 429/] },
      )
      // AI steps run on the Run button, which says what they cost first.
      await page.getByTestId('ai-run').getByRole('button', { name: /^Run/ }).click()
      const limit = page.getByTestId('image-error').getByTestId('daily-limit')
      await poll(() => limit.innerText()).toMatch(
        /^This address has used its 1 AI credits for today; try again in \d+ h\. Sign up to keep going with your own credits\.$/,
      )
      await expect(limit.getByRole('link', { name: 'Sign up' }).count()).resolves.toBe(1)
      const seen = await dataLayerEvents(page)
      expect(seen).toContain('daily limit exceeded')
      expect(seen).toContain('failed')
      expect(errors).toEqual([])
      await context.close()
    })
  }
})

for (const viewport of ['desktop', 'mobile'] as const) {
  describe(`the captcha at ${viewport}`, () => {
    it('shows the widget; its token lets the upload and the AI run through', async () => {
      const before = stand.verified.length
      const { page, context, errors } = await visit(guarded, viewport, TOOL)
      await page.getByTestId('captcha').getByText('Captcha stand-in').waitFor()
      expect(
        await page.evaluate(
          () => (window as unknown as { __turnstile: { sitekey: string } }).__turnstile.sitekey,
        ),
      ).toBe(SITE_KEY)
      await chooseSample(page, 'coffee.png')
      await page.getByTestId('compare').waitFor({ timeout: 90_000 })
      // Two checks with two different one-use tokens: the upload's and the run's signing.
      const checks = stand.verified.slice(before)
      expect(checks.length).toBeGreaterThanOrEqual(2)
      expect(checks.every((check) => check.secret === SECRET)).toBe(true)
      expect(new Set(checks.map((check) => check.response)).size).toBe(checks.length)
      expect(errors).toEqual([])
      await context.close()
    })

    it('a refused token stops the upload with a message and a captcha failed event', async () => {
      const { page, context, errors } = await visit(guarded, viewport, TOOL, {
        captchaToken: 'forged',
        allowed: [/status of 403/],
      })
      await page.getByTestId('captcha').getByText('Captcha stand-in').waitFor()
      await chooseSample(page, 'coffee.png')
      await poll(() => page.getByTestId('upload-error').innerText()).toBe(
        'The captcha was not passed; try it again',
      )
      const seen = await dataLayerEvents(page)
      expect(seen).toContain('captcha failed')
      expect(seen).toContain('upload failed')
      expect(errors).toEqual([])
      await context.close()
    })
  })
}

describe('no captcha configured', () => {
  it('loads no widget script and shows no widget', async () => {
    const loads = stand.scriptLoads
    const { page, context } = await visit(open, 'desktop', TOOL)
    expect(await page.getByTestId('captcha').count()).toBe(0)
    expect(await page.evaluate(() => 'turnstile' in window)).toBe(false)
    expect(stand.scriptLoads).toBe(loads)
    await context.close()
  })
})

for (const viewport of ['desktop', 'mobile'] as const) {
  describe(`a member without credits at ${viewport}`, () => {
    it('is told the AI run needs credits (402), with a link to top up', async () => {
      const { page, context, errors } = await visit(open, viewport, '/console/auth/signup', {
        allowed: [/status of 402/, /HTTP 402/],
      })
      await submitSignUp(page)
      await page.waitForURL(/\/console$/)
      await page.goto(TOOL)
      await poll(() => page.getByTestId('tool-credits').innerText()).toContain('0 credits left')
      await chooseSample(page, 'horse.png')
      const problem = page.getByTestId('run-error')
      await poll(() => problem.innerText(), { timeout: 60_000 }).toContain(
        'Your organisation has no credits left for this AI operation',
      )
      const topUp = problem.getByRole('link', { name: 'Buy a top-up' })
      await expect(topUp.getAttribute('href')).resolves.toMatch(
        /\/console\/organization\/[0-9a-f-]+\/.*billing.*topup|topup/,
      )
      expect(await dataLayerEvents(page)).toContain('failed')
      expect(errors).toEqual([])
      await context.close()
    })
  })
}
