// What the console's browser suites (console-journey, console-checkout) share: the demo's
// samples as files to choose, reading the library, images' widths, the 320 px check, and two
// steps of the journey told apart so that the journey reads as its story.
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'
import {
  openPage,
  sampleFile,
  settled,
  submitSignUp,
  uniqueEmail,
  type ViewportName,
} from './harness.ts'

export const JOURNEY_TIMEOUT = 600_000

/** Polls until the value matches: the page answers on its own time on a busy machine. */
export function poll<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 20_000, interval: 200 })
}

/** A demo sample as a file the upload input takes. */
export async function sample(name: string) {
  return { name, mimeType: 'image/png', buffer: await sampleFile(name) }
}

/** The names the library shows, in order. */
export async function libraryNames(page: Page): Promise<string[]> {
  await page.getByTestId('library').waitFor()
  return page
    .getByTestId('library-item')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-name') ?? ''))
}

export async function openLibrary(page: Page, path = '') {
  await page.goto(`/console/editor${path === '' ? '' : `?path=${encodeURIComponent(path)}`}`)
  await settled(page)
}

/** The natural width of an image URL as the browser decodes it (0 when it does not load). */
export async function imageWidth(page: Page, url: string): Promise<number> {
  return page.evaluate(
    (src) =>
      new Promise<number>((resolve) => {
        const image = new Image()
        image.onload = () => resolve(image.naturalWidth)
        image.onerror = () => resolve(0)
        image.src = src
      }),
    url,
  )
}

/** Console pages fit a 320 px screen: nothing wider than the viewport (SPEC §9 widths). */
export async function fitsNarrowScreen(page: Page, paths: string[]): Promise<string[]> {
  const before = page.viewportSize()
  await page.setViewportSize({ width: 320, height: 700 })
  const wide: string[] = []
  for (const path of paths) {
    await page.goto(path)
    await settled(page)
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    if (overflow > 0) wide.push(`${path} (${overflow}px)`)
  }
  if (before !== null) await page.setViewportSize(before)
  return wide
}

/** On the upload page: five files, one of them failing, retried, and one overwritten. */
export async function uploadFiveOneFailing(page: Page) {
  // Upload 5 files, one of them text dressed as a PNG: it fails with its reason.
  await settled(page)
  const seen = new Set<string>()
  await page.exposeFunction('reportStatus', (status: string) => seen.add(status))
  await page.evaluate(() => {
    const report = (window as unknown as { reportStatus: (s: string) => void }).reportStatus
    new MutationObserver(() => {
      for (const row of document.querySelectorAll('[data-testid="upload-row"]')) {
        report(row.getAttribute('data-status') ?? '')
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true })
  })
  await page.getByTestId('file-input').setInputFiles([
    await sample('astronaut.png'),
    await sample('coffee.png'),
    await sample('horse.png'),
    await sample('camera.png'),
    {
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image at all\n'),
    },
  ])
  await page.getByTestId('count-success').filter({ hasText: '4 uploaded' }).waitFor()
  await page.getByTestId('count-failed').filter({ hasText: '1 failed' }).waitFor()
  expect(await page.getByTestId('count-total').textContent()).toBe('5 total')
  expect(await page.getByTestId('count-cancelled').textContent()).toBe('0 cancelled')
  expect(await page.getByTestId('overall-percent').textContent()).toBe('100%')
  expect(seen.has('uploading')).toBe(true)
  const failed = page.locator('[data-testid="upload-row"][data-status="failed"]')
  expect(await failed.count()).toBe(1)
  expect(await failed.getByTestId('upload-reason').textContent()).toMatch(/^Not an image/)
  expect(await failed.textContent()).toContain('notes.png')
  // Retrying fails again for the same reason, and the counts stay true.
  await page.getByTestId('retry-failed').click()
  await page.getByTestId('count-failed').filter({ hasText: '1 failed' }).waitFor()
  expect(await page.getByTestId('count-success').textContent()).toBe('4 uploaded')
  // The same name again: taken, then overwritten on request.
  await page.getByTestId('file-input').setInputFiles([await sample('astronaut.png')])
  const taken = page.locator('[data-testid="upload-row"]').filter({ hasText: 'Name taken' })
  await taken.waitFor()
  await taken.getByRole('button', { name: 'Overwrite' }).click()
  await page.getByTestId('count-success').filter({ hasText: '5 uploaded' }).waitFor()
  expect(await page.getByTestId('count-total').textContent()).toBe('6 total')
  expect(await page.getByTestId('count-failed').textContent()).toBe('1 failed')
}

/**
 * Invites a second user from the members page; they sign up from the link in another browser
 * context, join and see the library, and the owner sees two members.
 */
export async function inviteAndJoin(
  page: Page,
  browser: Browser,
  viewport: ViewportName,
  serverUrl: string,
  orgId: string,
) {
  // A second user, invited by email, accepts in another browser and sees the library.
  const guestEmail = uniqueEmail()
  await page.goto(`/console/organization/${orgId}/settings/members`)
  await settled(page)
  await page.getByTestId('invite-email').fill(guestEmail)
  await page.getByTestId('invite-send').click()
  const acceptUrl = (await page.getByTestId('invitation-url').textContent()) ?? ''
  expect(acceptUrl).toContain('/console/invitations/accept?token=')
  const guest = await openPage(browser, viewport, serverUrl)
  await guest.page.goto(acceptUrl)
  await guest.page.waitForURL(/\/console\/auth\/login/)
  await settled(guest.page)
  await guest.page.getByRole('link', { name: 'Create an account' }).click()
  await guest.page.waitForURL(/\/console\/auth\/signup/)
  await submitSignUp(guest.page, { firstName: 'Grace', lastName: 'Tester', email: guestEmail })
  await guest.page.waitForURL(/\/console\/invitations\/accept/)
  await settled(guest.page)
  await guest.page.getByTestId('invitation-join').click()
  await guest.page.getByTestId('invitation-joined').waitFor()
  await guest.page.getByRole('link', { name: 'Open its media library' }).click()
  await guest.page.waitForURL(/\/console\/editor$/)
  expect(await libraryNames(guest.page)).toEqual(['album', 'astronaut.png', 'coffee.png'])
  await page.reload()
  await settled(page)
  await poll(() => page.getByTestId('member-row').count()).toBe(2)
  expect(guest.errors).toEqual([])
  await guest.context.close()
}
