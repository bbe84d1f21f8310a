// What a new user tripped over (issue 24 items 5 and 7), in Chromium at 1440 and 390 px:
// Playground and Predictions in the header and footer, the header's sign-up landing in the
// console, unknown addresses answering the 404 page, /api/{plugin}, the RemoveBG page without
// internal notes, and in the console: thumbnails that survive "Require signed URLs", the
// playground inside the console's menu, the presets page without console errors, and a failed
// upload showing its file's own size.
import { formatBytes } from '@tessera/url'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  firstOrganisation,
  openPage,
  panelPost,
  pollWithin,
  sampleFile,
  settled,
  signUp,
  submitSignUp,
  watchUnexpectedErrors,
} from './harness.ts'
import { webSuite } from './suite.ts'

const poll = pollWithin(20_000)

const web = webSuite()

const get = (path: string) => fetch(`${web.server.url}${path}`, { redirect: 'manual' })

/** Whether every image in `selector` has loaded with pixels. */
async function imagesLoaded(page: Page, selector: string): Promise<boolean[]> {
  return page.$$eval(selector, (images) =>
    (images as HTMLImageElement[]).map((image) => image.complete && image.naturalWidth > 0),
  )
}

describe('unknown addresses and API pages', () => {
  it('answers unknown paths with the 404 page, not a redirect home', async () => {
    for (const path of ['/no/such/page', '/products/extra', '/usecase', '/console/no-such-page']) {
      const response = await get(path)
      expect(response.status, path).toBe(404)
      expect(await response.text(), path).toContain('This page does not exist')
    }
    for (const viewport of ['desktop', 'mobile'] as const) {
      const { page, context, errors } = await openPage(web.browser, viewport, web.server.url)
      const answer = await page.goto('/definitely-missing')
      expect(answer?.status()).toBe(404)
      expect(new URL(page.url()).pathname).toBe('/definitely-missing')
      await page.getByRole('link', { name: 'Go to the home page' }).waitFor()
      // /api/erase opens the EraseBG API page; the RemoveBG page carries no internal note.
      await page.goto('/api/erase')
      await settled(page)
      expect(new URL(page.url()).search).toBe('?plugin=erase')
      await page.goto('/api/plugin?plugin=remove')
      await settled(page)
      expect(await page.locator('main').innerText()).not.toMatch(/@pixelbin|SDKs/)
      expect(errors.filter((text) => !/status of 404/.test(text))).toEqual([])
      await context.close()
    }
  })

  it('sends /api/{plugin} to its API page, and an unknown one to the 404 page', async () => {
    const erase = await get('/api/erase')
    expect(erase.status).toBe(301)
    expect(erase.headers.get('location')).toBe('/api/plugin?plugin=erase')
    const unknown = await get('/api/no-such-plugin')
    expect(unknown.status).toBe(404)
    await unknown.arrayBuffer()
  })

  it('sells on the pricing page only what the product does', async () => {
    const { page, context, errors } = await openPage(web.browser, 'desktop', web.server.url)
    await page.goto('/pricing')
    await settled(page)
    const plans = page.getByTestId('plans')
    await plans.getByTestId('plan').first().waitFor()
    const text = await plans.innerText()
    // No storage or bandwidth quota is enforced, so none is sold; custom domains are.
    expect(text).not.toMatch(/bandwidth|storage/i)
    expect(text).toContain('Custom domain')
    expect(text).toContain('Credits at sign-up')
    expect(await page.getByTestId('addons').innerText()).not.toMatch(/valid for/i)
    expect(errors).toEqual([])
    await context.close()
  })

  it('shows the RemoveBG API page without internal notes', async () => {
    const response = await get('/api/plugin?plugin=remove')
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('RemoveBG')
    expect(html).not.toMatch(/@pixelbin\/core|still generated|SDKs\)/)
  })
})

