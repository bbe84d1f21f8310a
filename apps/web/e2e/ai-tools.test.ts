// The AI tools list and tool pages in Chromium against a real server, at 1440 and 390 px (SPEC
// §3, §4, §7.2, §8): load-more paging, search, a page past the end, which tools run here, and
// running a tool (a real slow operation: 202 then the image) with the comparison slider, and the
// tool's code fetched only once the page has painted.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  chooseSample,
  dataLayerEvents,
  openPage,
  overflows,
  pollWithin,
  settled,
  signUp,
  startWebServer,
  type ViewportName,
  type WebServer,
  watchUnexpectedErrors,
  workerBrowser,
} from './harness.ts'

const poll = pollWithin(15_000)

let server: WebServer
let browser: Browser
let contentDir: string
const CONTENT = fileURLToPath(new URL('../../server/content/', import.meta.url))
const EXTRA = 20

// The extra tool whose operation this server cannot run.
const UNRUNNABLE = 19

beforeAll(async () => {
  // The shipped content plus 20 more AI tools, so the list has pages to load.
  contentDir = await mkdtemp(join(tmpdir(), 'tessera-content-'))
  await cp(CONTENT, contentDir, { recursive: true })
  const apps = JSON.parse(await readFile(join(CONTENT, 'dynamic-apps.json'), 'utf8')) as unknown[]
  for (let n = 1; n <= EXTRA; n++) {
    apps.push({
      slug: `extra-tool-${n}`,
      tags: ['ai-tools'],
      title: `Extra tool ${n}`,
      description: `A listed tool, number ${n}.`,
      thumbnailURL: '/v2/demo/t.resize(w:480,h:320)/samples/horse.png',
      isFeatured: false,
      url: `/ai-tools/extra-tool-${n}`,
      // One tool runs an operation no model here can run (generative), for the marking tests.
      transformation: n === UNRUNNABLE ? 'generate.bg()' : 't.grey()',
      createdAt: new Date(Date.UTC(2026, 0, n)).toISOString(),
    })
  }
  await writeFile(join(contentDir, 'dynamic-apps.json'), JSON.stringify(apps))
  server = await startWebServer({}, { contentDir })
  browser = await workerBrowser()
})

afterAll(async () => {
  await server?.stop()
  if (contentDir !== undefined) await rm(contentDir, { recursive: true, force: true })
})

// Visitor uploads (the 404s of a server without them) are tested in visitor.test.ts.
const watchConsole = (page: Page) => watchUnexpectedErrors(page, [/status of 404/])

const cards = (page: Page) => page.getByTestId('app-card')
const cardTitles = (page: Page) => cards(page).locator('h3').allInnerTexts()

async function open(viewport: ViewportName, path: string) {
  const opened = await openPage(browser, viewport, server.url)
  const errors = watchConsole(opened.page)
  await opened.page.goto(path)
  await settled(opened.page)
  return { ...opened, errors }
}

