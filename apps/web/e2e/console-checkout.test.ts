// Billing's way back from the checkout, on PGlite: a visitor who picks a plan on the pricing page
// keeps the choice through sign-up, steps back from the checkout and forward again, pays and is
// back on billing with the plan changed (both widths); nine uploads page on the home page; on an
// address the server does not know as the console, buying still works and billing follows the
// payment when the buyer comes back.
import { describe, expect, it } from 'vitest'
import { JOURNEY_TIMEOUT, poll } from './console-steps.ts'
import {
  firstOrganisation,
  openPage,
  openSignUp,
  sampleFile,
  settled,
  submitSignUp,
  type ViewportName,
} from './harness.ts'
import { webSuite } from './suite.ts'

describe('buying and coming back from the checkout', () => {
  const web = webSuite()

  it.each<ViewportName>(['desktop', 'mobile'])(
    'signs up with the plan chosen, pays and is back on billing at %s width',
    async (viewport) => {
      const { page, context, errors } = await openPage(web.browser, viewport, web.server.url)
      await page.goto('/pricing')
      await settled(page)
      await page.getByRole('link', { name: 'Choose Starter' }).first().click()
      await page.waitForURL(/\/console\/auth\/signup\?/)
      await settled(page)
      await submitSignUp(page, { firstName: 'Vera', lastName: 'Visitor' })
      // The plan is kept through the chooser, which goes straight on for a single organisation.
      await page.waitForURL(/\/billing\/plans\/subscription\?planId=/)
      const starter = page.locator('[data-testid="plan-card"][data-plan="Starter"].is-chosen')
      await starter.waitFor()
      await settled(page)
      await starter.getByRole('button', { name: 'Choose Starter' }).click()
      await page.waitForURL(/\/test-checkout\/tpc_/)
      // Back from the checkout without paying: billing follows the payment, still pending.
      await page.goBack()
      await page.waitForURL(/\/billing\/plans\/subscription\?.*paymentId=/)
      await page.locator('[data-testid="payment-result"][data-status="pending"]').waitFor()
      await page.goForward()
      await page.waitForURL(/\/test-checkout\/tpc_/)
      await page.getByRole('button', { name: /^Pay / }).click()
      await page.waitForURL(/\/billing\/plans\/subscription\?.*paymentId=.*&status=paid/)
      const result = page.locator('[data-testid="payment-result"][data-status="paid"]')
      await result.waitFor()
      // The outcome has the focus, so a keyboard or screen-reader user starts from it.
      await poll(() =>
        page.evaluate(() => document.activeElement?.getAttribute('data-testid')),
      ).toBe('payment-result')
      await page.getByTestId('billing-plan').filter({ hasText: 'Starter' }).waitFor()
      expect(errors).toEqual([])
      await context.close()
    },
    JOURNEY_TIMEOUT,
  )

  it(
    'pages recent uploads, and buys when opened at the other loopback name (sent to PUBLIC_URL first)',
    async () => {
      // PUBLIC_URL names 127.0.0.1; this browser opens localhost, and every page it opens there is
      // sent to PUBLIC_URL first (issue 24 item 1), so the checkout comes back with its address.
      const elsewhere = web.server.url.replace('127.0.0.1', 'localhost')
      const { page, context, errors } = await openPage(web.browser, 'desktop', elsewhere)
      await openSignUp(page, { firstName: 'Lou', lastName: 'Tester' })
      await page.waitForURL(/\/console$/)
      const orgId = (await firstOrganisation(page))._id

      // Nine uploads: home lists the newest eight, and the ninth on "Show more".
      await page.goto('/console/editor/upload')
      await settled(page)
      const horse = await sampleFile('horse.png')
      await page.getByTestId('file-input').setInputFiles(
        Array.from({ length: 9 }, (_, index) => ({
          name: `horse-${index + 1}.png`,
          mimeType: 'image/png',
          buffer: horse,
        })),
      )
      await page.getByTestId('count-success').filter({ hasText: '9 uploaded' }).waitFor()
      await page.goto('/console')
      await settled(page)
      expect(await page.getByTestId('files-count').textContent()).toBe('9 files')
      expect(await page.getByTestId('recent-file').count()).toBe(8)
      await page.getByTestId('recent-more').click()
      await poll(() => page.getByTestId('recent-file').count()).toBe(9)
      expect(await page.getByTestId('recent-more').count()).toBe(0)
      const names = await page
        .getByTestId('recent-file')
        .evaluateAll((rows) => rows.map((row) => row.querySelector('a')?.textContent ?? ''))
      expect(new Set(names).size).toBe(9)

      await page.goto(`/console/organization/${orgId}/billing/plans/topup`)
      await settled(page)
      expect(new URL(page.url()).hostname).toBe('127.0.0.1')
      await page.getByTestId('addon-card').first().getByRole('button').click()
      await page.waitForURL(/\/test-checkout\/tpc_[A-Za-z0-9_-]{43}\?return=/)
      await page.getByRole('button', { name: /^Pay / }).click()
      await page.waitForURL(/\/billing\/plans\/topup\?paymentId=/)
      await page.locator('[data-testid="payment-result"][data-status="paid"]').waitFor()
      await page.getByTestId('billing-balance').filter({ hasText: '150' }).waitFor()
      expect(errors).toEqual([])
      await context.close()
    },
    JOURNEY_TIMEOUT,
  )
})
