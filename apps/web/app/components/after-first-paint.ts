// When a page's secondary code may load: once the browser has put the server-rendered page on
// screen. Code fetched before that competes with the page's first paint on a slow phone (and
// Lighthouse counts every script that finished before the first paint as blocking it).

/** Longest wait for a first paint that never comes (a tab opened in the background). */
const FIRST_PAINT_WAIT_MS = 5_000

/**
 * Resolves once the page's first contentful paint has been presented, at once on the server, on
 * a later visit in the same tab (a client-side navigation) and where paint timing is missing.
 */
export function afterFirstPaint(): Promise<void> {
  if (
    typeof window === 'undefined' ||
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes.includes('paint') ||
    performance.getEntriesByName('first-contentful-paint').length > 0
  ) {
    return Promise.resolve()
  }
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect()
      clearTimeout(timer)
      resolve()
    }
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) done()
    })
    observer.observe({ type: 'paint', buffered: true })
    const timer = setTimeout(done, FIRST_PAINT_WAIT_MS)
  })
}
