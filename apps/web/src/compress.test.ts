import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chooseEncoding, compressResponse } from './compress.ts'
import { createStaticHandler } from './static.ts'

const page = `<!DOCTYPE html><html><body>${'<p>Tessera delivers images.</p>'.repeat(200)}</body></html>`

const request = (acceptEncoding?: string, method = 'GET') =>
  new Request('http://localhost/', {
    method,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  })

const html = (body: string | null = page, status = 200) =>
  new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8' } })

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(chooseEncoding('gzip, deflate')).toBe('gzip')
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip')
    expect(chooseEncoding('*')).toBe('br')
    expect(chooseEncoding('identity')).toBeUndefined()
    expect(chooseEncoding(null)).toBeUndefined()
  })
})

describe('compressResponse', () => {
  it('compresses a streamed page with brotli or gzip, and says so', async () => {
    const br = compressResponse(request('br, gzip'), html())
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toBe('Accept-Encoding')
    const brBytes = Buffer.from(await br.arrayBuffer())
    expect(brBytes.length).toBeLessThan(page.length / 4)
    expect(brotliDecompressSync(brBytes).toString()).toBe(page)

    const gz = compressResponse(request('gzip'), html())
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(page)
  })

  it('leaves alone what it should not compress', async () => {
    expect(compressResponse(request(), html()).headers.get('content-encoding')).toBeNull()
    expect(compressResponse(request('br', 'HEAD'), html(null)).headers.has('vary')).toBe(false)
    const image = new Response('x'.repeat(5000), { headers: { 'content-type': 'image/png' } })
    expect(compressResponse(request('br'), image)).toBe(image)
    const small = new Response('<p>hi</p>', {
      headers: { 'content-type': 'text/html', 'content-length': '9' },
    })
    const answer = compressResponse(request('br'), small)
    expect(answer.headers.get('content-encoding')).toBeNull()
    expect(await answer.text()).toBe('<p>hi</p>')
  })
})

describe('a client that leaves mid-page', () => {
  it('stops the compressor and the page without an uncaught error', async () => {
    const encoder = new TextEncoder()
    // A page that keeps streaming until the reader goes away; `stopped` settles with the reason
    // it is cancelled with, the moment the compressor's pipe lets go of it.
    const endless = () => {
      let sent = 0
      let stop: (reason: unknown) => void = () => {}
      const stopped = new Promise<unknown>((resolve) => {
        stop = resolve
      })
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 5))
          controller.enqueue(encoder.encode(`<p>chunk ${sent++} ${'x'.repeat(2000)}</p>`))
        },
        cancel: (reason) => stop(reason),
      })
      return { body, stopped }
    }
    const unhandled: unknown[] = []
    const onError = (error: unknown) => unhandled.push(error)
    process.on('uncaughtException', onError)
    process.on('unhandledRejection', onError)
    try {
      for (const encoding of ['br', 'gzip']) {
        const page = endless()
        const body = compressResponse(
          request(encoding),
          new Response(page.body, { headers: { 'content-type': 'text/html' } }),
        ).body
        const reader = body?.getReader()
        expect((await reader?.read())?.done).toBe(false)
        await reader?.cancel('client went away')
        // The page itself is told the client left: nothing keeps rendering for no one.
        expect(await page.stopped).toBe('client went away')
      }
      expect(unhandled).toEqual([])
    } finally {
      process.off('uncaughtException', onError)
      process.off('unhandledRejection', onError)
    }
  })
})

describe('static files', () => {
  let dir: string
  const script = `export const a = ${JSON.stringify('tessera '.repeat(400))}\n`
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tessera-static-'))
    await writeFile(join(dir, 'app-abc123.js'), script)
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('answers compressed copies with their own length, and the file as is without', async () => {
    const serve = createStaticHandler(dir)
    const url = 'http://localhost/static/app-abc123.js'
    const br = await serve(new Request(url, { headers: { 'accept-encoding': 'gzip, br' } }))
    const body = Buffer.from(await br.arrayBuffer())
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('content-length')).toBe(String(body.length))
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(brotliDecompressSync(body).toString()).toBe(script)

    const plain = await serve(new Request(url))
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toBe('Accept-Encoding')
    expect(await plain.text()).toBe(script)
  })

  it("answers the build's own compressed copy when there is one", async () => {
    await writeFile(join(dir, 'built-def456.js'), script)
    await writeFile(join(dir, 'built-def456.js.gz'), gzipSync('// the build made this'))
    const serve = createStaticHandler(dir)
    const gz = await serve(
      new Request('http://localhost/static/built-def456.js', {
        headers: { 'accept-encoding': 'gzip' },
      }),
    )
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(
      '// the build made this',
    )
  })

  it('answers byte ranges of files sent as stored (a video), and 416 past the end', async () => {
    const video = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251))
    await writeFile(join(dir, 'clip-0a1b2c.webm'), video)
    const serve = createStaticHandler(dir)
    const url = 'http://localhost/static/clip-0a1b2c.webm'
    const whole = await serve(new Request(url))
    expect(whole.status).toBe(200)
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true)

    const part = await serve(new Request(url, { headers: { range: 'bytes=1000-1999' } }))
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 1000-1999/5000')
    expect(part.headers.get('content-length')).toBe('1000')
    expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(1000, 2000))).toBe(true)

    const tail = await serve(new Request(url, { headers: { range: 'bytes=-100' } }))
    expect(Buffer.from(await tail.arrayBuffer()).equals(video.subarray(4900))).toBe(true)

    const past = await serve(new Request(url, { headers: { range: 'bytes=6000-' } }))
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe('bytes */5000')
  })
})
