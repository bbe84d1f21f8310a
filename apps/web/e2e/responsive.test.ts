// Every page at every SPEC §9 breakpoint (and one pixel below each): nothing wider than the
// window (content that scrolls inside its own box, like a code block, aside), the header in its
// desktop or hamburger form on the right side of 1350 px, and the page's main heading visible.
// The layout is CSS alone (no script reads the window's width), so each page is loaded once and
// the window resized through the widths, as a visitor resizing it would: 33 loads, not 430.
import { describe, expect, it } from 'vitest'
import { STATIC_PAGES } from '../app/lib/site-routes.ts'
import { BREAKPOINTS } from '../app/lib/tokens.ts'
import { settled, watchConsoleErrors } from './harness.ts'
import { webSuite } from './suite.ts'
import { watchTraffic } from './traffic.ts'

const web = webSuite()

const PAGES = [
  ...STATIC_PAGES.filter((path) => path !== '/playground'),
  '/usecase/image-branding',
  '/ai-tools/background-remover',
  '/api/plugin?plugin=t',
  '/docs/transformations/basic/resize',
  '/docs/rest-api',
  '/predictions/ic_crop',
  '/console/auth/login',
  '/console/auth/signup',
]
const WIDTHS = [
  ...new Set(
    [320, ...Object.values(BREAKPOINTS).flatMap((width) => [width - 1, width])].sort(
      (a, b) => a - b,
    ),
  ),
]

describe('responsive layout at the SPEC breakpoints', () => {
  it.each(PAGES)('has no horizontal overflow on %s at any breakpoint', async (path) => {
    const context = await web.browser.newContext({
      viewport: { width: WIDTHS[0] as number, height: 900 },
      baseURL: web.server.url,
    })
    const page = await context.newPage()
    watchTraffic(page)
    // An anonymous visitor's pages log no errors (no failing session call, no broken image).
    const consoleErrors = watchConsoleErrors(page)
    try {
      await page.goto(path)
      await settled(page)
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 })
        // The new layout is drawn before it is measured.
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
        const overflow = await page.evaluate(() => {
          const root = document.documentElement
          // Wider content inside a box that scrolls or clips it (a code block) is that box's
          // business, as long as the box itself fits.
          const contained = (element: HTMLElement) => {
            for (
              let box = element.parentElement;
              box !== null && box !== document.body;
              box = box.parentElement
            ) {
              if (getComputedStyle(box).overflowX !== 'visible') {
                return box.getBoundingClientRect().right <= root.clientWidth + 1
              }
            }
            return false
          }
          const wide = [...document.querySelectorAll<HTMLElement>('body *')]
            .filter((element) => {
              const box = element.getBoundingClientRect()
              const style = getComputedStyle(element)
              return (
                box.width > 0 &&
                box.right > root.clientWidth + 1 &&
                style.position !== 'fixed' &&
                !contained(element) &&
                !element.closest('[aria-hidden="true"], [hidden], dialog:not([open])')
              )
            })
            .slice(0, 3)
            .map((element) => `${element.tagName.toLowerCase()}.${element.className}`)
          // Text wider than its box (an unbroken word) overflows without widening the box.
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
          for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
            const parent = node.parentElement
            if (
              parent === null ||
              contained(parent) ||
              parent.closest('[aria-hidden="true"], [hidden]')
            ) {
              continue
            }
            const range = document.createRange()
            range.selectNodeContents(node)
            if (range.getBoundingClientRect().right > root.clientWidth + 1) {
              wide.push(`text "${(node.textContent ?? '').trim().slice(0, 40)}"`)
            }
          }
          return { scroll: root.scrollWidth - root.clientWidth, wide }
        })
        expect(overflow, `${path} at ${width} px`).toEqual({ scroll: 0, wide: [] })
        if (!path.startsWith('/console')) {
          const hamburger = page.getByRole('button', { name: /menu/i }).first()
          expect(await hamburger.isVisible(), `${path} hamburger at ${width} px`).toBe(
            width < BREAKPOINTS.topNavBar,
          )
        }
        expect(await page.locator('h1').first().isVisible(), `${path} heading at ${width} px`).toBe(
          true,
        )
      }
      expect(consoleErrors).toEqual([])
    } finally {
      await context.close()
    }
  })
})
