// A console a team can run on (issue 24), in Chromium at 1440 and 390 px: usage over time on
// Home (charts over a date range and their table), delivery read by another site's script
// (fetch and a canvas) as the organisation's CORS setting allows, a custom domain added,
// proven with a DNS TXT record (a DNS server of the test's own) and delivering, and the
// activity log with its filters. Screenshots of each page go to $TMPDIR/tessera-team-*.png.
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  firstOrganisation,
  openPage,
  overflows,
  sampleFile,
  settled,
  signUp,
  startWebServer,
  submitSignUp,
  type ViewportName,
  type WebServer,
  watchUnexpectedErrors,
  workerBrowser,
} from './harness.ts'

interface DnsResponder {
  records: { txt: Map<string, string[]>; a: Map<string, string> }
  address: string
  close(): Promise<void>
}

// Loaded by path at run time, as the harness loads the server (its Node types stay its own).
const dnsModule = new URL('../../server/src/domains/dns-responder.ts', import.meta.url).href

/** A page of "another site": it reads `url` with fetch() and through a canvas, and says how. */
function otherSite(): Promise<Server> {
  const page = `<!doctype html><meta charset="utf-8"><title>other site</title>
<script>
window.readImage = async (url) => {
  const result = {}
  try {
    const response = await fetch(url, { mode: 'cors' })
    result.fetch = response.status + ' ' + (await response.blob()).size
  } catch (error) { result.fetch = 'blocked' }
  result.canvas = await new Promise((resolve) => {
    const img = new Image()
    img.crossOrigin = 'anonymous'
    img.onload = () => {
      const canvas = document.createElement('canvas')
      canvas.width = img.width
      canvas.height = img.height
      const context = canvas.getContext('2d')
      context.drawImage(img, 0, 0)
      try { resolve('read ' + context.getImageData(0, 0, 1, 1).data.length) }
      catch (error) { resolve('tainted') }
    }
    img.onerror = () => resolve('blocked')
    img.src = url
  })
  return result
}
</script>`
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(page)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** A GET to the Tessera server with this Host header (a visitor of the custom domain). */
function getVia(
  url: string,
  host: string,
  path: string,
): Promise<{ status: number; type: string }> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, headers: { host } }, (response) => {
      response.resume()
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          type: String(response.headers['content-type'] ?? ''),
        }),
      )
    })
    sent.on('error', reject)
    sent.end()
  })
}

const shot = (page: Page, name: string, viewport: ViewportName) =>
  page.screenshot({ path: join(tmpdir(), `tessera-team-${name}-${viewport}.png`), fullPage: true })