for (const viewport of ['desktop', 'mobile'] as const) {
  describe(`navigation at ${viewport}`, () => {
    it('has Playground and Predictions in the header and footer, and sign-up lands in the console', async () => {
      const { page, context, errors } = await openPage(web.browser, viewport, web.server.url)
      await page.goto('/features')
      await settled(page)
      let signupHref: string | null
      if (viewport === 'desktop') {
        await page.getByTestId('nav-developers').hover()
        const menu = page.locator('#dropdown-developers')
        await menu.waitFor({ state: 'visible', timeout: 3000 })
        expect(await menu.locator('a').allTextContents()).toEqual(
          expect.arrayContaining(['Playground', 'Predictions']),
        )
        signupHref = await page.getByTestId('signup-link').getAttribute('href')
      } else {
        await page.getByTestId('hamburger').click()
        const sidebar = page.getByTestId('sidebar')
        await sidebar.getByRole('link', { name: 'Playground' }).waitFor()
        expect(await sidebar.getByRole('link', { name: 'Predictions' }).count()).toBe(1)
        signupHref = await sidebar.locator('a', { hasText: /^Sign up$/ }).getAttribute('href')
        await page.getByRole('button', { name: 'Close menu' }).click()
      }
      // (On a phone the footer's columns are accordions: the links are there, folded.)
      const footer = page.getByTestId('site-footer')
      expect(await footer.locator('a[href="/playground"]').allTextContents()).toEqual([
        'Playground',
      ])
      expect(await footer.locator('a[href="/predictions"]').allTextContents()).toEqual([
        'Predictions',
      ])
      // Signing up from the header opens the console, not the page it was clicked on.
      expect(signupHref).toBe('/console/auth/signup')
      await page.goto(signupHref ?? '')
      await settled(page)
      await submitSignUp(page, { firstName: 'Grace', lastName: 'Hopper' })
      await page.waitForURL(/\/console$/)
      expect(errors).toEqual([])
      await context.close()
    })
  })

  describe(`the console at ${viewport}`, () => {
    it('keeps thumbnails with signed URLs required, its menu in the playground, presets quiet, and a failed upload its size', async () => {
      const { page, context } = await openPage(web.browser, viewport, web.server.url)
      // The upload of a text file is refused (415) on purpose.
      const errors = watchUnexpectedErrors(page, [/status of 415/, /^HTTP 415 POST /])
      await signUp(page)
      const org = await firstOrganisation(page)
      const base = `/console/organization/${org._id}`
      await panelPost(page, web.server.url, `/service/panel/assets/v1.0/org/${org._id}/presets`, {
        presetName: 'card',
        transformation: 't.resize(w:$w,h:$w)',
        params: { w: { type: 'integer', default: 120 } },
      })

      // Upload two images and a text file dressed as a PNG: that one fails, showing its size.
      await page.goto('/console/editor/upload')
      await settled(page)
      const notes = Buffer.alloc(3000, 'not an image at all\n')
      await page.getByTestId('file-input').setInputFiles([
        { name: 'astronaut.png', mimeType: 'image/png', buffer: await sampleFile('astronaut.png') },
        { name: 'coffee.png', mimeType: 'image/png', buffer: await sampleFile('coffee.png') },
        { name: 'notes.png', mimeType: 'image/png', buffer: notes },
      ])
      await page.getByTestId('count-failed').filter({ hasText: '1 failed' }).waitFor()
      await page.getByTestId('count-success').filter({ hasText: '2 uploaded' }).waitFor()
      const failed = page.locator('[data-testid="upload-row"][data-status="failed"]')
      const status = (await failed.getByTestId('upload-status').textContent()) ?? ''
      // The file's own size, not the upload request's (the file plus its multipart framing).
      expect(status).toBe(`Failed · ${formatBytes(notes.length)}`)

      // Require signed URLs (a key first), then the library and Home still show thumbnails.
      await page.goto(`${base}/settings/security`)
      await settled(page)
      await page.getByTestId('create-signing-key').click()
      await page.getByTestId('new-key-secret').waitFor()
      await page.getByTestId('setting-requireSignedUrls').click()
      await poll(() => page.getByTestId('setting-requireSignedUrls').isChecked()).toBe(true)
      const unsigned = await fetch(
        `${web.server.url}/v2/${org.cloudName}/t.resize(w:320,h:320)/astronaut.png`,
      )
      expect(unsigned.status).toBe(401)
      await unsigned.arrayBuffer()

      await page.goto('/console/editor')
      await settled(page)
      await poll(() => imagesLoaded(page, '.item-thumb img')).toEqual([true, true])
      await page.goto('/console')
      await settled(page)
      await poll(async () => {
        const loaded = await imagesLoaded(page, '[data-testid="console-home"] img')
        return loaded.length >= 2 && loaded.every(Boolean)
      }).toBe(true)

      // The presets page makes no console error, not even a refused call.
      const raw: string[] = []
      const listen = (message: { type(): string; text(): string }) => {
        if (message.type() === 'error' || message.type() === 'warning') raw.push(message.text())
      }
      page.on('console', listen)
      await page.goto(`${base}/presets`)
      await settled(page)
      await page.getByRole('heading', { name: 'Presets' }).first().waitFor()
      await page.locator('[data-testid="preset"][data-name="card"]').waitFor()
      await page.goto(`${base}/presets?transformation=${encodeURIComponent('t.flip()')}`)
      await settled(page)
      await page.getByTestId('preset-chain').waitFor()
      page.off('console', listen)
      expect(raw).toEqual([])

      // The playground stays inside the console's menu, and signs its images: the original and
      // a resize of it show although unsigned URLs are refused.
      const resized = `${web.server.url}/v2/${org.cloudName}/t.resize(w:120)/astronaut.png`
      await page.goto(`${base}/playground?url=${encodeURIComponent(resized)}`)
      await page.getByTestId('playground').waitFor()
      await poll(() => page.getByTestId('original-details').innerText()).toContain(' px')
      await poll(() => page.getByTestId('result-details').innerText()).toContain('120 ×')
      const nav = page.getByRole('navigation', { name: 'Console' })
      expect(await nav.getByRole('link', { name: 'Playground' }).getAttribute('class')).toContain(
        'is-active',
      )
      expect(await nav.getByRole('link', { name: 'Media library' }).count()).toBe(1)
      expect(errors).toEqual([])
      await context.close()
    }, 180_000)
  })
}

