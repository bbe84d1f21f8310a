// The playground in Chromium against a real server, at 1440 and 390 px (SPEC §2.8, §3, §4, §5,
// §7.2, §8, §9): every chain transition, the cap messages, ?url= sharing, a real slow operation
// answering 202, the png retry, uploads, and the member's playground with presets and files.
// This file: the visitor's playground and the narrowest phone; the organisation's playground is
// playground-org.test.ts.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  dataLayerEvents,
  openPage,
  overflows,
  sampleFile,
  type ViewportName,
  watchUnexpectedErrors,
} from './harness.ts'
import { addOperation, poll, runAi, snippetText, unexpected } from './playground-steps.ts'
import { webSuite } from './suite.ts'

const web = webSuite()

const sample = (pattern: string, file = 'astronaut.png') =>
  `${web.server.url}/v2/demo/${pattern}/samples/${file}`
const withUrl = (url: string, path = '/playground') => `${path}?url=${encodeURIComponent(url)}`
const chain = (page: Page) => page.getByRole('list', { name: 'Transformations' })

async function openPlayground(viewport: ViewportName, path = '/playground') {
  const opened = await openPage(web.browser, viewport, web.server.url)
  const errors = watchUnexpectedErrors(opened.page)
  await opened.page.goto(path)
  await opened.page.getByTestId('playground').waitFor()
  return { ...opened, errors }
}

