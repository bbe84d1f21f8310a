// Makes the home page's product video (SPEC §2.8) from the product itself, with no video tools:
// a real server runs the demo data, Chromium screenshots our own pages and fetches live delivery
// URLs, a canvas plays them as scenes (a URL being edited, the image updating), and MediaRecorder
// records the canvas as WebM (VP9). Writes the video, its poster, its captions and its length and
// scene list (product-video.json) to app/assets/.
//
//   npm run video -w @tessera/web        (builds the site first; about 40 s)
//
// The script (scenes, steps, captions), the WebM duration fix and the drawing in the page are
// product-video-scenes.ts, product-video-webm.ts and product-video-render.ts.
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { launchBrowser, startWebServer } from './harness.ts'
import { renderInPage } from './product-video-render.ts'
import { captions, FILE, SCENES, STEPS, total } from './product-video-scenes.ts'
import { withDuration } from './product-video-webm.ts'

const OUT = fileURLToPath(new URL('../app/assets/', import.meta.url))
const WIDTH = 1280
const HEIGHT = 720
const FPS = 25
const BITS_PER_SECOND = 700_000

// ── recording ─────────────────────────────────────────────────────────────────────────────────

async function screenshot(page: Page, path: string): Promise<Buffer> {
  await page.goto(path)
  await page.waitForLoadState('networkidle')
  // Only the images in view: decode() of a lazy image below the fold waits for ever.
  await page.evaluate(async () => {
    const inView = [...document.images].filter(
      (img) => img.getBoundingClientRect().top < window.innerHeight,
    )
    await Promise.all(inView.map((img) => img.decode().catch(() => null)))
  })
  return page.screenshot({ type: 'png' })
}

const log = (message: string) => console.log(`[video] ${message}`)
const server = await startWebServer()
const browser = await launchBrowser()
try {
  const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } })
  const shots = new Map<string, Buffer>()
  // The site at desktop width (16:9), so it shows its full header rather than the phone menu.
  const site = await browser.newPage({ viewport: { width: 1440, height: 810 } })
  log('screenshots of the site')
  shots.set('home', await screenshot(site, `${server.url}/`))
  shots.set('tools', await screenshot(site, `${server.url}/ai-tools`))
  await site.close()

  // Every step must be a URL the server delivers; the sizes shown are the real answers.
  const steps = []
  for (const step of STEPS) {
    const path = `/v2/demo/${step.chain}/${FILE}`
    const response = await fetch(`${server.url}${path}?f_auto=true`, {
      headers: { accept: 'image/avif,image/webp,*/*' },
    })
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`)
    const bytes = (await response.arrayBuffer()).byteLength
    steps.push({ ...step, path, bytes, type: response.headers.get('content-type') ?? '' })
  }

  log(`recording ${total} s`)
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(message.text())
  })
  await page.route('**/__video/**', async (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop() ?? ''
    if (name === 'index.html') {
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><body></body>' })
    }
    const shot = shots.get(name.replace('.png', ''))
    return shot === undefined
      ? route.fulfill({ status: 404 })
      : route.fulfill({ contentType: 'image/png', body: shot })
  })
  // Same origin as the server, so the canvas stays readable (captureStream, toDataURL).
  await page.goto(`${server.url}/__video/index.html`)
  const result = await page.evaluate(renderInPage, {
    width: WIDTH,
    height: HEIGHT,
    fps: FPS,
    bitsPerSecond: BITS_PER_SECOND,
    scenes: SCENES.map(({ id, seconds, caption }) => ({ id, seconds, caption })),
    steps,
  })
  const webm = withDuration(Buffer.from(result.video, 'base64'), result.durationMs)
  await writeFile(`${OUT}product-video.webm`, webm)
  await writeFile(`${OUT}product-video-poster.jpg`, Buffer.from(result.poster, 'base64'))
  await writeFile(`${OUT}product-video.vtt`, captions())
  // What the page says about the video: its length and, for people who cannot watch it, the
  // scenes in words.
  const about = {
    seconds: Math.round(result.durationMs / 100) / 10,
    width: WIDTH,
    height: HEIGHT,
    scenes: SCENES.map((scene) => scene.caption),
  }
  await writeFile(`${OUT}product-video.json`, `${JSON.stringify(about, null, 2)}\n`)
  console.log(
    `product video: ${(webm.length / 1024).toFixed(0)} KB, ${(result.durationMs / 1000).toFixed(1)} s (${total} s planned), ${result.mimeType} → ${OUT}`,
  )
  await context.close()
} finally {
  await browser.close()
  await server.stop()
}
