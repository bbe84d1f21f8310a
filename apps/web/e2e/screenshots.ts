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
    await context.close()
  }
} finally {
  await browser.close()
  await server.stop()
}
console.log(`screenshots written to ${OUT}`)