for (const viewport of ['desktop', 'mobile'] as const) {
  describe(`the AI tools list at ${viewport}`, () => {
    it('loads more pages by appending, without repeats, until the end', async () => {
      const { page, context, errors } = await open(viewport, '/ai-tools')
      // Page 1: the 3 featured tools, then 12 from the server.
      await expect(cards(page).count()).resolves.toBe(15)
      const first = await cardTitles(page)
      expect(first.slice(0, 3)).toEqual([
        'Background Remover',
        'Image Upscaler',
        'Watermark Remover',
      ])
      const more = page.getByRole('button', { name: 'Load more' })
      await more.click()
      await poll(() => cards(page).count()).toBeGreaterThan(15)
      const second = await cardTitles(page)
      expect(second.slice(0, 15)).toEqual(first)
      // Load until the button goes; the last page may hold only tools already listed.
      const loading = page.getByRole('button', { name: 'Loading…' })
      for (let pages = 2; (await more.count()) > 0 && pages < 10; pages++) {
        await more.click()
        await poll(() => loading.count()).toBe(0)
      }
      await expect(more.count()).resolves.toBe(0)
      const all = await cardTitles(page)
      // 5 shipped AI tools + 20 extra; the featured three are not repeated.
      expect(all).toHaveLength(5 + EXTRA)
      expect(new Set(all).size).toBe(all.length)
      expect(all).not.toContain('Untitled App')
      expect(errors).toEqual([])
      await context.close()
    })

    it('replaces the list on a search, and says when a page is past the end', async () => {
      const { page, context, errors } = await open(viewport, '/ai-tools')
      await page.getByRole('searchbox', { name: 'Search AI tools' }).fill('  crop  ')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.waitForURL(/[?&]q=/)
      await poll(() => cardTitles(page), { timeout: 10_000 }).toEqual(['Smart Crop'])
      await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0)
      await page.goto('/ai-tools?page=99')
      await poll(() => page.getByTestId('past-the-end').innerText()).toContain(
        'Page 99 is past the end of the list.',
      )
      await page.getByRole('link', { name: 'Back to the first page' }).click()
      await poll(() => cards(page).count()).toBe(15)
      expect(errors).toEqual([])
      await context.close()
    })

    it('marks the tools whose operations do not run on this server', async () => {
      const { page, context } = await open(viewport, '/ai-tools')
      const card = (title: string) =>
        cards(page).filter({ has: page.getByRole('heading', { name: title }) })
      await expect(
        card(`Extra tool ${UNRUNNABLE}`).getByTestId('not-usable').count(),
      ).resolves.toBe(1)
      await expect(card('Background Remover').getByTestId('not-usable').count()).resolves.toBe(0)
      await expect(card('Extra tool 20').getByTestId('not-usable').count()).resolves.toBe(0)
      await context.close()
    })
  })

  describe(`an AI tool page at ${viewport}`, () => {
    it('runs a sample through a slow operation (202, processing) and compares before and after', async () => {
      // Each width runs a sample not yet derived, so the server really answers 202 first.
      const file = viewport === 'desktop' ? 'chelsea.png' : 'camera.png'
      const { page, context, errors } = await open(viewport, '/ai-tools/smart-crop')
      await page.getByRole('button', { name: `Sample ${file}` }).click()
      await page.getByTestId('processing').waitFor({ timeout: 20_000 })
      await page.getByTestId('compare').waitFor({ timeout: 60_000 })
      await poll(() => page.getByTestId('after-size').innerText()).toMatch(
        /^600 × 600 px · png · [\d.]+ KB$/,
      )
      await expect(page.getByTestId('before-size').innerText()).resolves.toMatch(/^\d+ × \d+ px · /)
      await expect(overflows(page)).resolves.toBe(false)
      // The slider is a real range input: keys move the divide.
      const slider = page.getByRole('slider', { name: 'Before and after divide' })
      await slider.focus()
      await page.keyboard.press('End')
      await expect(slider.inputValue()).resolves.toBe('100')
      await page.keyboard.press('ArrowLeft')
      await expect(slider.inputValue()).resolves.toBe('99')
      await page.keyboard.press('PageDown')
      await expect(slider.inputValue()).resolves.toBe('89')
      await page.keyboard.press('Home')
      await expect(slider.inputValue()).resolves.toBe('0')
      const download = page.getByRole('link', { name: 'Download' })
      await expect(download.getAttribute('download')).resolves.toBe('smart-crop-result.png')
      await expect(download.getAttribute('href')).resolves.toMatch(/^blob:/)
      // The demo has strict transformations on: the visitor's run is the chain's URL signed by
      // the server's playground call (a demo key, an expiry, the access key).
      const runUrl = await page.getByTestId('run-url').innerText()
      const plain = `${server.url}/v2/demo/ic.crop(w:600,h:600,g:object)/samples/${file}`
      expect(runUrl.startsWith(`${plain}?`)).toBe(true)
      expect(runUrl.slice(plain.length)).toMatch(/^\?pbs=[0-9a-f]{64}&pbe=\d+&pbt=[0-9a-f]+$/)
      const seen = await dataLayerEvents(page)
      for (const name of ['transformation triggered', 'polling succeeded', 'success']) {
        expect(seen).toContain(name)
      }
      expect(errors).toEqual([])
      await context.close()
    })

    it('renders the tool on the server and fetches its code only once the page has painted', async () => {
      const path = '/ai-tools/background-remover'
      const html = await (await fetch(`${server.url}${path}`)).text()
      expect(html).toContain('data-testid="drop-zone"')
      const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)]
      expect(preloads.length).toBeGreaterThan(0)
      expect(preloads.filter((match) => /ai-tool-runner/.test(match[1] ?? ''))).toEqual([])
      const { page, context, errors } = await open(viewport, path)
      const started = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        code: performance
          .getEntriesByType('resource')
          .find((entry) => /\/ai-tool-runner-[^/]+\.js$/.test(entry.name))?.startTime,
      }))
      expect(started.paint).toBeTypeOf('number')
      expect(started.code).toBeTypeOf('number')
      expect(started.code).toBeGreaterThanOrEqual(started.paint ?? Number.POSITIVE_INFINITY)
      // Hydrated once it is there: a sample runs.
      await page.getByRole('button', { name: 'Sample rocket.jpg' }).click()
      await page.getByTestId('tool-result').waitFor()
      expect(errors).toEqual([])
      await context.close()
    })

    it('says so when the tool cannot run here', async () => {
      const { page, context, errors } = await open(viewport, `/ai-tools/extra-tool-${UNRUNNABLE}`)
      await poll(() => page.getByTestId('tool-not-runnable').innerText()).toContain(
        'does not run on this server',
      )
      await expect(page.getByRole('button', { name: /^Sample / }).count()).resolves.toBe(0)
      expect(errors).toEqual([])
      await context.close()
    })
  })
}

