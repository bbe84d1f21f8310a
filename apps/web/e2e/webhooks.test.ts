// Webhooks and signed uploads in the console, in Chromium against a real server and a real local
// receiver, at 1440 and 390 px: an owner adds an endpoint (its secret shown once), pings it (the
// ping arrives signed with that secret), uploads a file over 8 MB (sent in parts through a signed
// upload URL, with progress) whose file.created event arrives too, and reads both in the log.
import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32, deflateSync } from 'node:zlib'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  openPage,
  settled,
  signUp,
  startWebServer,
  type ViewportName,
  type WebServer,
  workerBrowser,
} from './harness.ts'

interface Received {
  event: string
  signature: string
  body: string
}

/** A PNG of noise (which does not compress): width × height × 3 bytes and a little more. */
function noisePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const rows = randomBytes((width * 3 + 1) * height)
  // Each row starts with its filter type: none.
  for (let row = 0; row < height; row++) rows[row * (width * 3 + 1)] = 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function verify(secret: string, header: string, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)
  if (match === null) return false
  return createHmac('sha256', secret).update(`${match[1]}.${body}`).digest('hex') === match[2]
}

describe.each<ViewportName>(['desktop', 'mobile'])(
  'webhooks and signed uploads at %s',
  (viewport) => {
    let server: WebServer
    let browser: Browser
    let receiver: Server
    let receiverUrl: string
    const received: Received[] = []

    beforeAll(async () => {
      receiver = createServer((request, response) => {
        const chunks: Buffer[] = []
        request.on('data', (chunk: Buffer) => chunks.push(chunk))
        request.on('end', () => {
          received.push({
            event: String(request.headers['x-tessera-event']),
            signature: String(request.headers['x-tessera-signature']),
            body: Buffer.concat(chunks).toString('utf8'),
          })
          response.writeHead(204).end()
        })
      })
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`
      // The receiver is on this machine: allow-listed, as an operator would for an internal host.
      server = await startWebServer({ REMOTE_ALLOW_HOSTS: '127.0.0.1' })
      browser = await workerBrowser()
    })
    afterAll(async () => {
      await server?.stop()
      await new Promise<void>((resolve) => receiver?.close(() => resolve()))
    })

    it('adds an endpoint, pings it, uploads a large file in parts and logs both', async () => {
      const { page, context, errors } = await openPage(browser, viewport, server.url)
      await signUp(page)
      await page.waitForURL(/\/console/)
      const orgId = await page.evaluate(async () => {
        const response = await fetch('/service/panel/organization/v1.0/all')
        return ((await response.json()) as { _id: string }[])[0]?._id ?? ''
      })
      await page.goto(`/console/organization/${orgId}/settings/webhooks`)
      await settled(page)
      await page.getByTestId('settings-webhooks').waitFor()
      expect(await page.getByRole('link', { name: 'Webhooks' }).getAttribute('class')).toContain(
        'is-active',
      )

      // Nothing yet: both lists say so (a list, and a page of the log).
      await page.getByTestId('list-empty').filter({ hasText: 'No webhooks yet.' }).waitFor()
      await page.getByTestId('list-empty').filter({ hasText: 'Nothing sent yet.' }).waitFor()

      // A private address is refused with the server's reason, and nothing is added.
      await page.getByTestId('webhook-url').fill('https://10.0.0.1/hook')
      await page.getByTestId('create-webhook').click()
      await page.getByTestId('action-error').filter({ hasText: 'private' }).waitFor()
      expect(await page.getByTestId('webhook-row').count()).toBe(0)

      await page.getByTestId('webhook-url').fill(receiverUrl)
      await page.getByTestId('create-webhook').click()
      await page.getByTestId('new-webhook-secret').waitFor()
      const secret = (await page.getByTestId('new-webhook-secret-value').textContent()) ?? ''
      expect(secret).toMatch(/^whsec_/)
      await page.getByTestId('webhook-row').first().waitFor()
      expect(await page.getByTestId('webhook-row').first().textContent()).toContain(receiverUrl)

      await page.getByTestId('ping-webhook').click()
      await page.getByTestId('webhook-notice').filter({ hasText: 'Ping delivered' }).waitFor()
      const ping = received.find((item) => item.event === 'ping')
      expect(ping).toBeDefined()
      expect(verify(secret, ping?.signature ?? '', ping?.body ?? '')).toBe(true)
      await page.screenshot({ path: `/tmp/webhooks-${viewport}.png`, fullPage: true })

      // A file over 8 MB goes in parts through a signed upload URL.
      const partUrls: string[] = []
      page.on('request', (request) => {
        if (request.url().includes('/signed-uploads/'))
          partUrls.push(`${request.method()} ${request.url()}`)
      })
      await page.goto('/console/editor/upload')
      await settled(page)
      const big = noisePng(1900, 1700)
      expect(big.length).toBeGreaterThan(8 * 1024 * 1024)
      await page
        .getByTestId('file-input')
        .setInputFiles([{ name: 'noise.png', mimeType: 'image/png', buffer: big }])
      await page.getByTestId('count-success').filter({ hasText: '1 uploaded' }).waitFor({
        timeout: 120_000,
      })
      expect(await page.getByTestId('overall-percent').textContent()).toBe('100%')
      expect(partUrls.filter((line) => line.startsWith('PUT ')).length).toBeGreaterThanOrEqual(2)
      expect(partUrls.some((line) => line.startsWith('POST '))).toBe(true)
      await expect
        .poll(() => received.find((item) => item.event === 'file.created'), { timeout: 20_000 })
        .toBeDefined()
      const created = received.find((item) => item.event === 'file.created') as Received
      expect(verify(secret, created.signature, created.body)).toBe(true)
      expect(JSON.parse(created.body)).toMatchObject({
        data: { name: 'noise.png', size: big.length },
      })

      // The log lists the ping and the upload's event, delivered.
      await page.goto(`/console/organization/${orgId}/settings/webhooks`)
      await settled(page)
      await expect
        .poll(
          async () => {
            await page.getByTestId('reload-log').click()
            return page.getByTestId('delivery-row').count()
          },
          { timeout: 20_000 },
        )
        .toBeGreaterThanOrEqual(2)
      const statuses = await page.getByTestId('delivery-status').allTextContents()
      expect(statuses.every((text) => text.startsWith('Delivered'))).toBe(true)
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow).toBe(0)
      await page.screenshot({ path: `/tmp/webhooks-log-${viewport}.png`, fullPage: true })

      // Removing asks first: dismissed, the endpoint stays; accepted, it goes.
      const remove = page.getByTestId('webhook-row').getByRole('button', { name: 'Remove' })
      const questions: string[] = []
      page.once('dialog', (dialog) => {
        questions.push(dialog.message())
        void dialog.dismiss()
      })
      await remove.click()
      expect(await page.getByTestId('webhook-row').count()).toBe(1)
      page.once('dialog', (dialog) => {
        questions.push(dialog.message())
        void dialog.accept()
      })
      await remove.click()
      await page.getByTestId('list-empty').filter({ hasText: 'No webhooks yet.' }).waitFor()
      expect(await page.getByTestId('webhook-row').count()).toBe(0)
      expect(questions).toEqual(
        Array(2).fill(`Remove the webhook to ${receiverUrl}? Its log goes with it.`),
      )
      expect(errors).toEqual([])
      await context.close()
    }, 300_000)
  },
)