describe.each<ViewportName>(['desktop', 'mobile'])('running a team at %s width', (viewport) => {
  let server: WebServer
  let browser: Browser
  let dns: DnsResponder
  let site: Server

  beforeAll(async () => {
    const { startDnsResponder } = (await import(dnsModule)) as {
      startDnsResponder: () => Promise<DnsResponder>
    }
    dns = await startDnsResponder()
    site = await otherSite()
    server = await startWebServer({
      DOMAIN_DNS_SERVERS: dns.address,
      DOMAIN_CHECK_TIMEOUT_MS: '2000',
    })
    browser = await workerBrowser()
  })
  afterAll(async () => {
    await server?.stop()
    await dns?.close()
    await new Promise((resolve) => site?.close(resolve))
  })

  it('shows usage, opens delivery to other sites, serves a custom domain and logs it all', async () => {
    const { page, context } = await openPage(browser, viewport, server.url)
    const unexpected = watchUnexpectedErrors(page)
    await signUp(page)
    const org = await firstOrganisation(page)
    const base = `/console/organization/${org._id}`

    // A first upload, then deliveries of it: the usage the charts show.
    await page.goto('/console/editor/upload')
    await settled(page)
    await page.getByTestId('file-input').setInputFiles({
      name: 'horse.png',
      mimeType: 'image/png',
      buffer: await sampleFile('horse.png'),
    })
    await page.getByTestId('count-success').filter({ hasText: '1 uploaded' }).waitFor()
    const delivered = await page.evaluate(async (cloudName) => {
      let bytes = 0
      for (const width of [40, 40, 41]) {
        const answer = await fetch(`/v2/${cloudName}/t.resize(w:${width})/horse.png`, {
          cache: 'no-store',
        })
        bytes += (await answer.arrayBuffer()).byteLength
      }
      return bytes
    }, org.cloudName)
    expect(delivered).toBeGreaterThan(0)

    await page.goto('/console')
    await settled(page)
    const usage = page.getByTestId('usage-section')
    await usage.getByTestId('usage-chart-requests').waitFor()
    expect(await usage.locator('figure svg[role="img"]').count()).toBe(5)
    expect(
      Number(
        await usage
          .getByTestId('usage-total-requests')
          .textContent()
          .then((t) => t?.split(' ')[0]),
      ),
    ).toBeGreaterThanOrEqual(3)
    const renders = await usage.getByTestId('usage-total-renders').textContent()
    expect(Number(renders?.split(' ')[0])).toBeGreaterThanOrEqual(2)
    await usage.getByTestId('usage-range-7').click()
    await usage.locator('summary').click()
    await expect.poll(() => usage.getByTestId('usage-row').count()).toBe(7)
    const today = new Date().toISOString().slice(0, 10)
    const todayRow = usage.getByTestId('usage-row').filter({ hasText: today })
    expect(await todayRow.count()).toBe(1)
    await shot(page, 'home', viewport)
    expect(await overflows(page)).toBe(false)

    // CORS: by default any site's script may read the images; then only a listed origin;
    // then none. Each step asks for a new width, so no cached answer stands in.
    const siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    const other = await context.newPage()
    await other.goto(siteOrigin)
    const read = (width: number) =>
      other.evaluate(
        (url) =>
          (window as unknown as { readImage: (u: string) => Promise<unknown> }).readImage(url),
        `${server.url}/v2/${org.cloudName}/t.resize(w:${width})/horse.png`,
      ) as Promise<{ fetch: string; canvas: string }>
    const open = await read(50)
    expect(open.fetch).toMatch(/^200 \d+$/)
    expect(open.canvas).toBe('read 4')

    await page.goto(`${base}/settings/organization`)
    await settled(page)
    expect(await page.getByTestId('custom-domains-note').textContent()).toContain('Domains')
    await page.getByTestId('cors-list').check()
    await page.getByTestId('cors-origins').fill(siteOrigin)
    await page.getByRole('button', { name: 'Save CORS' }).click()
    await page.getByTestId('cors-settings').getByRole('status').waitFor()
    await shot(page, 'settings-organization', viewport)
    expect(await overflows(page)).toBe(false)
    const listed = await read(51)
    expect(listed.canvas).toBe('read 4')
    await page.getByTestId('cors-none').check()
    await page.getByRole('button', { name: 'Save CORS' }).click()
    await expect.poll(() => page.getByTestId('cors-origins').count()).toBe(0)
    await page.getByTestId('cors-settings').getByRole('status').waitFor()
    const closed = await read(52)
    expect(closed).toEqual({ fetch: 'blocked', canvas: 'blocked' })
    await other.close()

    // A custom domain: added, its TXT record published, checked, and delivering.
    const host = `img-${viewport}.example.test`
    await page.goto(`${base}/settings/domains`)
    await settled(page)
    await page.getByTestId('domain-host').fill(host)
    await page.getByRole('button', { name: 'Add domain' }).click()
    const row = page.getByTestId('domain-row').filter({ hasText: host })
    await row.waitFor()
    expect(await row.getByTestId('domain-status').textContent()).toBe('Pending')
    const value = (await row.getByTestId('domain-txt').textContent()) ?? ''
    expect(value).toMatch(/^tessera-verification=/)
    await shot(page, 'domains-pending', viewport)
    expect(await overflows(page)).toBe(false)
    dns.records.txt.set(`_tessera-challenge.${host}`, [value])
    await row.getByTestId('domain-check').click()
    await expect
      .poll(() => row.getByTestId('domain-status').textContent(), { timeout: 15_000 })
      .toBe('Verified')
    expect(await row.getByTestId('domain-example').textContent()).toBe(
      `https://${host}/v2/original/{filePath}`,
    )
    const viaDomain = await getVia(server.url, host, '/v2/t.resize(w:30)/horse.png')
    expect(viaDomain).toEqual({ status: 200, type: 'image/png' })
    await shot(page, 'domains-verified', viewport)
    expect(await overflows(page)).toBe(false)

    // The activity log: everything above, with who did it, and its filters.
    await page.goto(`${base}/activity`)
    await settled(page)
    await page.getByTestId('activity-row').first().waitFor()
    const kinds = await page
      .getByTestId('activity-row')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-kind')))
    expect(kinds).toEqual(
      expect.arrayContaining(['file.upload', 'settings.update', 'domain.add', 'domain.check']),
    )
    await page.getByTestId('activity-kind').selectOption('domain')
    await page.getByTestId('activity-apply').click()
    await expect
      .poll(() =>
        page
          .getByTestId('activity-row')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-kind'))),
      )
      .toEqual(['domain.check', 'domain.add'])
    await page.getByTestId('activity-kind').selectOption('')
    await page.getByTestId('activity-search').fill('horse.png')
    await page.getByTestId('activity-apply').click()
    await expect
      .poll(() =>
        page
          .getByTestId('activity-row')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-kind'))),
      )
      .toEqual(['file.upload'])
    await shot(page, 'activity', viewport)
    expect(await overflows(page)).toBe(false)
    if (viewport === 'mobile') {
      // The narrowest screen the console supports.
      await page.setViewportSize({ width: 320, height: 700 })
      for (const path of [
        '/console',
        `${base}/settings/organization`,
        `${base}/settings/domains`,
        `${base}/activity`,
      ]) {
        await page.goto(path)
        await settled(page)
        expect(await overflows(page), path).toBe(false)
      }
    }
    expect(unexpected).toEqual([])
    await context.close()
  }, 300_000)
})