for (const viewport of ['desktop', 'mobile'] as const) {
  describe(`the visitor playground at ${viewport}`, () => {
    it('shows the tabs, the samples, the original details and the options by plugin', async () => {
      const { page, context, errors } = await openPlayground(viewport)
      for (const name of ['Original', 'Transformed', 'Result']) {
        await expect(page.getByRole('tab', { name }).count()).resolves.toBe(1)
      }
      await expect(
        page.getByRole('tab', { name: 'Result' }).getAttribute('aria-selected'),
      ).resolves.toBe('true')
      // SPEC §9 byte formatting: the default sample's 112525 bytes → 109.89 KB.
      await poll(() => page.getByTestId('original-details').innerText()).toContain(
        '640 × 427 px · jpeg · 109.89 KB',
      )
      await expect(chain(page).locator('li').count()).resolves.toBe(0)
      await page.getByRole('button', { name: 'Add transformation' }).click()
      await expect(
        page.getByRole('heading', { name: /Basic Transformations/ }).count(),
      ).resolves.toBe(1)
      // What this server cannot run is marked and offers no button.
      await poll(() => page.getByTestId('not-runnable').first().innerText()).toContain(
        'not on this server',
      )
      await page
        .getByRole('searchbox', { name: 'Search operations' })
        .fill('AI Background Generator')
      await poll(() => page.getByTestId('not-runnable').first().innerText()).toContain(
        'not on this server',
      )
      // Only the list's own buttons remain: no operation offers an Add button.
      await expect(
        page.getByRole('button', { name: /^Add (?!transformation$|preset$)/ }).count(),
      ).resolves.toBe(0)
      await page.getByRole('searchbox', { name: 'Search operations' }).fill('smart crop')
      await expect(page.getByRole('button', { name: /^Add / }).count()).resolves.toBeGreaterThan(0)
      await expect(overflows(page)).resolves.toBe(false)
      await page.getByRole('searchbox', { name: 'Search operations' }).fill('zzzz')
      await expect(page.getByText('No operation matches “zzzz”.').count()).resolves.toBe(1)
      expect(unexpected(errors)).toEqual([])
      await context.close()
    })

    it('adds (selecting only items with params), edits, replaces, moves and deletes', async () => {
      const { page, context, errors } = await openPlayground(viewport)
      await addOperation(page, 'flip', 'Flip an image vertically')
      await expect(chain(page).locator('li').count()).resolves.toBe(1)
      await expect(page.getByRole('heading', { name: /^Edit / }).count()).resolves.toBe(0)
      await addOperation(page, 'resize', 'Resize an image')
      await expect(
        page.getByRole('heading', { name: 'Edit Resize an image' }).count(),
      ).resolves.toBe(1)
      await page.getByRole('button', { name: 'Close' }).click()
      // set-field, then the result follows.
      await page.getByRole('spinbutton', { name: /^Width/ }).fill('200')
      await page.getByRole('spinbutton', { name: /^Height/ }).fill('100')
      await poll(() => snippetText(page)).toContain('t.flip()~t.resize(w:200,h:100)')
      await poll(() => page.getByTestId('result-details').innerText(), {
        timeout: 20_000,
      }).toContain('200 × 100 px')
      // The Transformed tab previews up to the selected item.
      await expect(page.getByRole('tab', { name: 'Transformed (preview)' }).count()).resolves.toBe(
        1,
      )
      // reset-field and reset-all.
      await page.getByRole('button', { name: 'Reset Width' }).click()
      await poll(() => snippetText(page)).toContain('t.resize(h:100)')
      await page.getByRole('button', { name: 'Reset all' }).click()
      await poll(() => snippetText(page)).toContain('t.flip()~t.resize()/')
      // Replace the selected operation: it stays selected for editing.
      await page.getByRole('button', { name: 'Replace' }).click()
      await page.getByRole('searchbox', { name: 'Search operations' }).fill('blur')
      await page.getByRole('button', { name: /^Use Blur/ }).click()
      await expect(page.getByRole('heading', { name: /^Edit Blur/ }).count()).resolves.toBe(1)
      await poll(() => snippetText(page)).toContain('t.flip()~t.blur()/')
      // Move up, then delete everything: the result is the original again.
      await page.getByRole('button', { name: /^Move Blur .* up$/ }).click()
      await poll(() => snippetText(page)).toContain('t.blur()~t.flip()/')
      await page.getByRole('button', { name: /^Remove Blur/ }).click()
      await page.getByRole('button', { name: 'Remove Flip an image vertically' }).click()
      await poll(() => snippetText(page)).toBe(sample('original', 'rocket.jpg'))
      await poll(() => page.getByTestId('result-details').innerText()).toContain('640 × 427 px')
      expect(unexpected(errors)).toEqual([])
      await context.close()
    })

    it('disables adding at 15, refuses a 16th with the SPEC message, and re-enables on delete', async () => {
      const fourteen = Array.from({ length: 14 }, () => 't.flip()').join('~')
      const { page, context, errors } = await openPlayground(viewport, withUrl(sample(fourteen)))
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '14 of 15 operations',
      )
      await addOperation(page, 'flop', 'Flip an image horizontally')
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '15 of 15 operations',
      )
      await expect(
        page.getByRole('button', { name: 'Add transformation' }).isDisabled(),
      ).resolves.toBe(true)
      // The options were still open: one more is refused with the exact message.
      await page.getByRole('button', { name: 'Add Flip an image horizontally' }).click()
      await poll(() =>
        page.getByText('Cannot add more than 15 transformations.', { exact: true }).count(),
      ).toBe(1)
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '15 of 15 operations',
      )
      await page.getByRole('button', { name: 'Remove Flip an image horizontally' }).click()
      await expect(
        page.getByRole('button', { name: 'Add transformation' }).isEnabled(),
      ).resolves.toBe(true)
      expect(unexpected(errors)).toEqual([])
      await context.close()
    })

    it('opens ?url= on its chain, keeps the address shareable, and clear keeps the image', async () => {
      const shared = sample('t.resize(w:240,h:160)~t.grey()', 'coffee.png')
      const { page, context, errors } = await openPlayground(viewport, withUrl(shared))
      await expect(chain(page).locator('li').count()).resolves.toBe(2)
      await poll(() => snippetText(page)).toBe(shared)
      await poll(() => page.getByTestId('result-details').innerText(), {
        timeout: 20_000,
      }).toContain('240 × 160 px')
      // A change lands in the address bar; opening that address gives the same chain.
      await addOperation(page, 'flop', 'Flip an image horizontally')
      const address = page.url()
      expect(new URL(address).searchParams.get('url')).toBe(
        sample('t.resize(w:240,h:160)~t.grey()~t.flop()', 'coffee.png'),
      )
      const again = await openPlayground(
        viewport,
        new URL(address).pathname + new URL(address).search,
      )
      await poll(() => snippetText(again.page)).toBe(
        sample('t.resize(w:240,h:160)~t.grey()~t.flop()', 'coffee.png'),
      )
      await again.context.close()
      // The cURL and @tessera/url forms of the same URL.
      await page.getByRole('button', { name: 'cURL' }).click()
      await poll(() => snippetText(page)).toContain(`curl -o result '${web.server.url}/v2/demo/`)
      await page.getByRole('button', { name: '@tessera/url' }).click()
      await poll(() => snippetText(page)).toContain("import { objToUrl } from '@tessera/url'")
      // Clear: the chain goes, the image (coffee, from the shared URL) stays.
      await page.getByRole('button', { name: 'URL', exact: true }).click()
      await page.getByRole('button', { name: 'Clear' }).click()
      await expect(chain(page).locator('li').count()).resolves.toBe(0)
      await poll(() => snippetText(page)).toBe(sample('original', 'coffee.png'))
      expect(unexpected(errors)).toEqual([])
      await context.close()
    })

    it('shows "processing" while a real slow operation answers 202, then the image', async () => {
      const crop = sample(`ic.crop(w:${viewport === 'desktop' ? 300 : 301},h:200)`, 'chelsea.png')
      const { page, context, errors } = await openPlayground(viewport, withUrl(crop))
      // Nothing runs (or is counted) before the Run button, which says what it costs.
      await poll(() => page.getByTestId('ai-run').innerText()).toContain(
        '1 of your free AI runs for today',
      )
      await runAi(page)
      await page.getByTestId('processing').waitFor({ timeout: 20_000 })
      await poll(() => page.getByTestId('processing').innerText()).toMatch(
        /^Processing: the server is still working on this image \(check \d+ of 12\)\./,
      )
      await poll(() => page.getByTestId('result-details').innerText(), {
        timeout: 60_000,
      }).toContain('× 200 px')
      const events = await dataLayerEvents(page)
      expect(events).toContain('transformation triggered')
      expect(events).toContain('polling succeeded')
      expect(events).toContain('success')
      expect(unexpected(errors)).toEqual([])
      await context.close()
    })

    it('cancels a processing image and can try again', async () => {
      // A large image upscaled first keeps the job busy long enough to cancel while it runs.
      const crop = sample(
        `t.resize(w:${viewport === 'desktop' ? 3000 : 3001})~ic.crop(w:250,h:250)`,
        'hubble_deep_field.jpg',
      )
      const { page, context } = await openPlayground(viewport, withUrl(crop))
      await runAi(page)
      await page.getByTestId('processing').waitFor({ timeout: 20_000 })
      await page.getByRole('button', { name: 'Cancel' }).click()
      await expect(page.getByText('Cancelled.').count()).resolves.toBe(1)
      await page.getByRole('button', { name: 'Try again' }).click()
      await poll(() => page.getByTestId('result-details').innerText(), {
        timeout: 60_000,
      }).toContain('× 250 px')
      await context.close()
    })

    it('fetches a format the browser cannot show again as png', async () => {
      const bmp = sample('t.resize(w:64)~t.toFormat(f:bmp)')
      const { page, context, errors } = await openPlayground(viewport, withUrl(bmp))
      const image = page.getByRole('img', { name: 'Result image' })
      await image.waitFor({ timeout: 20_000 })
      await expect(image.getAttribute('data-url')).resolves.toBe(
        sample('t.resize(w:64)~t.toFormat(f:bmp)~t.toFormat(f:png)'),
      )
      await poll(() => page.getByTestId('result-details').innerText()).toContain('64 × 64 px · png')
      expect(unexpected(errors)).toEqual([])
      await context.close()
    })

    it('takes a PDF upload and shows its first page (issue 23)', async () => {
      const { page, context, errors } = await openPlayground(viewport)
      await page.locator('input[type=file]').setInputFiles({
        name: 'guide.pdf',
        mimeType: 'application/pdf',
        buffer: await sampleFile('tessera-guide.pdf'),
      })
      await page.getByRole('status').filter({ hasText: 'Uploaded' }).waitFor({ timeout: 30_000 })
      // The original is a PDF, which no <img> shows: its page 1 comes back as png (150 dpi).
      await poll(() => page.getByTestId('result-details').innerText()).toContain(
        '940 × 625 px · png',
      )
      expect(unexpected(errors)).toEqual([])
      await context.close()
    })
  })
}

describe('the playground on the narrowest phone', () => {
  it('fits 320 px with a chain, the options and the editor open', async () => {
    const context = await web.browser.newContext({
      viewport: { width: 320, height: 700 },
      baseURL: web.server.url,
    })
    const page = await context.newPage()
    await page.goto(withUrl(sample('t.resize(w:200)~t.extend(t:8,l:8,b:8,r:8,bc:ff000080)')))
    await page.getByTestId('playground').waitFor()
    await page
      .getByRole('button', { name: /^Extend/ })
      .first()
      .click()
    await page.getByRole('button', { name: 'Add transformation' }).click()
    await page.getByRole('button', { name: '@tessera/url' }).click()
    await expect(overflows(page)).resolves.toBe(false)
    await context.close()
  })
})
