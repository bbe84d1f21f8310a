// The home page's product video overlay (SPEC §2.8, §4) and recent blog posts (SPEC §3) in
// Chromium against a real server, at 1440 px and 390 px.
import { readFile } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, settled, startWebServer, type WebServer, workerBrowser } from './harness.ts'

const BLOG_URL = 'https://blog.tessera.test'

let server: WebServer
let browser: Browser

beforeAll(async () => {
  server = await startWebServer({ WEB_BLOG_URL: BLOG_URL })
  browser = await workerBrowser()
})

afterAll(async () => {
  await server?.stop()
})

interface SeededPost {
  title: string
  slug: string
  publishedAt: string
}
const seeded = JSON.parse(
  await readFile(new URL('../../server/content/blog-posts.json', import.meta.url), 'utf8'),
) as SeededPost[]
const newestFirst = [...seeded].sort(
  (a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt),
)

/** What the overlay test needs to know about the page at one moment. */
function overlayState(page: Page) {
  return page.evaluate(() => {
    const dialog = document.querySelector<HTMLDialogElement>('[data-testid="video-overlay"]')
    const video = dialog?.querySelector('video')
    const active = document.activeElement
    return {
      open: dialog?.open ?? false,
      hasVideo: video !== null && video !== undefined,
      rootOverflow: getComputedStyle(document.documentElement).overflow,
      bodyOverflow: getComputedStyle(document.body).overflow,
      scrollY: window.scrollY,
      focused: active?.getAttribute('data-testid') ?? active?.tagName ?? null,
    }
  })
}

async function openOverlay(page: Page) {
  await page.getByRole('button', { name: /Watch the product video/ }).click()
  await page.waitForFunction(() => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="video-overlay"] video')
    return video !== null && !video.paused && video.currentTime > 0.2
  })
}

