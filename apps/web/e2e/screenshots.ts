// Full-page screenshots of every page at 1440 px and 390 px into docs/screenshots/
// (`npm run screenshots -w @tessera/web`; builds the app first).
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { STATIC_PAGES } from '../app/lib/site-routes.ts'
import { launchBrowser, openPage, startWebServer, uniqueEmail, VIEWPORTS } from './harness.ts'

const OUT = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
const PAGES = [
  ...STATIC_PAGES,
  '/usecase/image-branding',
  '/ai-tools/background-remover',
  '/apps/image-upscaler',
  // One operation: the long t plugin page would be a 3 MB picture.
  '/api/plugin?plugin=ic',
  '/docs/transformations/basic/resize',
  '/docs/presets/using',
  '/predictions/ic_crop',
  '/page-not-found',
  '/console/auth/login',
  '/console/auth/signup',
]

const nameOf = (path: string) =>
  path === '/'
    ? 'home'
    : path
        .slice(1)
        .replace(/[/?=&]+/g, '-')
        .replace(/-+$/, '')

const server = await startWebServer()
const browser = await launchBrowser()
await mkdir(OUT, { recursive: true })
try {
  for (const viewport of ['desktop', 'mobile'] as const) {
    const width = VIEWPORTS[viewport].width
    const { page, context } = await openPage(browser, viewport, server.url)
    const shoot = async (path: string, name = nameOf(path)) => {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      // Slow operations' examples (202 until their job is done) are fetched with retries.
      await page.waitForFunction(() => document.querySelector('.is-placeholder') === null, null, {
        timeout: 30_000,
      })
      // Lazy images below the fold load before a full-page shot.
      await page.evaluate(async () => {
        for (const img of document.querySelectorAll('img[loading="lazy"]'))
          img.setAttribute('loading', 'eager')
        await Promise.all(
          [...document.images].map((img) => (img.complete ? null : img.decode().catch(() => null))),
        )
      })
      await page.screenshot({
        path: `${OUT}${name}-${width}.jpg`,
        fullPage: true,
        type: 'jpeg',
        quality: 82,
      })
    }
    for (const path of PAGES) await shoot(path)
    // The playground on a shared chain, and an AI tool's before and after (a real slow run).
    const chain =
      't.resize(w:480,h:360)~t.rotate(a:6,b:ffffff)~t.extend(t:16,l:16,b:16,r:16,bc:ffffff)'
    await shoot(
      `/playground?url=${encodeURIComponent(`${server.url}/v2/demo/${chain}/samples/coffee.png`)}`,
      'playground',
    )
    await page.goto('/ai-tools/smart-crop')
    await page.waitForLoadState('networkidle')
    await page.getByRole('button', { name: 'Sample chelsea.png' }).click()
    await page.getByTestId('compare').waitFor({ timeout: 90_000 })
    await page.waitForLoadState('networkidle')
    await page.screenshot({
      path: `${OUT}ai-tool-compare-${width}.jpg`,
      fullPage: true,
      type: 'jpeg',
      quality: 82,
    })
    // Signed in: the console and the site's greeting.
    await page.goto('/console/auth/signup')
    await page.waitForLoadState('networkidle')
    await page.fill('#firstName', 'Ada')
    await page.fill('#lastName', 'Lovelace')
    await page.fill('#email', uniqueEmail())
    await page.fill('#password', 'a long enough password')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(/\/console$/)
    await shoot('/console', 'console-home')
    await shoot('/console/choose-org', 'console-choose-org')
    await shoot('/features', 'signed-in-features')
    await shoot('/predictions/ic_crop', 'signed-in-prediction')
    await context.close()
  }
} finally {
  await browser.close()
  await server.stop()
}
console.log(`screenshots written to ${OUT}`)
