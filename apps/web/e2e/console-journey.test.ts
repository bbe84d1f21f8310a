// The console as one journey, in Chromium against a real server, at 1440 px on PGlite and at
// 390 px on PostgreSQL: sign up → upload (one failing on purpose) → browse, search, rename, move,
// delete → a preset and its URL, one saved from the playground → buy a top-up and a subscription with the test provider (the
// checkout comes back to billing with the outcome) → home's usage and recent uploads →
// an API token that uploads → a second user invited and let in → signed URLs in delivery.
// Shared steps and readers: console-steps.ts; buying from the pricing page: console-checkout.
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  fitsNarrowScreen,
  imageWidth,
  inviteAndJoin,
  JOURNEY_TIMEOUT,
  libraryNames,
  openLibrary,
  poll,
  uploadFiveOneFailing,
} from './console-steps.ts'
import {
  firstOrganisation,
  openPage,
  openSignUp,
  samplePath,
  settled,
  type ViewportName,
} from './harness.ts'
import { webSuite } from './suite.ts'

// Each width once and each database once: the journey's subject is the console, not the
// database (the database suites run the queries on both), so the 2 × 2 matrix is cut to 2.
const JOURNEYS: [ViewportName, 'pglite' | 'postgres'][] = [
  ['desktop', 'pglite'],
  ['mobile', 'postgres'],
]