for (const viewport of ['desktop', 'mobile'] as const) {
  describe(`receipts and cancellation at ${viewport}`, () => {
    it('gives every paid checkout a receipt to open and download, and cancels at period end', async () => {
      const { page, context } = await openPage(web.browser, viewport, web.server.url)
      const errors = watchUnexpectedErrors(page)
      await signUp(page)
      const org = await firstOrganisation(page)
      const billing = `/console/organization/${org._id}/billing/plans`
      const pay = async (button: ReturnType<Page['locator']>) => {
        await button.click()
        await page.waitForURL(/\/test-checkout\/tpc_/)
        await page.getByRole('button', { name: /^Pay / }).click()
        await page.waitForURL(/[?&]paymentId=.*&status=paid/)
        await page.locator('[data-testid="payment-result"][data-status="paid"]').waitFor()
        await settled(page)
      }
      await page.goto(`${billing}/topup`)
      await settled(page)
      await page.getByTestId('receipts').or(page.getByText('No payments yet')).first().waitFor()
      await pay(page.getByTestId('addon-card').first().getByRole('button'))
      await poll(() => page.getByTestId('receipt-row').count()).toBe(1)
      const row = page.getByTestId('receipt-row').first()
      const number = ((await row.getByTestId('receipt-open').textContent()) ?? '').trim()
      expect(number).toMatch(/^R-\d{6}$/)

      // Open: the receipt page in a new tab, with its number, organisation, item and amount.
      const opened = context.waitForEvent('page')
      await row.getByTestId('receipt-open').click()
      const receipt = await opened
      await receipt.waitForLoadState()
      const text = await receipt.locator('body').innerText()
      expect(text).toContain(`Receipt ${number}`)
      expect(text).toContain(org.cloudName)
      expect(text).toContain('Credit top-up: 100 credits')
      expect(text).toContain('5.00 USD')
      await receipt.close()
      // Download: the same receipt as a file.
      const downloading = page.waitForEvent('download')
      await row.getByTestId('receipt-download').click()
      const file = await downloading
      expect(file.suggestedFilename()).toBe(`tessera-receipt-${number}.html`)

      // A subscription, then canceled at the end of its period, and kept after all.
      await page.goto(`${billing}/subscription`)
      await settled(page)
      await pay(page.locator('[data-testid="plan-card"][data-plan="Starter"]').getByRole('button'))
      await poll(() => page.getByTestId('receipt-row').count()).toBe(2)
      await page.getByTestId('cancel-subscription').click()
      await poll(() => page.getByTestId('subscription-term').textContent()).toMatch(
        /^Canceled: ends on /,
      )
      await page.getByTestId('resume-subscription').click()
      await poll(() => page.getByTestId('subscription-term').textContent()).toMatch(/^Until /)
      expect(errors).toEqual([])
      await context.close()
    }, 180_000)
  })
}
