// The SSR output cache (page-cache.ts) in front of a small page renderer that works like the web
// app's: a fresh CSP nonce per render, carried by the header and the inline scripts.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { brotliDecompressSync } from 'node:zlib'
import { getRequestListener } from '@hono/node-server'
import { chooseEncoding, compressResponse } from '@tessera/web'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createPageCache,
  hasCookie,
  type PageCache,
  type PageCacheOptions,
  type RawAnswerHooks,
} from './page-cache.ts'

const ORIGIN = 'http://pages.test'

let renders: string[]

/** Renders `path`: a page naming the visitor (when signed in) and counting its renders. */
async function render(request: Request): Promise<Response> {
  const url = new URL(request.url)
  renders.push(`${request.method} ${url.pathname}${url.search}`)
  const nonce = randomBytes(16).toString('base64')
  const user = /bg\.session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? 'nobody'
  const headers: Record<string, string> = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `script-src 'self' 'nonce-${nonce}'`,
  }
  if (url.pathname === '/sets-cookie') headers['set-cookie'] = 'seen=1; Path=/'
  const status = url.pathname === '/missing' ? 404 : url.pathname === '/broken' ? 500 : 200
  const padding = 'x'.repeat(Number(url.searchParams.get('size') ?? '0'))
  const body = `<!doctype html><script nonce="${nonce}">1</script><p>${url.pathname}${url.search} for ${user} #${renders.length}</p><script nonce="${nonce}">2</script>${padding}`
  return new Response(body, { status, headers })
}

function cache(options: Partial<PageCacheOptions> = {}) {
  return createPageCache({
    maxBytes: 1024 * 1024,
    maxEntries: 100,
    maxAgeSeconds: 60,
    configKey: 'config-a',
    sessionCookie: 'bg.session',
    compress: compressResponse,
    chooseEncoding,
    ...options,
  })
}

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Request {
  return new Request(`${ORIGIN}${path}`, { method, headers })
}

async function read(response: Response) {
  const body = await response.text()
  const csp = response.headers.get('content-security-policy') ?? ''
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? ''
  return { body, nonce, outcome: response.headers.get('x-page-cache'), response }
}

beforeEach(() => {
  renders = []
})

