// When a page has settled: hydrated, and no request of its own in flight for a short while.
// Playwright's `networkidle` waits for 500 ms without a request after every navigation, which
// made up most of a browser suite's time (the responsive suite loads 33 pages at 13 widths).
// A page watched from its start is judged by its own requests instead: settled once none has
// been in flight for QUIET_MS.
import type { Page, Request } from 'playwright-core'

/** How long a page must have had no request in flight to count as settled. */
const QUIET_MS = 150
/** How long to wait for quiet before failing, as Playwright's own default. */
const SETTLE_TIMEOUT_MS = 30_000

interface Traffic {
  readonly inFlight: Set<Request>
  lastChange: number
}

const watched = new WeakMap<Page, Traffic>()

/** Starts counting a page's requests; call it before the page's first navigation. */
export function watchTraffic(page: Page): void {
  if (watched.has(page)) return
  const traffic: Traffic = { inFlight: new Set(), lastChange: Date.now() }
  const done = (request: Request) => {
    traffic.inFlight.delete(request)
    traffic.lastChange = Date.now()
  }
  page.on('request', (request) => {
    traffic.inFlight.add(request)
    traffic.lastChange = Date.now()
  })
  page.on('requestfinished', done)
  page.on('requestfailed', done)
  watched.set(page, traffic)
}

/**
 * Waits until the page has had no request in flight for QUIET_MS. A page nobody watched from
 * its start is watched from now on, and this once waits for Playwright's `networkidle` (the
 * requests already under way are not known).
 */
export async function networkQuiet(page: Page): Promise<void> {
  const traffic = watched.get(page)
  if (traffic === undefined) {
    watchTraffic(page)
    await page.waitForLoadState('networkidle')
    return
  }
  const deadline = Date.now() + SETTLE_TIMEOUT_MS
  for (;;) {
    const now = Date.now()
    if (traffic.inFlight.size === 0 && now - traffic.lastChange >= QUIET_MS) return
    if (now > deadline) {
      const urls = [...traffic.inFlight].map((request) => request.url())
      throw new Error(`the page did not settle in ${SETTLE_TIMEOUT_MS} ms; in flight: ${urls}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