// Issue 24, item 1: `npm start` has PUBLIC_URL http://localhost:PORT and listens on 127.0.0.1; a
// browser opening the other name lands on PUBLIC_URL and the console works there (its images
// and API calls on one origin: no request refused by the page's policy, no console error).
describe.each<ViewportName>(['desktop', 'mobile'])(
  'the printed address at %s width',
  (viewport) => {
    let server: WebServer
    let browser: Browser

    beforeAll(async () => {
      server = await startWebServer({}, { publicHost: 'localhost' })
      browser = await workerBrowser()
    })
    afterAll(async () => {
      await server?.stop()
    })

    it('sends a visitor at 127.0.0.1 to PUBLIC_URL, where the console works', async () => {
      const { port } = new URL(server.url)
      const { page, context } = await openPage(browser, viewport, `http://127.0.0.1:${port}`)
      const unexpected = watchUnexpectedErrors(page)
      const failed: string[] = []
      page.on('requestfailed', (request) => failed.push(request.url()))
      await page.goto(`http://127.0.0.1:${port}/console/auth/signup`)
      expect(page.url()).toBe(`http://localhost:${port}/console/auth/signup`)
      await settled(page)
      await submitSignUp(page)
      await page.waitForURL(`http://localhost:${port}/console`)
      await page.getByTestId('usage-chart-requests').waitFor()
      await page.goto(`http://localhost:${port}/playground`)
      await settled(page)
      expect(unexpected).toEqual([])
      expect(failed).toEqual([])
      await context.close()
    })
  },
)
