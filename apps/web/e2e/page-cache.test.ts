// The SSR output cache against the real server and the production build (issue 14): the second
// anonymous visit is answered from memory with a fresh nonce, signed-in visitors always get their
// own render (never kept, never shared), and a content reload empties the cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebServer, uniqueEmail, type WebServer } from './harness.ts'

let server: WebServer

beforeAll(async () => {
  server = await startWebServer()
})

afterAll(async () => {
  await server?.stop()
})

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { headers })
  const body = await response.text()
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
  return { response, body, nonce, outcome: response.headers.get('x-page-cache') }
}

async function signUp(firstName: string): Promise<string> {
  const response = await fetch(`${server.url}/service/panel/users/v1.0/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: uniqueEmail(),
      password: 'correct horse battery staple 42',
      firstName,
      lastName: 'Cache',
    }),
  })
  expect(response.status).toBe(201)
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
}

describe('page cache', () => {
  it('answers the second anonymous visit from the cache, with a nonce of its own', async () => {
    const first = await page('/pricing?from=test')
    const second = await page('/pricing?from=test')
    expect(first.response.status).toBe(200)
    expect([first.outcome, second.outcome]).toEqual(['miss', 'hit'])
    expect(second.nonce).toBeDefined()
    expect(second.nonce).not.toBe(first.nonce)
    expect(second.body).toContain(`nonce="${second.nonce}"`)
    expect(second.body).not.toContain(first.nonce)
    expect(second.body.replaceAll(second.nonce ?? '', 'N')).toBe(
      first.body.replaceAll(first.nonce ?? '', 'N'),
    )
    expect(second.response.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=60, stale-while-revalidate=300',
    )
    const other = await page('/pricing?from=elsewhere')
    expect(other.outcome).toBe('miss')
  })

  it('compresses answers from the cache for browsers', async () => {
    await page('/faqs')
    const response = await fetch(`${server.url}/faqs`, { headers: { 'accept-encoding': 'br' } })
    expect(response.headers.get('x-page-cache')).toBe('hit')
    expect(response.headers.get('content-encoding')).toBe('br')
    // fetch decodes brotli itself.
    expect(await response.text()).toContain('</html>')
  })

  it('renders every page of a signed-in visitor for them, and keeps none of it', async () => {
    const anonymous = await page('/')
    const ada = await signUp('Adacache')
    const grace = await signUp('Gracecache')
    const adaPage = await page('/', { cookie: ada })
    const gracePage = await page('/', { cookie: grace })
    expect(adaPage.outcome).toBe('bypass')
    expect(adaPage.response.headers.get('cache-control')).toBe('private, no-store')
    expect(adaPage.body).toContain('Adacache')
    expect(gracePage.body).toContain('Gracecache')
    expect(gracePage.body).not.toContain('Adacache')
    const after = await page('/')
    expect(['miss', 'hit']).toContain(anonymous.outcome)
    expect(after.outcome).toBe('hit')
    expect(after.body).not.toContain('Adacache')
    expect(after.body).not.toContain('Gracecache')
  })

  it('forgets every page when the content is reloaded', async () => {
    await page('/about-us')
    expect((await page('/about-us')).outcome).toBe('hit')
    await server.reloadContent()
    expect((await page('/about-us')).outcome).toBe('miss')
  })
})