describe.each(JOURNEYS)('the console at %s width on %s', (viewport, database) => {
  const web = webSuite({}, { database })

  it(
    'takes a new user from sign-up to a shared, paid, signed library',
    async () => {
      const { page, context, errors } = await openPage(web.browser, viewport, web.server.url)
      const mobile = viewport === 'mobile'

      // Sign up: a new organisation, its real plan and balance, and the way to a first upload.
      await openSignUp(page, { firstName: 'Ada', lastName: 'Tester' })
      await page.waitForURL(/\/console$/)
      await page.getByTestId('console-home').waitFor()
      expect(await page.getByTestId('plan').textContent()).toBe('Free')
      expect(await page.getByTestId('credits').textContent()).toBe('50')
      expect(await page.getByTestId('storage-bytes').textContent()).toBe('0 Bytes')
      expect(await page.getByTestId('files-count').textContent()).toBe('0 files')
      expect(await page.getByTestId('cache-entries').textContent()).toMatch(/^0 transformed/)
      await page.getByTestId('home-empty').getByRole('link', { name: 'Upload files' }).click()
      await page.waitForURL(/\/console\/editor\/upload$/)
      const orgId = (await firstOrganisation(page))._id
      expect(await page.getByTestId('org-switcher').locator('option').count()).toBe(1)

      await uploadFiveOneFailing(page)
      // Browse: the four images by name, with thumbnails made by delivery.
      await openLibrary(page)
      expect(await libraryNames(page)).toEqual([
        'astronaut.png',
        'camera.png',
        'coffee.png',
        'horse.png',
      ])
      const thumb = page.getByTestId('library-item').first().locator('img')
      await poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320)

      // A new folder.
      await page.getByRole('button', { name: 'New folder' }).click()
      await page.getByTestId('dialog-input').fill('album')
      await page.getByTestId('dialog-confirm').click()
      await page.getByTestId('library-notice').filter({ hasText: 'Folder album made.' }).waitFor()
      expect((await libraryNames(page))[0]).toBe('album')

      // Search by name.
      await page.getByTestId('library-search').fill('co')
      await page.waitForURL(/q=co/)
      await poll(() => libraryNames(page)).toEqual(['coffee.png'])
      await page.getByTestId('library-search').fill('')
      await poll(() => libraryNames(page)).toHaveLength(5)

      // Rename in the file panel; a name that is taken leaves the typed name and says why.
      await page.getByRole('button', { name: 'Show horse.png' }).click()
      const panel = page.getByTestId('file-panel')
      await panel.waitFor()
      await panel.getByTestId('rename-input').fill('coffee.png')
      await panel.getByRole('button', { name: 'Rename' }).click()
      await panel.getByTestId('rename-error').waitFor()
      expect(await panel.getByTestId('rename-input').inputValue()).toBe('coffee.png')
      await panel.getByTestId('rename-input').fill('pony.png')
      await panel.getByRole('button', { name: 'Rename' }).click()
      await page.getByTestId('library-notice').filter({ hasText: 'Renamed to pony.png.' }).waitFor()
      const ponyUrl = await panel.getByTestId('delivery-url').textContent()
      expect(ponyUrl).toMatch(/\/original\/pony\.png$/)
      expect(await imageWidth(page, ponyUrl ?? '')).toBeGreaterThan(0)
      await panel.getByRole('button', { name: 'Close' }).click()

      // Move: by dragging onto the folder (a mouse at desktop width), or with the dialog.
      if (!mobile) {
        await page
          .locator('[data-testid="library-item"][data-name="camera.png"]')
          .dragTo(page.locator('[data-testid="library-item"][data-name="album"]'))
      } else {
        await page.getByRole('checkbox', { name: 'Select camera.png' }).check()
        await page.getByRole('button', { name: 'Move…' }).click()
        await page.getByTestId('dialog-input').fill('album')
        await page.getByTestId('dialog-confirm').click()
      }
      await page
        .getByTestId('library-notice')
        .filter({ hasText: 'Moved 1 item to album.' })
        .waitFor()
      await page.getByRole('checkbox', { name: 'Select pony.png' }).check()
      await page.getByRole('button', { name: 'Move…' }).click()
      await page.getByTestId('dialog-input').fill('album')
      await page.getByTestId('dialog-confirm').click()
      await poll(() => libraryNames(page)).toEqual(['album', 'astronaut.png', 'coffee.png'])
      await page.getByRole('button', { name: 'Open folder album' }).click()
      await page.waitForURL(/path=album/)
      await poll(() => libraryNames(page)).toEqual(['camera.png', 'pony.png'])
      expect(await page.getByTestId('breadcrumbs').textContent()).toContain('album')

      // Delete a file, with confirmation: its delivery URL stops working.
      const movedPony = (ponyUrl ?? '').replace('/original/pony.png', '/original/album/pony.png')
      expect((await fetch(movedPony)).status).toBe(200)
      await page.getByRole('checkbox', { name: 'Select pony.png' }).check()
      await page.getByRole('button', { name: 'Delete…' }).click()
      // The count is worked out after the dialog opens (folders are counted through the API).
      await page.getByTestId('delete-count').filter({ hasText: 'will be deleted' }).waitFor()
      expect(await page.getByTestId('delete-count').textContent()).toBe('1 file will be deleted.')
      await page.getByTestId('dialog-confirm').click()
      await page.getByTestId('library-notice').filter({ hasText: 'Deleted 1 file.' }).waitFor()
      expect(await libraryNames(page)).toEqual(['camera.png'])
      expect((await fetch(movedPony)).status).toBe(404)

      // Presets: one with a typed variable, used by its URL.
      await page.goto(`/console/organization/${orgId}/presets`)
      await settled(page)
      await page.getByTestId('list-empty').first().waitFor()
      await page.getByRole('button', { name: 'New preset' }).click()
      await page.getByTestId('preset-name').fill('square')
      await page.getByTestId('preset-chain').fill('t.resize(w:$w,h:$w)')
      await page.getByLabel('Default of w').fill('120')
      await page.getByTestId('preset-save').click()
      const preset = page.locator('[data-testid="preset"][data-name="square"]')
      await preset.waitFor()
      const example = (await preset.getByTestId('preset-url').textContent()) ?? ''
      expect(example).toMatch(/\/p:square\/\{filePath\}$/)
      expect(await imageWidth(page, example.replace('{filePath}', 'coffee.png'))).toBe(120)
      // Archived presets are listed apart, and delivery refuses them.
      await preset.getByRole('button', { name: 'Archive' }).click()
      await page.getByTestId('archived-presets').locator('[data-name="square"]').waitFor()
      expect((await fetch(example.replace('{filePath}', 'coffee.png'))).status).toBe(400)
      await page
        .getByTestId('archived-presets')
        .locator('[data-name="square"]')
        .getByRole('button', { name: 'Unarchive' })
        .click()
      await page.locator('.preset-list:not(.is-archived) [data-name="square"]').waitFor()

      // The preset from the file panel's picker.
      await openLibrary(page)
      await page.getByRole('button', { name: 'Show coffee.png' }).click()
      await page.getByTestId('transform-choice').selectOption('p:square')
      const presetUrl = (await page.getByTestId('delivery-url').textContent()) ?? ''
      expect(presetUrl).toMatch(/\/p:square\/coffee\.png$/)
      expect(await imageWidth(page, presetUrl)).toBe(120)

      // The organisation's playground saves its chain as a preset.
      const chainUrl = presetUrl.replace('/p:square/', '/t.resize(w:64)/')
      await page.goto(
        `/console/organization/${orgId}/playground?url=${encodeURIComponent(chainUrl)}`,
      )
      await page.getByTestId('playground').waitFor()
      await poll(() => page.getByTestId('operation-count').innerText()).toContain('1 of 15')
      await page.getByTestId('save-as-preset').click()
      await page.waitForURL(/\/presets\?transformation=/)
      await poll(() => page.getByTestId('preset-chain').inputValue()).toBe('t.resize(w:64)')
      await page.getByTestId('preset-name').fill('tiny')
      await page.getByTestId('preset-save').click()
      await page.locator('[data-testid="preset"][data-name="tiny"]').waitFor()

      // The pricing page's button lands on billing, the plan preselected: with one organisation
      // the chooser has nothing to ask and goes straight on.
      await page.goto('/pricing')
      await settled(page)
      await page.getByRole('link', { name: 'Choose Starter' }).first().click()
      await page.waitForURL(/\/billing\/plans\/subscription\?planId=/)
      await page.locator('[data-testid="plan-card"][data-plan="Starter"].is-chosen').waitFor()

      // Billing: a top-up, then a subscription, each paid in the test provider's checkout.
      const billing = `/console/organization/${orgId}/billing/plans`
      await page.goto(`${billing}/topup`)
      await settled(page)
      await page.getByTestId('billing-balance').filter({ hasText: /^50$/ }).waitFor()
      // The checkout opens in this tab and comes back here with the outcome.
      const checkout = async (button: ReturnType<Page['locator']>, action: 'Pay' | 'Cancel') => {
        await button.click()
        await page.waitForURL(/\/test-checkout\/tpc_/)
        await page.getByRole('button', { name: action === 'Pay' ? /^Pay / : 'Cancel' }).click()
        const status = action === 'Pay' ? 'paid' : 'canceled'
        await page.waitForURL(
          new RegExp(`/console/organization/.*[?&]paymentId=.*&status=${status}`),
        )
        await page.locator(`[data-testid="payment-result"][data-status="${status}"]`).waitFor()
        await settled(page)
      }
      const pay = (button: ReturnType<Page['locator']>) => checkout(button, 'Pay')
      // Canceled: said so, nothing charged.
      await checkout(page.getByTestId('addon-card').first().getByRole('button'), 'Cancel')
      expect(await page.getByTestId('payment-result').textContent()).toContain('canceled')
      await page.getByTestId('billing-balance').filter({ hasText: /^50$/ }).waitFor()
      await pay(page.getByTestId('addon-card').first().getByRole('button'))
      await page.getByTestId('billing-balance').filter({ hasText: '150' }).waitFor()
      expect(await page.getByTestId('ledger-row').first().getAttribute('data-reason')).toBe('topup')
      await page.getByRole('link', { name: 'Subscription' }).click()
      await page.waitForURL(/\/subscription/)
      const starter = page.locator('[data-testid="plan-card"][data-plan="Starter"]')
      await pay(starter.getByRole('button', { name: 'Choose Starter' }))
      await page.getByTestId('billing-plan').filter({ hasText: 'Starter' }).waitFor()
      await page.getByTestId('billing-balance').filter({ hasText: '650' }).waitFor()
      await starter.getByTestId('current-plan-mark').waitFor()
      expect(await page.getByTestId('ledger-row').count()).toBe(3)
      await page.goto('/console')
      await settled(page)
      expect(await page.getByTestId('plan').textContent()).toBe('Starter')
      expect(await page.getByTestId('credits').textContent()).toBe('650')
      // Home counts what the library holds now, and lists the newest files of every folder.
      expect(await page.getByTestId('files-count').textContent()).toBe('3 files')
      expect(await page.getByTestId('storage-bytes').textContent()).toMatch(/^[\d.]+ (KB|MB)$/)
      expect(await page.getByTestId('cache-entries').textContent()).not.toMatch(/^0 /)
      expect(await page.getByTestId('cache-budget').textContent()).toMatch(/GB budget/)
      const recent = await page
        .getByTestId('recent-file')
        .evaluateAll((rows) => rows.map((row) => row.querySelector('a')?.textContent ?? ''))
      expect(recent.toSorted()).toEqual(['astronaut.png', 'camera.png', 'coffee.png'])
      // A recent file opens in its folder, its panel showing.
      await page.getByTestId('recent-file').getByRole('link', { name: 'camera.png' }).click()
      await page.waitForURL(/\/console\/editor\?path=album&file=/)
      await page.getByTestId('file-panel').waitFor()
      expect(await page.getByTestId('delivery-url').textContent()).toMatch(/\/album\/camera\.png$/)

      // An API token, shown once, that uploads from outside the browser.
      await page.goto(`/console/organization/${orgId}/settings/apps`)
      await settled(page)
      await page.getByTestId('token-name').fill('journey script')
      await page.getByTestId('create-token').click()
      const token = (await page.getByTestId('new-token-value').textContent()) ?? ''
      expect(token).toMatch(/^tsk_/)
      await page.getByTestId('token-row').waitFor()
      const form = new FormData()
      form.set('file', new Blob([await readFile(samplePath('rocket.jpg'))]), 'rocket.jpg')
      form.set('path', 'album')
      const uploaded = await fetch(`${web.server.url}/service/panel/assets/v1.0/upload/direct`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
      expect(uploaded.status).toBe(200)
      await openLibrary(page, 'album')
      expect(await libraryNames(page)).toEqual(['camera.png', 'rocket.jpg'])

      await inviteAndJoin(page, web.browser, viewport, web.server.url, orgId)

      // Delete a folder with everything in it, the count shown before.
      await openLibrary(page)
      await page.getByRole('checkbox', { name: 'Select album' }).check()
      await page.getByRole('button', { name: 'Delete…' }).click()
      await page.getByTestId('delete-count').filter({ hasText: 'will be deleted' }).waitFor()
      expect(await page.getByTestId('delete-count').textContent()).toBe(
        '1 folder with 2 files and 0 sub-folders inside will be deleted, everything inside included.',
      )
      await page.getByTestId('dialog-confirm').click()
      await page
        .getByTestId('library-notice')
        .filter({ hasText: 'Deleted 2 files and 1 folder.' })
        .waitFor()
      expect(await libraryNames(page)).toEqual(['astronaut.png', 'coffee.png'])

      // Every page fits a 320 px screen.
      if (mobile) {
        const base = `/console/organization/${orgId}`
        const wide = await fitsNarrowScreen(page, [
          '/console',
          '/console/editor?path=album',
          '/console/editor/upload',
          '/console/editor/url',
          `${base}/presets`,
          `${base}/billing/plans/subscription`,
          `${base}/settings/organization`,
          `${base}/settings/security`,
          `${base}/settings/members`,
          `${base}/settings/apps`,
        ])
        expect(wide).toEqual([])
      }

      // Custom domains are added under Settings → Domains (e2e/team.test.ts); this page links there.
      await page.goto(`/console/organization/${orgId}/settings/organization`)
      await settled(page)
      expect(
        await page
          .getByTestId('custom-domains-note')
          .getByRole('link', { name: 'Domains' })
          .count(),
      ).toBe(1)

      // Signed URLs: a key made here signs a URL delivery accepts; an unsigned one is refused.
      await page.goto(`/console/organization/${orgId}/settings/security`)
      await settled(page)
      // Requiring signatures needs a live key first: the API's reason is shown in place.
      await page.getByTestId('setting-requireSignedUrls').click()
      await page.getByTestId('settings-error').waitFor()
      expect(await page.getByTestId('setting-requireSignedUrls').isChecked()).toBe(false)
      await page.getByTestId('create-signing-key').click()
      await page.getByTestId('new-key-secret').waitFor()
      // The switch follows the saved setting, so it turns once the API has answered.
      await page.getByTestId('setting-requireSignedUrls').click()
      await poll(() => page.getByTestId('setting-requireSignedUrls').isChecked()).toBe(true)
      const original = presetUrl.replace('/p:square/', '/original/')
      const unsigned = await fetch(original)
      expect(unsigned.status).toBe(401)
      await page.getByTestId('sign-url').fill(original)
      await page.getByTestId('sign-submit').click()
      const signed = (await page.getByTestId('signed-url').textContent()) ?? ''
      expect(signed).toMatch(/[?&]pbs=[0-9a-f]{64}&pbe=\d+&pbt=/)
      const accepted = await fetch(signed)
      expect(accepted.status).toBe(200)
      expect(accepted.headers.get('content-type')).toBe('image/png')

      expect(errors).toEqual([])
      await context.close()
    },
    JOURNEY_TIMEOUT,
  )
})

// Billing's way back from the checkout, on PGlite: a visitor who picks a plan on the pricing page
// keeps the choice through sign-up, steps back from the checkout and forward again, pays and is
// back on billing with the plan changed (both widths); nine uploads page on the home page; on an