describe('the background remover', () => {
  it('shows the cut-out of a JPEG over a checkerboard and downloads it as a transparent PNG', async () => {
    const { page, context, errors } = await open('desktop', '/ai-tools/background-remover')
    await page.getByRole('button', { name: 'Sample rocket.jpg' }).click()
    await page.getByTestId('compare').waitFor({ timeout: 120_000 })
    await poll(() => page.getByTestId('after-size').innerText()).toMatch(
      /^640 × 427 px · png · [\d.]+ KB$/,
    )
    // The result is drawn over the page's checkerboard, with nothing opaque in between.
    const styles = await page.evaluate(() => {
      const compare = document.querySelector('[data-testid="compare"]')
      const after = document.querySelector('[data-testid="compare"] img[alt="After"]')
      if (compare === null || after === null) return undefined
      return {
        board: getComputedStyle(compare).backgroundImage,
        after: getComputedStyle(after).backgroundColor,
      }
    })
    expect(styles?.board).toContain('conic-gradient')
    expect(styles?.after).toBe('rgba(0, 0, 0, 0)')
    const download = page.getByRole('link', { name: 'Download' })
    await expect(download.getAttribute('download')).resolves.toBe('background-remover-result.png')
    // What the link downloads is the image shown (the same blob): drawn on a canvas by the page
    // (the page's CSP lets no script fetch it), part of it is fully transparent.
    const href = (await download.getAttribute('href')) ?? ''
    const found = await page.evaluate((url) => {
      const shown = document.querySelector<HTMLImageElement>(
        '[data-testid="compare"] img[alt="After"]',
      )
      if (shown === null || shown.src !== url) return undefined
      const canvas = document.createElement('canvas')
      canvas.width = shown.naturalWidth
      canvas.height = shown.naturalHeight
      const context2d = canvas.getContext('2d')
      if (context2d === null) return undefined
      context2d.drawImage(shown, 0, 0)
      const { data } = context2d.getImageData(0, 0, canvas.width, canvas.height)
      let transparent = 0
      for (let i = 3; i < data.length; i += 4) if (data[i] === 0) transparent++
      return { transparent: transparent / (canvas.width * canvas.height) }
    }, href)
    expect(found).toBeDefined()
    expect(found?.transparent).toBeGreaterThan(0.05)
    expect(errors).toEqual([])
    await context.close()
  }, 300_000)
})

describe('an AI tool signed in', () => {
  it('runs in the organisation: uploads there, shows the credits and spends one', async () => {
    const { page, context } = await openPage(browser, 'desktop', server.url)
    const errors = watchConsole(page)
    await signUp(page)
    await page.goto('/ai-tools/smart-crop')
    await poll(() => page.getByTestId('tool-credits').innerText()).toContain('50 credits left')
    await chooseSample(page, 'coffee.png')
    await page.getByTestId('compare').waitFor({ timeout: 60_000 })
    const runUrl = await page.getByTestId('run-url').innerText()
    expect(runUrl).toMatch(
      // New organisations are strict: the member's run is signed with the organisation's key.
      /\/v2\/[a-z0-9-]+\/ic\.crop\(w:600,h:600,g:object\)\/playground\/coffee\.png\?pbs=[0-9a-f]{64}&pbe=\d+&pbt=[0-9a-f]+$/,
    )
    expect(runUrl).not.toContain('/v2/demo/')
    await poll(() => page.getByTestId('tool-credits').innerText()).toContain('49 credits left')
    expect(errors).toEqual([])
    await context.close()
  })
})
