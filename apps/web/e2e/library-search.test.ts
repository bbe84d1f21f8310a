// The library's search, tags, metadata, access and bulk actions (issue 22), in Chromium against
// a real server at 1440 and 390 px: tags and metadata edited in the file panel, a tag added to
// several files at once, the tag filter and the name search across folders, a file made private
// (delivery then wants a signature), and a bulk delete.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  firstOrganisation,
  horizontalOverflow,
  openPage,
  pollWithin,
  sampleFile,
  settled,
  signUp,
  type ViewportName,
} from './harness.ts'
import { webSuite } from './suite.ts'

const poll = pollWithin(20_000)

async function libraryNames(page: Page): Promise<string[]> {
  await page.getByTestId('library').waitFor()
  return page
    .getByTestId('library-item')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-name') ?? ''))
}

async function upload(page: Page, folder: string, names: string[]) {
  await page.goto(`/console/editor/upload?path=${encodeURIComponent(folder)}`)
  await settled(page)
  await page.getByTestId('file-input').setInputFiles(
    await Promise.all(
      names.map(async (name) => ({
        name,
        mimeType: 'image/png',
        buffer: await sampleFile(name),
      })),
    ),
  )
  await page
    .getByTestId('count-success')
    .filter({ hasText: `${names.length} uploaded` })
    .waitFor()
}

describe.each<ViewportName>(['desktop', 'mobile'])('the library at %s width', (viewport) => {
  const web = webSuite()

  it('tags, searches, filters, makes private and deletes in bulk', async () => {
    const { page, errors } = await openPage(web.browser, viewport, web.server.url)
    await signUp(page)
    const org = await firstOrganisation(page)
    await upload(page, '', ['horse.png', 'coffee.png'])
    await upload(page, 'kitchen', ['camera.png'])

    await page.goto('/console/editor')
    await settled(page)
    expect(await libraryNames(page)).toEqual(['kitchen', 'coffee.png', 'horse.png'])

    // Tags and metadata in the file panel; the grid shows the tags.
    await page.getByRole('button', { name: 'Show horse.png' }).click()
    const panel = page.getByTestId('file-panel')
    await panel.waitFor()
    await panel.getByTestId('tags-input').fill('animal, brown')
    await panel.getByTestId('metadata-input').fill('{"sku": "H-1"}')
    await panel.getByTestId('save-fields').click()
    await page.getByTestId('library-notice').filter({ hasText: 'Saved horse.png.' }).waitFor()
    expect(await panel.getByTestId('file-tags').textContent()).toBe('animal, brown')
    // A metadata text that is no JSON object is refused before anything is sent.
    await panel.getByTestId('metadata-input').fill('[1, 2]')
    await panel.getByTestId('save-fields').click()
    expect(await panel.getByTestId('fields-error').textContent()).toMatch(/JSON object/)
    await panel.getByRole('button', { name: 'Close' }).click()

    // Bulk: a tag added to two files, one in a sub-folder reached by the search.
    await page.getByTestId('library-search').fill('c')
    await page.waitForURL(/q=c/)
    await poll(() => libraryNames(page)).toEqual(['kitchen', 'camera.png', 'coffee.png'])
    await page.getByRole('checkbox', { name: 'Select camera.png' }).check()
    await page.getByRole('checkbox', { name: 'Select coffee.png' }).check()
    await page.getByTestId('bulk-tag').click()
    await page.getByTestId('dialog-input').fill('studio')
    await page.getByTestId('dialog-confirm').click()
    await page
      .getByTestId('library-notice')
      .filter({ hasText: 'Tagged 2 files “studio”.' })
      .waitFor()

    // The tag filter: the tags in use with their counts; each shows only its files.
    await page.getByTestId('library-search').fill('')
    await poll(() => libraryNames(page)).toEqual(['kitchen', 'coffee.png', 'horse.png'])
    const filter = page.getByTestId('library-tag-filter')
    await poll(() => filter.locator('option').allTextContents()).toEqual([
      'All tags',
      'studio (2)',
      'animal (1)',
      'brown (1)',
    ])
    await filter.selectOption('studio')
    await page.waitForURL(/tag=studio/)
    await poll(() => libraryNames(page)).toEqual(['camera.png', 'coffee.png'])
    await filter.selectOption('animal')
    await poll(() => libraryNames(page)).toEqual(['horse.png'])
    await page.getByTestId('library-search').fill('zzz')
    await page.getByTestId('library-no-match').waitFor()
    expect(await page.getByTestId('library-no-match').textContent()).toContain('tagged “animal”')
    await page.getByTestId('library-search').fill('')
    // The search reaches the address after a short pause; the filter is changed after it.
    await page.waitForURL((address) => !address.searchParams.has('q'))
    await filter.selectOption('')
    await poll(() => libraryNames(page)).toEqual(['kitchen', 'coffee.png', 'horse.png'])

    // Private: delivery refuses the unsigned URL; the console previews it through the session.
    await page.getByRole('button', { name: 'Show horse.png' }).click()
    await panel.getByTestId('access-input').selectOption('private')
    await panel.getByTestId('save-fields').click()
    await poll(() => panel.getByTestId('file-access').textContent()).toBe(
      'Private (signed URLs only)',
    )
    const url = (await panel.getByTestId('delivery-url').textContent()) ?? ''
    expect(url).toContain(`/${org.cloudName}/original/horse.png`)
    const status = await page.evaluate(
      async (target) => (await fetch(target)).status,
      url.replace(/^https?:\/\/[^/]+/, ''),
    )
    expect(status).toBe(401)
    const preview = panel.getByTestId('file-preview')
    expect(await preview.getAttribute('src')).toContain('/transformation/v1.0/preview?url=')
    await poll(() =>
      preview.evaluate((image: HTMLImageElement) => image.naturalWidth),
    ).toBeGreaterThan(0)
    await panel.getByRole('button', { name: 'Close' }).click()
    expect(await horizontalOverflow(page)).toBe(0)
    await page.screenshot({ path: `/tmp/tessera-library-${viewport}.png`, fullPage: true })

    // Bulk delete.
    await page.getByRole('checkbox', { name: 'Select coffee.png' }).check()
    await page.getByRole('checkbox', { name: 'Select horse.png' }).check()
    await page.getByRole('button', { name: 'Delete…' }).first().click()
    await page.getByTestId('dialog-confirm').click()
    await page.getByTestId('library-notice').filter({ hasText: 'Deleted 2 files.' }).waitFor()
    expect(await libraryNames(page)).toEqual(['kitchen'])
    expect(errors).toEqual([])
  }, 300_000)
})
