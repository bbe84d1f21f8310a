// What the playground's browser suites (playground-visitor, playground-org) share: reading
// errors, adding an operation, running an AI step, and polling with room for a busy machine.
import type { Page } from 'playwright-core'
import { pollWithin } from './harness.ts'

export const poll = pollWithin(15_000)

/** Console errors that remain once the not-yet-built visitor calls (404) are set aside. */
export function unexpected(errors: string[]): string[] {
  return errors.filter(
    (text) =>
      !/status of 404/.test(text) &&
      !/^HTTP 404 GET \S+\/transformation\/v1\.0\/context/.test(text),
  )
}

export const snippetText = (page: Page) => page.getByTestId('url-snippet').innerText()

export async function addOperation(page: Page, search: string, name: string) {
  const search_ = page.getByRole('searchbox', { name: 'Search operations' })
  if (!(await search_.isVisible())) {
    await page.getByRole('button', { name: 'Add transformation' }).click()
  }
  await search_.fill(search)
  await page.getByRole('button', { name: `Add ${name}`, exact: true }).click()
}

/** Clicks the Run button of the AI step shown (it says what the run costs). */
export async function runAi(page: Page) {
  await page.getByTestId('ai-run').getByRole('button', { name: /^Run/ }).click()
}
