// Screenshots of every console page at 1440 px and 390 px into docs/screenshots/console-*.jpg
// (`npm run screenshots:console -w @tessera/web`; builds the app first). A new user fills a
// library, a preset, a token and an invitation first, so the pages show real content.
import { mkdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { launchBrowser, openPage, startWebServer, uniqueEmail, VIEWPORTS } from './harness.ts'

const OUT = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
const SAMPLES = fileURLToPath(new URL('../../server/demo/samples/', import.meta.url))

const server = await startWebServer()
const browser = await launchBrowser()
await mkdir(OUT, { recursive: true })

async function quiet(page: Page) {
  await page.waitForLoadState('networkidle')
  await page.evaluate(async () => {
    await Promise.all(
      [...document.images].map((img) => (img.complete ? null : img.decode().catch(() => null))),
    )
  })
}

try {
  for (const viewport of ['desktop', 'mobile'] as const) {
    const width = VIEWPORTS[viewport].width
    const { page, context } = await openPage(browser, viewport, server.url)
    const shoot = async (name: string, path?: string) => {
      if (path !== undefined) await page.goto(path)
      await quiet(page)
      await page.screenshot({
        path: `${OUT}console-${name}-${width}.jpg`,
        fullPage: true,
        type: 'jpeg',
        quality: 80,
      })
    }
    await page.goto('/console/auth/signup')
    await quiet(page)
    await page.fill('#firstName', 'Ada')
    await page.fill('#lastName', 'Lovelace')
    await page.fill('#email', uniqueEmail())
    await page.fill('#password', 'a long enough password')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(/\/console$/)
    await shoot('home-empty')
    const orgId = await page.evaluate(async () => {
      const answer = await fetch('/service/panel/organization/v1.0/all')
      return ((await answer.json()) as { _id: string }[])[0]?._id ?? ''
    })
    const org = `/console/organization/${orgId}`

    await page.goto('/console/editor/upload')
    await quiet(page)
    const files = await Promise.all(
      ['astronaut.png', 'coffee.png', 'horse.png', 'camera.png', 'rocket.jpg', 'chelsea.png'].map(
        async (name) => ({
          name,
          mimeType: 'image/png',
          buffer: await readFile(`${SAMPLES}${name}`),
        }),
      ),
    )
    await page
      .getByTestId('file-input')
      .setInputFiles([
        ...files,
        { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image') },
      ])
    await page.getByTestId('count-failed').filter({ hasText: '1 failed' }).waitFor()
    await page.getByTestId('count-success').filter({ hasText: '6 uploaded' }).waitFor()
    await shoot('upload')
    await shoot('upload-url', '/console/editor/url')

    await page.goto('/console/editor')
    await quiet(page)
    await page.getByRole('button', { name: 'New folder' }).click()
    await page.getByTestId('dialog-input').fill('campaigns')
    await page.getByTestId('dialog-confirm').click()
    await page.getByTestId('library-notice').waitFor()
    await shoot('editor')
    await shoot('editor-list', '/console/editor?view=list')
    await page.getByRole('button', { name: 'Show coffee.png' }).click()
    await page.getByTestId('file-panel').waitFor()
    await shoot('editor-file')
    await page.goto('/console/editor')
    await quiet(page)
    await page.getByRole('checkbox', { name: 'Select campaigns' }).check()
    await page.getByRole('checkbox', { name: 'Select horse.png' }).check()
    await page.getByRole('button', { name: 'Delete…' }).click()
    await page.getByTestId('delete-count').filter({ hasText: 'will be deleted' }).waitFor()
    await shoot('editor-delete')

    await page.goto(`${org}/presets`)
    await quiet(page)
    await page.getByRole('button', { name: 'New preset' }).click()
    await page.getByTestId('preset-name').fill('card')
    await page.getByTestId('preset-chain').fill('t.resize(w:$w,h:$h)~t.toFormat(f:webp)')
    await page.getByLabel('Default of w').fill('400')
    await page.getByLabel('Default of h').fill('300')
    await shoot('preset-dialog')
    await page.getByTestId('preset-save').click()
    await page.locator('[data-testid="preset"][data-name="card"]').waitFor()
    await shoot('presets')

    await shoot('billing-subscription', `${org}/billing/plans/subscription`)
    await shoot('billing-topup', `${org}/billing/plans/topup`)
    // A top-up paid in the test checkout, and billing as the checkout sends the buyer back.
    await page.getByTestId('addon-card').first().getByRole('button').click()
    await page.waitForURL(/\/test-checkout\//)
    await shoot('billing-checkout')
    await page.getByRole('button', { name: /^Pay / }).click()
    await page.locator('[data-testid="payment-result"][data-status="paid"]').waitFor()
    await shoot('billing-return')
    await shoot('settings-organization', `${org}/settings/organization`)
    await shoot('settings-security', `${org}/settings/security`)
    await page.goto(`${org}/settings/members`)
    await quiet(page)
    await page.getByTestId('invite-email').fill('grace@example.com')
    await page.getByTestId('invite-send').click()
    await page.getByTestId('invitation-url').waitFor()
    const acceptUrl = (await page.getByTestId('invitation-url').textContent()) ?? ''
    await shoot('settings-members')
    await page.goto(`${org}/settings/apps`)
    await quiet(page)
    await page.getByTestId('token-name').fill('build server')
    await page.getByTestId('create-token').click()
    await page.getByTestId('new-token').waitFor()
    await shoot('settings-apps')
    await shoot('settings-account', `${org}/settings/account`)
    await shoot('settings-webhooks', `${org}/settings/webhooks`)
    await shoot('settings-domains', `${org}/settings/domains`)
    await shoot('activity', `${org}/activity`)
    await shoot('home', '/console')
    await shoot('choose-org', '/console/choose-org')
    await shoot('invitation-accept', acceptUrl)
    await context.close()
    // Signed out: account recovery's pages.
    const visitor = await openPage(browser, viewport, server.url)
    for (const [name, path] of [
      ['forgot-password', '/console/auth/forgot-password'],
      ['reset-password', '/console/auth/reset-password?token=example'],
    ] as const) {
      await visitor.page.goto(path)
      await quiet(visitor.page)
      await visitor.page.screenshot({
        path: `${OUT}console-${name}-${width}.jpg`,
        fullPage: true,
        type: 'jpeg',
        quality: 80,
      })
    }
    await visitor.context.close()
  }
} finally {
  await browser.close()
  await server.stop()
}
console.log(`console screenshots written to ${OUT}`)