describe('the page cache', () => {
  it('answers the second anonymous visit from memory, and renders again after invalidation', async () => {
    const pages = cache()
    const first = await read(await pages.serve(get('/pricing'), render))
    const second = await read(await pages.serve(get('/pricing'), render))
    expect(first.outcome).toBe('miss')
    expect(second.outcome).toBe('hit')
    expect(renders).toEqual(['GET /pricing'])
    expect(second.body.replaceAll(second.nonce, 'N')).toBe(first.body.replaceAll(first.nonce, 'N'))

    pages.invalidate()
    expect(pages.entries).toBe(0)
    const third = await read(await pages.serve(get('/pricing'), render))
    expect(third.outcome).toBe('miss')
    expect(renders).toEqual(['GET /pricing', 'GET /pricing'])
    expect(third.body).toContain('#2')
  })

  it('gives every answer from the cache its own nonce, in the header and the scripts', async () => {
    const pages = cache()
    await (await pages.serve(get('/'), render)).text()
    const a = await read(await pages.serve(get('/'), render))
    const b = await read(await pages.serve(get('/'), render))
    expect(a.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(a.nonce).not.toBe(b.nonce)
    expect(a.body.split(`nonce="${a.nonce}"`)).toHaveLength(3)
    expect(b.body.split(`nonce="${b.nonce}"`)).toHaveLength(3)
  })

  it('sends a CDN-cacheable Cache-Control with anonymous pages and private, no-store when signed in', async () => {
    const pages = cache()
    const anonymous = await pages.serve(get('/'), render)
    expect(anonymous.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=60, stale-while-revalidate=300',
    )
    expect(anonymous.headers.get('vary')).toBe('Accept-Encoding, Cookie')
    const member = await pages.serve(get('/', { cookie: 'bg.session=alice' }), render)
    expect(member.headers.get('cache-control')).toBe('private, no-store')
    expect(member.headers.get('x-page-cache')).toBe('bypass')
  })

  it('never answers a signed-in visitor from the cache, nor keeps what it renders for one', async () => {
    const pages = cache()
    const alice = await read(await pages.serve(get('/', { cookie: 'bg.session=alice' }), render))
    const bob = await read(await pages.serve(get('/', { cookie: 'x=1; bg.session=bob' }), render))
    const token = await read(await pages.serve(get('/', { authorization: 'Bearer t' }), render))
    expect(alice.body).toContain('for alice')
    expect(bob.body).toContain('for bob')
    expect(token.outcome).toBe('bypass')
    expect(pages.entries).toBe(0)

    const anonymous = await read(await pages.serve(get('/'), render))
    expect(anonymous.body).toContain('for nobody')
    const aliceAgain = await read(
      await pages.serve(get('/', { cookie: 'bg.session=alice' }), render),
    )
    expect(aliceAgain.outcome).toBe('bypass')
    expect(aliceAgain.body).toContain('for alice')
    expect(renders).toHaveLength(5)
  })

  it('reads a cookie by its exact name', () => {
    expect(hasCookie('a=1; bg.session=x', 'bg.session')).toBe(true)
    expect(hasCookie('bg.sessionx=1; xbg.session=2', 'bg.session')).toBe(false)
    expect(hasCookie('bg.session= ', 'bg.session')).toBe(false)
    expect(hasCookie(undefined, 'bg.session')).toBe(false)
  })

  it('treats an empty session cookie as anonymous', async () => {
    const pages = cache()
    await (await pages.serve(get('/', { cookie: 'bg.session=; theme=dark' }), render)).text()
    const again = await read(await pages.serve(get('/', { cookie: 'bg.session=' }), render))
    expect(again.outcome).toBe('hit')
  })

  it('keeps each query variant apart', async () => {
    const pages = cache()
    const a = await read(await pages.serve(get('/ai-tools?tag=a'), render))
    const b = await read(await pages.serve(get('/ai-tools?tag=b'), render))
    const plain = await read(await pages.serve(get('/ai-tools'), render))
    const aAgain = await read(await pages.serve(get('/ai-tools?tag=a'), render))
    expect([a.outcome, b.outcome, plain.outcome, aAgain.outcome]).toEqual([
      'miss',
      'miss',
      'miss',
      'hit',
    ])
    expect(aAgain.body).toContain('/ai-tools?tag=a for nobody')
    expect(b.body).toContain('/ai-tools?tag=b')
    expect(pages.entries).toBe(3)
  })

  it('keeps pages of another configuration or another host apart', async () => {
    const a = cache({ configKey: 'a' })
    await (await a.serve(get('/'), render)).text()
    const other = await read(
      await a.serve(new Request('http://other.test/', { method: 'GET' }), render),
    )
    expect(other.outcome).toBe('miss')
    expect(other.body).not.toContain(ORIGIN)
    const b = cache({ configKey: 'b' })
    expect((await read(await b.serve(get('/'), render))).outcome).toBe('miss')
  })

  it('does not keep a page that sets a cookie', async () => {
    const pages = cache()
    const first = await pages.serve(get('/sets-cookie'), render)
    const second = await pages.serve(get('/sets-cookie'), render)
    expect(first.headers.get('set-cookie')).toBe('seen=1; Path=/')
    expect(second.headers.get('set-cookie')).toBe('seen=1; Path=/')
    expect(second.headers.get('x-page-cache')).toBe('bypass')
    expect(second.headers.get('cache-control')).toBe('private, no-store')
    expect(renders).toHaveLength(2)
    expect(pages.entries).toBe(0)
  })

  it('does not keep error pages, nor answer other methods from the cache', async () => {
    const pages = cache()
    for (const path of ['/missing', '/broken', '/missing', '/broken']) {
      const response = await pages.serve(get(path), render)
      expect(response.headers.get('x-page-cache')).toBe('bypass')
      expect(response.headers.get('cache-control')).toBe('private, no-store')
      await response.text()
    }
    await (await pages.serve(get('/'), render)).text()
    const head = await pages.serve(get('/', {}, 'HEAD'), render)
    const post = await pages.serve(get('/', {}, 'POST'), render)
    expect(head.headers.get('x-page-cache')).toBe('bypass')
    expect(post.headers.get('x-page-cache')).toBe('bypass')
    expect(renders).toEqual([
      'GET /missing',
      'GET /broken',
      'GET /missing',
      'GET /broken',
      'GET /',
      'HEAD /',
      'POST /',
    ])
  })

  it('stays within its byte budget, least recently used first', async () => {
    const pages = cache({ maxBytes: 10_000 })
    for (let i = 0; i < 10; i++) {
      await (await pages.serve(get(`/p${i}?size=3000`), render)).text()
      expect(pages.bytes).toBeLessThanOrEqual(10_000)
    }
    expect(pages.entries).toBe(3)
    expect((await read(await pages.serve(get('/p9?size=3000'), render))).outcome).toBe('hit')
    expect((await read(await pages.serve(get('/p0?size=3000'), render))).outcome).toBe('miss')
    // A page larger than the whole budget is answered, not kept.
    const big = await read(await pages.serve(get('/big?size=20000'), render))
    expect(big.body).toContain('/big?size=20000 for nobody')
    expect(big.outcome).toBe('miss')
    expect((await read(await pages.serve(get('/big?size=20000'), render))).outcome).toBe('miss')
  })

  it('keeps at most its number of pages', async () => {
    const pages = cache({ maxEntries: 4 })
    for (let i = 0; i < 20; i++) await (await pages.serve(get(`/p${i}`), render)).text()
    expect(pages.entries).toBe(4)
    expect((await read(await pages.serve(get('/p19'), render))).outcome).toBe('hit')
    expect((await read(await pages.serve(get('/p0'), render))).outcome).toBe('miss')
  })

  it('keeps nothing when turned off (0 bytes)', async () => {
    const pages = cache({ maxBytes: 0 })
    await (await pages.serve(get('/'), render)).text()
    const again = await pages.serve(get('/'), render)
    expect(again.headers.get('x-page-cache')).toBe('bypass')
    expect(renders).toHaveLength(2)
  })

  it('renders a page once for visitors who ask while it renders', async () => {
    const pages = cache()
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => pages.serve(get('/busy'), render).then(read)),
    )
    expect(renders).toEqual(['GET /busy'])
    expect(answers.map((answer) => answer.outcome).sort()).toEqual([
      'hit',
      'hit',
      'hit',
      'hit',
      'miss',
    ])
    expect(new Set(answers.map((answer) => answer.nonce)).size).toBe(5)
  })

  it('does not keep a render that was under way when the content changed', async () => {
    const pages = cache()
    let release: () => void = () => {}
    const slow = (request: Request) =>
      new Promise<Response>((resolve) => {
        release = () => resolve(render(request))
      })
    const pending = pages.serve(get('/'), slow)
    await new Promise((resolve) => setImmediate(resolve))
    pages.invalidate()
    release()
    await (await pending).text()
    expect(pages.entries).toBe(0)
  })

  it('compresses answers from the cache for clients that accept it', async () => {
    const pages = cache()
    await (await pages.serve(get('/?size=5000'), render)).text()
    const compressed = await pages.serve(get('/?size=5000', { 'accept-encoding': 'gzip' }), render)
    expect(compressed.headers.get('x-page-cache')).toBe('hit')
    expect(compressed.headers.get('content-encoding')).toBe('gzip')
    const { gunzipSync } = await import('node:zlib')
    const body = gunzipSync(Buffer.from(await compressed.arrayBuffer())).toString()
    expect(body).toContain('/?size=5000 for nobody #1')
  })

  it('answers a render that fails with its error, and keeps nothing', async () => {
    const pages = cache()
    const failing = () => Promise.reject(new Error('loader failed'))
    await expect(pages.serve(get('/'), failing)).rejects.toThrow('loader failed')
    expect(pages.entries).toBe(0)
    expect((await read(await pages.serve(get('/'), render))).outcome).toBe('miss')
  })
})

