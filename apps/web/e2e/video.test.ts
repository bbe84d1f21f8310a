// Videos in the console and the playground (issue 23), in Chromium against a real server, at 1440
// and 390 px: a clip made with ffmpeg is uploaded; the library shows its first frame and length;
// the file panel plays it; the playground takes a video upload, plays it, and plays the video a
// chain makes (a job: 202 until it is stored).
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeClip } from '../../../packages/media/src/index.ts'
import {
  firstOrganisation,
  openPage,
  overflows,
  pollWithin,
  settled,
  signUp,
  startWebServer,
  type ViewportName,
  type WebServer,
  workerBrowser,
} from './harness.ts'

const poll = pollWithin(60_000)
const SHOTS = process.env.VIDEO_E2E_SHOTS

let server: WebServer
let browser: Browser
let clip: Buffer

beforeAll(async () => {
  server = await startWebServer()
  browser = await workerBrowser()
  clip = await makeClip({ width: 64, height: 48, seconds: 2, fps: 25 })
})
afterAll(async () => {
  await server?.stop()
})

/** The natural width of an `<img>` once it has loaded (0 while it has not, or if it failed). */
const loadedWidth = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0))

/** A `<video>`'s duration once its metadata is read (0 before). */
const videoDuration = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .first()
    .evaluate((video: HTMLVideoElement) => (video.readyState >= 1 ? video.duration : 0))

async function shot(page: Page, name: string) {
  if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

describe.each<ViewportName>(['desktop', 'mobile'])('videos at %s width', (viewport) => {
  it('shows a video in the library, plays it in the file panel and in the playground', async () => {
    const { page, context, errors } = await openPage(browser, viewport, server.url)
    await signUp(page)
    const org = await firstOrganisation(page)

    // Upload through the console's upload page.
    await page.goto('/console/editor/upload')
    await settled(page)
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: clip })
    await page.getByTestId('count-success').filter({ hasText: '1 uploaded' }).waitFor()

    // The library: the first frame as the thumbnail, and the length over it.
    await page.goto('/console/editor')
    await settled(page)
    const item = page.locator('[data-testid="library-item"][data-name="clip.mp4"]')
    await item.waitFor()
    await poll(() => item.getByTestId('item-duration').innerText()).toBe('0:02')
    await poll(() => loadedWidth(page, '[data-name="clip.mp4"] .item-thumb img')).toBeGreaterThan(0)
    await expect(overflows(page)).resolves.toBe(false)
    await shot(page, `library-${viewport}`)

    // The file panel plays the original.
    await item.getByRole('button', { name: 'Show clip.mp4' }).click()
    const player = page.getByTestId('file-video')
    await player.waitFor()
    expect(await player.getAttribute('src')).toBe(
      `${server.url}/v2/${org.cloudName}/original/clip.mp4`,
    )
    await poll(() => videoDuration(page, 'file-video')).toBeCloseTo(2, 0)
    await poll(() => page.getByTestId('file-duration').innerText()).toContain('0:02 · h264')
    await shot(page, `file-panel-${viewport}`)

    // The playground takes a video upload and plays it.
    await page.goto(`/console/organization/${org._id}/playground`)
    await page.getByTestId('playground').waitFor()
    await settled(page)
    await page
      .locator('.pg-upload input[type=file]')
      .setInputFiles({ name: 'walk.mp4', mimeType: 'video/mp4', buffer: clip })
    await poll(() => page.getByTestId('url-snippet').innerText()).toBe(
      `${server.url}/v2/${org.cloudName}/original/playground/walk.mp4`,
    )
    await poll(() => videoDuration(page, 'pg-video')).toBeCloseTo(2, 0)

    // A chain that writes a video: queued, then played, with its size in the details.
    const chained = `${server.url}/v2/${org.cloudName}/t.resize(w:32,h:24)~t.toFormat(f:webm)/playground/walk.mp4`
    await page.goto(
      `/console/organization/${org._id}/playground?url=${encodeURIComponent(chained)}`,
    )
    await page.getByTestId('playground').waitFor()
    await poll(() => page.getByTestId('result-details').innerText()).toContain('32 × 24 px · webm')
    await poll(() => videoDuration(page, 'pg-video')).toBeCloseTo(2, 0)
    await expect(overflows(page)).resolves.toBe(false)
    await shot(page, `playground-${viewport}`)

    // The vid plugin's page says it runs on videos and shows no broken example.
    await page.goto('/api/plugin?plugin=vid')
    await settled(page)
    await expect(page.getByTestId('video-note').count()).resolves.toBe(2)
    await expect(page.getByTestId('example-result').count()).resolves.toBe(0)
    await expect(overflows(page)).resolves.toBe(false)
    await shot(page, `plugin-vid-${viewport}`)

    expect(errors).toEqual([])
    await context.close()
  }, 240_000)
})
