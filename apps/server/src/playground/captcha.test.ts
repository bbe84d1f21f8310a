// The captcha of the visitor calls over real HTTP on PGlite and PostgreSQL, against a stand-in
// of Turnstile's siteverify API on loopback: off without a site key; with one, uploads and
// signing of AI chains need a token the provider accepts (400 without, 403 refused, 503 when the
// provider cannot be asked), and the server sends the secret, the token and the client address.
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.ts'
import { createTestClient, expectError } from '../test-client.ts'
import { startLoopbackServer } from '../test-loopback.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { PUBLIC_PLAYGROUND } from './paths.ts'

const SECRET = 'test-captcha-secret'
const GOOD = 'token-that-passes'
const AI = '/v2/demo/ic.crop(w:20,h:20)/samples/astronaut.png'

interface Verification {
  secret: string | null
  response: string | null
  remoteip: string | null
}

/**
 * A stand-in of Turnstile's siteverify: passes `GOOD`, refuses anything else; a passed token
 * was solved on `hostname` for `action`, as the widget told the provider.
 */
async function startVerifier() {
  const seen: Verification[] = []
  let broken = false
  let solvedOn = { hostname: 'localhost', action: '' }
  const server = await startLoopbackServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString())
      seen.push({
        secret: form.get('secret'),
        response: form.get('response'),
        remoteip: form.get('remoteip'),
      })
      if (broken) {
        res.writeHead(500).end('down')
        return
      }
      const success = form.get('secret') === SECRET && form.get('response') === GOOD
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          success,
          'error-codes': success ? [] : ['invalid-input-response'],
          ...(success ? solvedOn : {}),
        }),
      )
    })
  })
  return {
    url: `${server.base}/siteverify`,
    seen,
    setBroken: (value: boolean) => {
      broken = value
    },
    solveOn: (hostname: string, action = '') => {
      solvedOn = { hostname, action }
    },
    close: server.close,
  }
}

describe('captcha settings', () => {
  it('needs a secret with a site key, and is off without a site key', () => {
    expect(() => loadConfig({ WEB_CAPTCHA_SITE_KEY: 'site' })).toThrow(ConfigError)
    expect(loadConfig({}).captcha).toBeUndefined()
    expect(loadConfig({ WEB_CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET: 's' }).captcha).toEqual({
      siteKey: 'site',
      secret: 's',
      verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    })
  })
})

describe.each<TestDatabaseKind>(testDatabases('server'))('captcha on %s', (kind) => {
  let verifier: Awaited<ReturnType<typeof startVerifier>>
  let png: Buffer

  const upload = (token?: string) => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)]), 'a.png')
    return fetch(`${suite.server.url}${PUBLIC_PLAYGROUND}/uploads`, {
      method: 'POST',
      body: form,
      headers: token === undefined ? {} : { 'x-captcha-token': token },
    })
  }
  const sign = (url: string, token?: string) =>
    createTestClient(suite.server).call('POST', `${PUBLIC_PLAYGROUND}/sign`, {
      body: { url },
      headers: token === undefined ? {} : { 'x-captcha-token': token },
    })

  beforeAll(async () => {
    verifier = await startVerifier()
  })
  afterAll(async () => {
    await verifier?.close()
  })
  const suite = useTestServer(kind, () => ({
    WEB_CAPTCHA_SITE_KEY: 'test-site-key',
    CAPTCHA_SECRET: SECRET,
    CAPTCHA_VERIFY_URL: verifier.url,
  }))
  beforeAll(async () => {
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#abc' } })
      .png()
      .toBuffer()
  })

  it('guards visitor uploads: 400 without a token, 403 refused, 201 passed', async () => {
    const missing = await upload()
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ code: 'captcha_required' })
    const refused = await upload('forged')
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'captcha_failed' })
    const passed = await upload(GOOD)
    expect(passed.status).toBe(201)
    const last = verifier.seen.at(-1)
    expect(last).toMatchObject({ secret: SECRET, response: GOOD })
    expect(last?.remoteip).toMatch(/127\.0\.0\.1/)
  })

  it('guards signing of AI chains only', async () => {
    const ai = AI
    expectError(await sign(ai), 400, 'captcha_required')
    expectError(await sign(ai, 'forged'), 403, 'captcha_failed')
    const passed = await sign(ai, GOOD)
    expect(passed.status).toBe(200)
    expect((passed.body as { url: string }).url).toMatch(/[?&]pbs=/)
    // A chain without AI operations needs no captcha.
    const free = await sign('/v2/demo/t.flip()/samples/astronaut.png')
    expect(free.status).toBe(200)
  })

  it('refuses a token solved on another site, or for another form', async () => {
    try {
      verifier.solveOn('attacker.example')
      expectError(await sign(AI, GOOD), 403, 'captcha_failed')
      expect((await upload(GOOD)).status).toBe(403)
      verifier.solveOn('localhost', 'playground')
      expect((await sign(AI, GOOD)).status).toBe(200)
    } finally {
      verifier.solveOn('localhost')
    }
  })

  it('guards the contact form: a message needs a token passed for the contact form', async () => {
    const { repo } = suite.server.services.context
    const before = (await repo.listContactMessages(1000)).length
    const post = (token?: string) =>
      fetch(`${suite.server.url}/contactus`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          name: 'Ada',
          email: 'ada@example.com',
          topic: 'sales',
          message: 'A message long enough to be kept.',
          ...(token === undefined ? {} : { 'cf-turnstile-response': token }),
        }),
      })
    expect((await post()).status).toBe(400)
    expect((await post('forged')).status).toBe(403)
    try {
      // Passed, but for the upload widget: not this form's token.
      verifier.solveOn('localhost', 'playground')
      expect((await post(GOOD)).status).toBe(403)
      expect((await repo.listContactMessages(1000)).length).toBe(before)
      verifier.solveOn('localhost', 'contact')
      expect((await post(GOOD)).status).toBe(200)
      expect((await repo.listContactMessages(1000)).length).toBe(before + 1)
    } finally {
      verifier.solveOn('localhost')
    }
  })

  it('answers 503 when the provider cannot be asked, and keeps serving', async () => {
    verifier.setBroken(true)
    try {
      const answer = await upload(GOOD)
      expect(answer.status).toBe(503)
      expect(await answer.json()).toMatchObject({ code: 'captcha_unavailable' })
    } finally {
      verifier.setBroken(false)
    }
    expect((await upload(GOOD)).status).toBe(201)
  })
})

describe.each<TestDatabaseKind>(['pglite'])('no captcha on %s', (kind) => {
  const suite = useTestServer(kind)

  it('needs no token without a site key', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#abc' } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)]), 'a.png')
    const answer = await fetch(`${suite.server.url}${PUBLIC_PLAYGROUND}/uploads`, {
      method: 'POST',
      body: form,
    })
    expect(answer.status).toBe(201)
    const signed = await createTestClient(suite.server).call('POST', `${PUBLIC_PLAYGROUND}/sign`, {
      body: { url: '/v2/demo/ic.crop(w:20,h:20)/samples/astronaut.png' },
    })
    expect(signed.status).toBe(200)
  })
})