describe('answers before routing (answerRaw)', () => {
  let server: Server | undefined
  let raw: string[]

  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    server = undefined
  })

  /** A real node:http server: kept pages before routing, everything else through `serve`. */
  async function listen(pages: PageCache): Promise<string> {
    raw = []
    const hooks: RawAnswerHooks = {
      headers: () => ({ 'x-request-id': 'raw-id' }),
      answered: (incoming: IncomingMessage) => raw.push(incoming.url ?? ''),
    }
    const routed = getRequestListener((request) => pages.serve(request, render))
    server = createServer((incoming, outgoing) => {
      if (!pages.answerRaw(incoming, outgoing, hooks)) routed(incoming, outgoing)
    })
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    if (address === null || typeof address !== 'object') throw new Error('no port')
    return `http://127.0.0.1:${address.port}`
  }

  it('answers a kept page before routing, with a fresh nonce and the hooks headers', async () => {
    const origin = await listen(cache())
    const first = await read(await fetch(`${origin}/pricing?a=1`))
    const second = await read(await fetch(`${origin}/pricing?a=1`))
    expect([first.outcome, second.outcome]).toEqual(['miss', 'hit'])
    expect(raw).toEqual(['/pricing?a=1'])
    expect(second.response.headers.get('x-request-id')).toBe('raw-id')
    expect(second.response.headers.get('cache-control')).toContain('s-maxage=60')
    expect(second.nonce).not.toBe(first.nonce)
    expect(second.body.replaceAll(second.nonce, 'N')).toBe(first.body.replaceAll(first.nonce, 'N'))
    expect(renders).toEqual(['GET /pricing?a=1'])
  })

  it('compresses what it answers for clients that accept it', async () => {
    const origin = await listen(cache())
    await (await fetch(`${origin}/?size=4000`)).text()
    const { request } = await import('node:http')
    const answer = await new Promise<{ headers: IncomingMessage['headers']; body: Buffer }>(
      (resolve, reject) => {
        const call = request(`${origin}/?size=4000`, { headers: { 'accept-encoding': 'br' } })
        call.on('response', (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('end', () =>
            resolve({ headers: response.headers, body: Buffer.concat(chunks) }),
          )
          response.on('error', reject)
        })
        call.on('error', reject)
        call.end()
      },
    )
    expect(raw).toEqual(['/?size=4000'])
    expect(answer.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(answer.body).toString()).toContain('/?size=4000 for nobody #1')
  })

  it('leaves signed-in visitors, other methods and unknown or unnormalised paths to the app', async () => {
    const origin = await listen(cache())
    await (await fetch(`${origin}/`)).text()
    await (await fetch(`${origin}/`, { headers: { cookie: 'bg.session=alice' } })).text()
    await (await fetch(`${origin}/`, { headers: { authorization: 'Bearer t' } })).text()
    await (await fetch(`${origin}/`, { method: 'POST' })).text()
    await (await fetch(`${origin}/other`)).text()
    const { request } = await import('node:http')
    await new Promise<void>((resolve, reject) => {
      const call = request(`${origin}/x/../`, { path: '/x/../' })
      call.on('response', (response) => {
        response.resume()
        response.on('end', () => resolve())
      })
      call.on('error', reject)
      call.end()
    })
    expect(raw).toEqual([])
  })
})
