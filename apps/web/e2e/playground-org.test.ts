// The organisation's playground in Chromium against a real server, at 1440 and 390 px: presets
// (counted per operation, archived hidden) tried and kept or dropped, uploads, and an AI step run
// once on Run with its cost shown first. The visitor's playground: playground-visitor.test.ts.
import { describe, expect, it } from 'vitest'
import {
  chooseSample,
  firstOrganisation,
  openPage,
  panelPost,
  signUp,
  watchUnexpectedErrors,
} from './harness.ts'
import { addOperation, poll, runAi, snippetText, unexpected } from './playground-steps.ts'
import { webSuite } from './suite.ts'

const web = webSuite()

for (const viewport of ['desktop', 'mobile'] as const) {
  describe(`the organisation's playground at ${viewport}`, () => {
    it('uses presets (counted per operation, archived hidden), tries and keeps or drops one, uploads', async () => {
      const { page, context } = await openPage(web.browser, viewport, web.server.url)
      const errors = watchUnexpectedErrors(page)
      await signUp(page)
      const org = await firstOrganisation(page)
      const presets = `/service/panel/assets/v1.0/org/${org._id}/presets`
      await panelPost(page, web.server.url, presets, {
        presetName: 'three',
        transformation: 't.flip()~t.flop()~t.grey()',
      })
      await panelPost(page, web.server.url, presets, {
        presetName: 'card',
        transformation: 't.resize(w:$w,h:$w)',
        params: { w: { type: 'integer', default: 120 } },
      })
      await panelPost(page, web.server.url, presets, {
        presetName: 'old',
        transformation: 't.grey()',
        archived: true,
      })

      // Another organisation's playground does not exist for this user.
      const foreign = await page.goto('/console/organization/not-mine/playground')
      expect(foreign?.status()).toBe(404)

      // Upload an image into the organisation through the playground.
      await page.goto(`/console/organization/${org._id}/playground`)
      await page.getByTestId('playground').waitFor()
      await chooseSample(page, 'astronaut.png')
      await poll(() => snippetText(page), { timeout: 20_000 }).toBe(
        `${web.server.url}/v2/${org.cloudName}/original/playground/astronaut.png`,
      )
      await poll(() => page.getByRole('button', { name: 'astronaut.png' }).count()).toBe(1)

      // Presets: the archived one is not offered.
      await page.getByRole('button', { name: 'Add preset', exact: true }).click()
      await expect(page.getByRole('button', { name: 'Add preset three' }).count()).resolves.toBe(1)
      await expect(page.getByRole('button', { name: 'Add preset card' }).count()).resolves.toBe(1)
      await expect(page.getByRole('button', { name: 'Add preset old' }).count()).resolves.toBe(0)
      await page.getByRole('button', { name: 'Add preset three' }).click()
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '3 of 15 operations',
      )
      // A preset with variables is selected and edited as one.
      await page.getByRole('button', { name: 'Add preset card' }).click()
      await expect(page.getByRole('heading', { name: 'Edit card' }).count()).resolves.toBe(1)
      await page.getByRole('spinbutton', { name: /^\$w/ }).fill('90')
      await poll(() => snippetText(page)).toContain('/p:three~p:card(w:90)/')
      await poll(() => page.getByTestId('result-details').innerText(), {
        timeout: 20_000,
      }).toContain('90 × 90 px')

      // Replacing the selected item with a preset clears the selection.
      await page.getByRole('button', { name: 'Replace' }).click()
      await page.getByRole('button', { name: 'Presets' }).click()
      await page.getByRole('button', { name: 'Use preset three' }).click()
      await expect(page.getByRole('heading', { name: /^Edit / }).count()).resolves.toBe(0)
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '6 of 15 operations',
      )

      // Try a preset and go back (unstash with the preset), try one and keep it.
      await page.getByRole('button', { name: 'Add preset', exact: true }).click()
      await page.getByRole('button', { name: 'Try preset card' }).click()
      await expect(page.getByText('Trying a preset').count()).resolves.toBe(1)
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '7 of 15 operations',
      )
      await page.getByRole('button', { name: 'Go back' }).click()
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '6 of 15 operations',
      )
      await page.getByRole('button', { name: 'Add preset', exact: true }).click()
      await page.getByRole('button', { name: 'Try preset card' }).click()
      // Unstash without a preset: the tried item is removed by hand first.
      await page.getByRole('button', { name: 'Remove card' }).click()
      await addOperation(page, 'negative', 'Produce the "negative" of an image.')
      await page.getByRole('button', { name: 'Go back' }).click()
      await poll(() => snippetText(page)).toContain('/p:three~p:three/')
      await page.getByRole('button', { name: 'Add preset', exact: true }).click()
      await page.getByRole('button', { name: 'Try preset card' }).click()
      await page.getByRole('button', { name: 'Keep' }).click()
      await expect(page.getByText('Trying a preset').count()).resolves.toBe(0)
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '7 of 15 operations',
      )

      // 7 + 3 + 3 = 13; one more preset of 3 is refused with the preset message.
      await page.getByRole('button', { name: 'Add preset', exact: true }).click()
      await page.getByRole('button', { name: 'Add preset three' }).click()
      await page.getByRole('button', { name: 'Add preset three' }).click()
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '13 of 15 operations',
      )
      await page.getByRole('button', { name: 'Add preset three' }).click()
      await poll(() =>
        page
          .getByText('Cannot add preset, causing more than 15 transformations.', { exact: true })
          .count(),
      ).toBe(1)
      await poll(() => page.getByTestId('operation-count').innerText()).toContain(
        '13 of 15 operations',
      )

      // The context button shows what the server answered, honestly.
      await page.getByRole('button', { name: 'Context' }).click()
      await poll(() => page.getByTestId('context').innerText()).toMatch(/answered 404|"/)
      expect(unexpected(errors)).toEqual([])
      await context.close()
    })

    it('runs Erase BG once on Run, with its cost shown first; editing a later width costs nothing', async () => {
      const { page, context } = await openPage(web.browser, viewport, web.server.url)
      const errors = watchUnexpectedErrors(page)
      await signUp(page)
      const org = await firstOrganisation(page)
      const balance = async () => {
        const answer = await page
          .context()
          .request.get(`${web.server.url}/service/panel/billing/v1.0/org/${org._id}/credits`)
        return ((await answer.json()) as { balance: number }).balance
      }
      await page.goto(`/console/organization/${org._id}/playground`)
      await page.getByTestId('playground').waitFor()
      await chooseSample(page, 'astronaut.png')
      await poll(() => page.getByRole('button', { name: 'astronaut.png' }).count()).toBe(1)
      const start = await balance()

      await addOperation(page, 'erase', 'Erase BG')
      // Adding the step charges nothing: the run waits for the button, which says the cost.
      await poll(() => page.getByTestId('ai-run').innerText()).toContain('1 credit')
      expect(await balance()).toBe(start)
      await runAi(page)
      await poll(() => page.getByTestId('result-details').innerText(), {
        timeout: 90_000,
      }).toContain('png')
      expect(await balance()).toBe(start - 1)

      // A resize after it, its width typed key by key and nudged: each edit renders at once
      // from the kept result, no Run asked, no credit spent.
      await addOperation(page, 'resize', 'Resize an image')
      const width = page.getByRole('spinbutton', { name: /^Width/ })
      await width.pressSequentially('321', { delay: 50 })
      await poll(() => page.getByTestId('result-details').innerText(), {
        timeout: 20_000,
      }).toContain('321 ×')
      await width.press('ArrowUp')
      await poll(() => page.getByTestId('result-details').innerText(), {
        timeout: 20_000,
      }).toContain('322 ×')
      await expect(page.getByTestId('ai-run').count()).resolves.toBe(0)
      expect(await balance()).toBe(start - 1)
      expect(unexpected(errors)).toEqual([])
      await context.close()
    }, 240_000)
  })
}
