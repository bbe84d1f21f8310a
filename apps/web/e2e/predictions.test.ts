import { describe, expect, it } from 'vitest'
import { openPage, samplePath, settled, signUp, startWebServer, submitSignUp } from './harness.ts'
import { webSuite } from './suite.ts'

const SAMPLE = samplePath('chelsea.png')

const web = webSuite()

describe.each(['desktop', 'mobile'] as const)('predictions at %s width', (viewport) => {
  it('lists the predictions and says which run here, with no errors for a visitor', async () => {
    const { page, context, errors, consoleErrors } = await openPage(
      web.browser,
      viewport,
      web.server.url,
    )
    await page.goto('/predictions')
    await settled(page)
    const cards = page.getByTestId('prediction-card')
    expect(await cards.count()).toBe(7)
    const crop = cards.filter({ hasText: 'Intelligent crop' })
    expect(await crop.locator('.run-badge').textContent()).toBe('Runs on this server')
    const erase = cards.filter({ hasText: 'Erase BG' })
    expect(await erase.locator('.run-badge').textContent()).toBe('Runs on this server')
    const generate = cards.filter({ hasText: 'Generate BG' })
    expect(await generate.locator('.run-badge').textContent()).toBe('Model not available here')
    expect(await page.getByTestId('predictions-error').count()).toBe(0)
    await crop.getByRole('link', { name: 'Open Intelligent crop' }).click()
    await page.waitForURL(`${web.server.url}/predictions/ic_crop`)
    await page.getByTestId('prediction-form').waitFor()
    expect(errors).toEqual([])
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  it('builds the form from the schema and sends a visitor to sign up, then back', async () => {
    const { page, context } = await openPage(web.browser, viewport, web.server.url)
    await page.goto('/predictions/ic_crop')
    await settled(page)
    const form = page.getByTestId('prediction-form')
    // One control per schema property, typed by the schema.
    expect(await form.locator('input[name="image"]').getAttribute('type')).toBe('text')
    expect(await form.locator('input[name="requiredWidth"]').getAttribute('type')).toBe('number')
    expect(await form.locator('input[name="maintainOriginalAspect"]').getAttribute('type')).toBe(
      'checkbox',
    )
    const gravity = await form.locator('select[name="gravityTowards"] option').allTextContents()
    expect(gravity).toEqual(['Default', 'object', 'foreground', 'face', 'none'])
    expect(await page.getByTestId('run-prediction').count()).toBe(0)
    const signup = page.getByTestId('signup-to-run')
    const href = new URL((await signup.getAttribute('href')) ?? '', web.server.url)
    expect(href.pathname).toBe('/console/auth/signup')
    expect(href.searchParams.get('redirectUrl')).toBe(`${web.server.url}/predictions/ic_crop`)
    await signup.click()
    await page.waitForURL(/\/console\/auth\/signup\?/)
    await settled(page)
    await submitSignUp(page, { firstName: 'Grace', lastName: 'Tester' })
    await page.waitForURL(`${web.server.url}/predictions/ic_crop`)
    await page.getByTestId('run-prediction').waitFor()
    await context.close()
  })
})

describe('a member runs a prediction', () => {
  it('uploads an image, runs ic_crop, and sees it queued, polled and done with its output', async () => {
    const { page, context, errors } = await openPage(web.browser, 'desktop', web.server.url)
    await signUp(page, { firstName: 'Ada', lastName: 'Tester' })

    const polls: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/predictions/jobs/')) polls.push(request.url())
    })
    await page.goto('/predictions/ic_crop')
    await settled(page)
    await page.locator('#prediction-upload').setInputFiles(SAMPLE)
    await page.getByTestId('upload-status').filter({ hasText: 'Uploaded as' }).waitFor()
    const path = await page.locator('input[name="image"]').inputValue()
    expect(path).toMatch(/^prediction-inputs\/input-[a-z0-9]+\.png$/)
    await page.locator('input[name="requiredWidth"]').fill('200')
    await page.locator('input[name="requiredHeight"]').fill('150')
    await page.getByTestId('run-prediction').click()
    await page.getByTestId('job-status').filter({ hasText: 'done' }).waitFor({ timeout: 30_000 })
    expect(polls.length).toBeGreaterThan(0)
    const result = page.getByTestId('prediction-result')
    await page.waitForFunction(
      (element) => element instanceof HTMLImageElement && element.complete,
      await result.elementHandle(),
    )
    expect(
      await result.evaluate((element) => [
        (element as HTMLImageElement).naturalWidth,
        (element as HTMLImageElement).naturalHeight,
      ]),
    ).toEqual([200, 150])
    const json = JSON.parse((await page.getByTestId('prediction-json').textContent()) ?? '{}')
    expect(json).toMatchObject({
      predictionId: 'ic_crop',
      status: 'done',
      result: { width: 200, height: 150 },
    })
    expect(await page.locator('.job-steps li.is-now').textContent()).toBe('done')
    expect(errors).toEqual([])
    await context.close()
  })

  it('hears 501 model_unavailable for a model this server does not have', async () => {
    const { page, context } = await openPage(web.browser, 'mobile', web.server.url)
    await signUp(page, { firstName: 'Alan', lastName: 'Tester' })
    await page.goto('/predictions/generate_bg')
    await settled(page)
    expect(await page.getByTestId('model-unavailable').textContent()).toContain(
      '501 model_unavailable',
    )
    await page.locator('input[name="image"]').fill('https://example.com/photo.jpg')
    await page.getByTestId('run-prediction').click()
    const error = page.getByTestId('run-error')
    await error.waitFor()
    expect(await error.textContent()).toMatch(/^model_unavailable: /)
    await context.close()
  })
})

describe('when the predictions service cannot be reached', () => {
  it("says 'Failed to load predictions' over an empty list, and can try again", async () => {
    // The API base points at a port nothing listens on: the list call fails (SPEC §8).
    const broken = await startWebServer({ WEB_API_URL: 'http://127.0.0.1:9' })
    try {
      const { page, context } = await openPage(web.browser, 'mobile', broken.url)
      await page.goto('/predictions')
      await settled(page)
      const alert = page.getByTestId('predictions-error')
      expect(await alert.locator('p').textContent()).toBe('Failed to load predictions')
      expect(await page.getByTestId('prediction-card').count()).toBe(0)
      await alert.getByRole('button', { name: 'Try again' }).click()
      // The retry fails the same way: the message comes back and the list stays empty.
      await page.getByTestId('predictions-error').waitFor()
      expect(await page.getByTestId('predictions-loading').count()).toBe(0)
      expect(await page.getByTestId('prediction-card').count()).toBe(0)
      await context.close()
    } finally {
      await broken.stop()
    }
  })
})
