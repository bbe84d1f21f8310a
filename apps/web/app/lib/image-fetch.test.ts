// The image fetch rules against a real HTTP server on loopback (SPEC §4, §7.2, §9).
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  asPngUrl,
  fetchImage,
  IMAGE_FETCH_RETRIES,
  ImageFetchError,
  type ImageFetchEvent,
  isDisplayable,
  retryWait,
} from './image-fetch.ts'

let server: Server
let base = ''
const hits = new Map<string, number>()
const PNG = Buffer.from('89504e470d0a1a0a', 'hex')

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    const key = url.pathname
    const count = (hits.get(key) ?? 0) + 1
    hits.set(key, count)
    // /v2/demo/slow-N/…: 202 for the first N requests
    const slow = /slow-(\d+)/.exec(key)
    if (slow !== null && count <= Number(slow[1])) {
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"processing"}')
      return
    }
    if (key.includes('t.toFormat(f:png)')) {
      response.writeHead(200, { 'content-type': 'image/png' }).end(PNG)
      return
    }
    if (key.includes('gif')) {
      response.writeHead(200, { 'content-type': 'image/gif' }).end('GIF89a')
      return
    }
    if (key.includes('refused')) {
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"code":"invalid_transformation","message":"wm.remove: without a box, give box1"}')
      return
    }
    if (key.includes('missing')) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"code":"file_not_found","message":"No file at samples/missing.png"}')
      return
    }
    response.writeHead(200, { 'content-type': 'image/jpeg' }).end(PNG)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const quick = () => 5

describe('image fetch', () => {
  it('waits 500 ms doubling, 12 times at most', () => {
    expect([1, 2, 3, 12].map(retryWait)).toEqual([500, 1000, 2000, 500 * 2 ** 11])
    expect(IMAGE_FETCH_RETRIES).toBe(12)
  })

  it('retries 202 until the image is ready and reports each wait', async () => {
    const events: ImageFetchEvent[] = []
    const image = await fetchImage(`${base}/v2/demo/slow-3/samples/a.jpg`, {
      wait: quick,
      onEvent: (event) => events.push(event),
    })
    expect(image.retries).toBe(3)
    expect(image.contentType).toBe('image/jpeg')
    expect(events.map((event) => event.type)).toEqual(['processing', 'processing', 'processing'])
    expect(hits.get('/v2/demo/slow-3/samples/a.jpg')).toBe(4)
  })

  it('gives up after 12 retries with a still_processing error', async () => {
    const failure = await fetchImage(`${base}/v2/demo/slow-99/samples/a.jpg`, {
      wait: quick,
    }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ImageFetchError)
    expect((failure as ImageFetchError).code).toBe('still_processing')
    expect(hits.get('/v2/demo/slow-99/samples/a.jpg')).toBe(13)
  })

  it('fetches an image the browser cannot show again as png', async () => {
    const events: ImageFetchEvent[] = []
    const image = await fetchImage(`${base}/v2/demo/t.resize(w:10)/samples/gif.gif?f_auto=true`, {
      onEvent: (event) => events.push(event),
    })
    expect(image.url).toBe(`${base}/v2/demo/t.resize(w:10)~t.toFormat(f:png)/samples/gif.gif`)
    expect(image.contentType).toBe('image/png')
    expect(events).toEqual([{ type: 'png_retry', contentType: 'image/gif', url: image.url }])
  })

  it('rejects with the server message of a failed answer', async () => {
    const failure = await fetchImage(`${base}/v2/demo/original/samples/missing.png`).catch(
      (error: unknown) => error,
    )
    expect(failure).toMatchObject({ status: 404, code: 'file_not_found' })
  })

  it('rejects with the refusal of a job that failed after 202 answers, its 400 and message', async () => {
    // A queued AI job refused for its parameters: the tool page shows this message.
    const failure = await fetchImage(`${base}/v2/demo/slow-2/refused.png`, { wait: () => 1 }).catch(
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ImageFetchError)
    expect(failure).toMatchObject({
      status: 400,
      code: 'invalid_transformation',
      message: 'wm.remove: without a box, give box1',
    })
  })

  it('stops waiting when cancelled', async () => {
    const controller = new AbortController()
    const pending = fetchImage(`${base}/v2/demo/slow-50/samples/b.jpg`, {
      signal: controller.signal,
      onEvent: () => controller.abort(new Error('cancelled by the visitor')),
    })
    await expect(pending).rejects.toThrow('cancelled by the visitor')
    expect(hits.get('/v2/demo/slow-50/samples/b.jpg')).toBe(1)
  })

  it('knows the displayable types and writes the png URL', () => {
    expect(isDisplayable('image/webp; charset=binary')).toBe(true)
    expect(isDisplayable('image/svg+xml')).toBe(false)
    expect(asPngUrl('http://h/v2/demo/original/a/b.heic')).toBe(
      'http://h/v2/demo/t.toFormat(f:png)/a/b.heic',
    )
  })
})

// Formerly lib/fetch-image.ts's tests: the live examples of the docs pages fetch with the same
// module since the two copies were merged.
describe('image fetch through an injected fetch (SPEC §4)', () => {
  function answers(...statuses: number[]) {
    const calls: RequestInit[] = []
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      calls.push(init ?? {})
      const status = statuses[Math.min(calls.length - 1, statuses.length - 1)] ?? 500
      return new Response(status === 202 ? '{"status":"processing"}' : 'img', {
        status,
        headers: { 'content-type': status === 202 ? 'application/json' : 'image/png' },
      })
    }
    return { fetch: fetch as typeof globalThis.fetch, calls }
  }

  it('retries a 202 with waits growing by the factor, then returns the image', async () => {
    const { fetch, calls } = answers(202, 202, 200)
    const waits: number[] = []
    const { blob } = await fetchImage('http://x/x.png', {
      fetch,
      wait: (attempt) => {
        waits.push(retryWait(attempt))
        return 0
      },
    })
    expect(await blob.text()).toBe('img')
    expect(waits).toEqual([500, 1000])
    expect(calls.every((init) => init.credentials === 'omit')).toBe(true)
  })

  it('gives up after 12 retries', async () => {
    const { fetch, calls } = answers(202)
    await expect(fetchImage('http://x/x.png', { fetch, wait: () => 0 })).rejects.toBeInstanceOf(
      ImageFetchError,
    )
    expect(calls).toHaveLength(13)
  })

  it('fails at once on an error status', async () => {
    const { fetch, calls } = answers(501)
    await expect(fetchImage('http://x/x.png', { fetch })).rejects.toMatchObject({ status: 501 })
    expect(calls).toHaveLength(1)
  })
})