describe.each(['desktop', 'mobile'] as const)('product video at %s width', (viewport) => {
  it('opens full screen with the video playing, muted, with captions, and locks scrolling', async () => {
    const { page, context, errors } = await openPage(browser, viewport, server.url)
    await page.goto('/')
    await settled(page)
    expect((await overlayState(page)).hasVideo).toBe(false)
    await page.evaluate(() => window.scrollTo(0, 120))
    const before = await page.evaluate(() => window.scrollY)
    await openOverlay(page)

    const open = await overlayState(page)
    expect(open.open).toBe(true)
    expect(open.focused).toBe('video-close')
    expect([open.rootOverflow, open.bodyOverflow]).toEqual(['hidden', 'hidden'])
    // Full screen: the overlay covers the viewport.
    const box = await page.getByTestId('video-overlay').boundingBox()
    const size = page.viewportSize()
    expect(box).toMatchObject({ x: 0, y: 0, width: size?.width, height: size?.height })
    // Named for assistive technology, and the page behind is inert.
    const dialog = page.getByRole('dialog', { name: /Tessera in 0:\d\d/ })
    expect(await dialog.isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Close the video' }).isVisible()).toBe(true)

    const video = await page.evaluate(async () => {
      const element = document.querySelector('dialog video') as HTMLVideoElement
      const start = element.currentTime
      // Playing means the media time moves on: wait for the media's own report that it has.
      const advanced = await new Promise<number>((resolve) => {
        const onTime = () => {
          if (element.currentTime <= start) return
          element.removeEventListener('timeupdate', onTime)
          resolve(element.currentTime - start)
        }
        element.addEventListener('timeupdate', onTime)
      })
      const track = element.textTracks[0]
      return {
        advanced,
        paused: element.paused,
        muted: element.muted,
        autoplay: element.autoplay,
        playsInline: element.playsInline,
        controls: element.controls,
        poster: element.poster,
        src: element.currentSrc,
        duration: element.duration,
        captions: track?.kind,
        captionMode: track?.mode,
      }
    })
    expect(video.paused).toBe(false)
    expect(video.advanced).toBeGreaterThan(0)
    expect(video).toMatchObject({
      muted: true,
      autoplay: true,
      playsInline: true,
      controls: true,
      captions: 'captions',
      // Off by default: the captions are drawn into the picture too.
      captionMode: 'disabled',
    })
    expect(video.poster).toMatch(/\/static\/product-video-poster-[\w-]+\.jpg$/)
    expect(video.src).toMatch(/\/static\/product-video-[\w-]+\.webm$/)
    expect(video.duration).toBeGreaterThan(15)
    expect(video.duration).toBeLessThan(30)
    // The captions track loads when switched on, with one cue per scene.
    const cues = await page.evaluate(async () => {
      const element = document.querySelector('dialog video track') as HTMLTrackElement | null
      if (element === null) return 0
      const loaded = new Promise((resolve) => element.addEventListener('load', resolve))
      element.track.mode = 'showing'
      // 2 is LOADED: the cues are parsed; otherwise their load event says when they are.
      if (element.readyState !== 2) await loaded
      return element.track.cues?.length ?? 0
    })
    expect(cues).toBe(5)

    // Wheel and touch scrolling leave the page where it was.
    if (viewport === 'desktop') {
      await page.mouse.move(10, 10)
      // Wait for the page to receive the wheel and draw two frames after it: a scroll the wheel
      // caused would show in scrollY by then.
      await page.evaluate(() => {
        const target = window as unknown as { wheeled?: Promise<boolean> }
        target.wheeled = new Promise<boolean>((resolve) =>
          window.addEventListener(
            'wheel',
            () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))),
            { once: true, capture: true },
          ),
        )
      })
      await page.mouse.wheel(0, 800)
      expect(
        await page.evaluate(() => (window as unknown as { wheeled: Promise<boolean> }).wheeled),
      ).toBe(true)
    }
    expect((await overlayState(page)).scrollY).toBe(before)
    expect(errors).toEqual([])
    await context.close()
  })

  it('closes with the close button: hidden again, scrolling restored, focus back on the button', async () => {
    const { page, context, errors } = await openPage(browser, viewport, server.url)
    await page.goto('/')
    await settled(page)
    await page.evaluate(() => window.scrollTo(0, 80))
    const before = await page.evaluate(() => window.scrollY)
    await openOverlay(page)
    await page.getByRole('button', { name: 'Close the video' }).click()

    const closed = await overlayState(page)
    expect(closed).toMatchObject({ open: false, hasVideo: false, focused: 'video-trigger' })
    expect(closed.rootOverflow).not.toBe('hidden')
    expect(closed.bodyOverflow).not.toBe('hidden')
    expect(closed.scrollY).toBe(before)
    expect(await page.getByTestId('video-overlay').isVisible()).toBe(false)
    // Scrolling works again.
    if (viewport === 'desktop') {
      await page.mouse.wheel(0, 600)
      await page.waitForFunction((y) => window.scrollY > y, before)
    } else {
      await page.evaluate(() => window.scrollBy(0, 600))
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(before)
    }
    expect(errors).toEqual([])
    await context.close()
  })

  it('closes with Escape and opens again', async () => {
    const { page, context, errors } = await openPage(browser, viewport, server.url)
    await page.goto('/')
    await settled(page)
    await openOverlay(page)
    await page.keyboard.press('Escape')
    await page.waitForFunction(
      () => !document.querySelector<HTMLDialogElement>('[data-testid="video-overlay"]')?.open,
    )
    const closed = await overlayState(page)
    expect(closed).toMatchObject({ open: false, hasVideo: false, focused: 'video-trigger' })
    expect(closed.rootOverflow).not.toBe('hidden')
    // The keyboard opens it again from the focused button, and the video starts over.
    await page.keyboard.press('Enter')
    await page
      .waitForFunction(() => {
        const video = document.querySelector<HTMLVideoElement>('dialog video')
        return video !== null && !video.paused
      })
      .catch(async (error: unknown) => {
        // Say what the page looked like, so a failure on a busy CI machine can be understood.
        const state = await page.evaluate(() => {
          const video = document.querySelector<HTMLVideoElement>('dialog video')
          return {
            open: document.querySelector<HTMLDialogElement>('dialog')?.open,
            focused: document.activeElement?.getAttribute('data-testid'),
            video: video && {
              paused: video.paused,
              ready: video.readyState,
              network: video.networkState,
              error: video.error?.code,
            },
          }
        })
        throw new Error(`the video did not play again: ${JSON.stringify(state)}`, { cause: error })
      })
    expect((await overlayState(page)).open).toBe(true)
    await page.keyboard.press('Escape')
    await page.waitForFunction(() => document.querySelector('dialog video') === null)
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('product video files', () => {
  it('serves the video, poster and captions from /static/ with immutable caching', async () => {
    const html = await (await fetch(`${server.url}/`)).text()
    // Nothing of the video loads with the page; its URLs are known once the overlay opens.
    const { page, context } = await openPage(browser, 'desktop', server.url)
    await page.goto('/')
    await settled(page)
    await openOverlay(page)
    const urls = await page.evaluate(() => {
      const video = document.querySelector('dialog video') as HTMLVideoElement
      return { video: video.currentSrc, poster: video.poster }
    })
    await context.close()
    expect(html).not.toContain('.webm')
    const video = await fetch(urls.video)
    expect(video.status).toBe(200)
    expect(video.headers.get('content-type')).toBe('video/webm')
    expect(video.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const bytes = new Uint8Array(await video.arrayBuffer())
    expect(bytes.length).toBeLessThan(3 * 1024 * 1024)
    // An EBML (WebM) file.
    expect([...bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3])
    const poster = await fetch(urls.poster)
    expect(poster.headers.get('content-type')).toBe('image/jpeg')
    await poster.arrayBuffer()
  })
})

describe.each(['desktop', 'mobile'] as const)('recent blog posts at %s width', (viewport) => {
  it('lists the seeded posts newest first, linking to the blog', async () => {
    const { page, context, errors } = await openPage(browser, viewport, server.url)
    await page.goto('/')
    await settled(page)
    const section = page.getByRole('region', { name: 'From the blog' })
    await section.scrollIntoViewIfNeeded()
    const posts = await section.locator('article').evaluateAll((articles) =>
      articles.map((article) => {
        const link = article.querySelector('h3 a') as HTMLAnchorElement
        const image = article.querySelector('img')
        return {
          title: link.textContent,
          href: link.href,
          target: link.target,
          date: article.querySelector('time')?.getAttribute('datetime'),
          image: image?.getAttribute('src') ?? '',
        }
      }),
    )
    expect(posts.map((post) => post.title)).toEqual(
      newestFirst.slice(0, 3).map((post) => post.title),
    )
    expect(posts.map((post) => post.href)).toEqual(
      newestFirst.slice(0, 3).map((post) => `${BLOG_URL}/${post.slug}`),
    )
    expect(posts.map((post) => post.date)).toEqual(
      newestFirst.slice(0, 3).map((post) => post.publishedAt),
    )
    for (const post of posts) {
      expect(post.target).toBe('_blank')
      expect(post.image).toContain('/v2/demo/')
    }
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="recent-posts"] img')].every(
        (image) =>
          (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0,
      ),
    )
    const visit = section.getByRole('link', { name: /Visit the blog/ })
    expect(await visit.getAttribute('href')).toBe(BLOG_URL)
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('when the CMS fails', () => {
  it('leaves the blog section out and still renders the page', async () => {
    // Nothing listens on port 9: every CMS call fails.
    const broken = await startWebServer({ WEB_CMS_URL: 'http://127.0.0.1:9/cms' })
    try {
      const response = await fetch(`${broken.url}/`)
      expect(response.status).toBe(200)
      const html = await response.text()
      expect(html).toContain('Watch the product video')
      expect(html).not.toContain('From the blog')
      expect(html).not.toContain('data-testid="recent-posts"')
    } finally {
      await broken.stop()
    }
  })
})
