// The visitor signing call over real HTTP on PGlite and PostgreSQL: a demo URL with an AI
// operation comes back signed and delivery then runs it (202, then 200) although the demo has
// strict transformations on; other URLs are refused; free chains come back as sent; signing
// counts nothing, and delivery's new AI renders end the daily allowance per address in 429
// (visitor-uploads.test.ts shows cache hits are free).
import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { expectError } from '../test-client.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { MEMBER_PLAYGROUND, PUBLIC_PLAYGROUND } from './paths.ts'

const SIGN = `${PUBLIC_PLAYGROUND}/sign`
const LIMIT = 3

interface Signed {
  url: string
  remaining: { aiRuns: number }
}

describe.each<TestDatabaseKind>(testDatabases('server'))('playground signing on %s', (kind) => {
  const suite = useTestServer(kind, { ANON_AI_RUNS_PER_DAY: String(LIMIT) })

  const sign = (url: unknown) => suite.call('POST', SIGN, { body: { url } })
  const clearRuns = async () => {
    // Every request of this file comes from this machine: one address, one allowance.
    await suite.server.services.context.database.db.execute(
      sql`delete from rate_limit_events where key like 'playground:%'`,
    )
  }

  it('signs a demo URL with an AI operation, and delivery runs it (202, then 200)', async () => {
    await clearRuns()
    const plain = `${suite.server.url}/v2/demo/ic.crop(w:200,h:200)/samples/astronaut.png`
    const refused = await fetch(plain)
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ code: 'strict_transformations' })

    const answer = await sign(plain)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const signed = answer.body as Signed
    expect(signed.remaining).toEqual({ aiRuns: LIMIT })
    expect(signed.url.startsWith(`${plain}?`)).toBe(true)
    const query = new URL(signed.url).searchParams
    expect(query.get('pbs')).toMatch(/^[0-9a-f]{64}$/)
    const expiry = Number(query.get('pbe'))
    const inAnHour = Date.now() / 1000 + 3600
    expect(expiry).toBeGreaterThan(inAnHour - 60)
    expect(expiry).toBeLessThanOrEqual(inAnHour + 1)

    let response = await fetch(signed.url)
    expect(response.status).toBe(202)
    for (let attempt = 0; attempt < 300 && response.status === 202; attempt++) {
      await response.arrayBuffer()
      await new Promise((resolve) => setTimeout(resolve, 100))
      response = await fetch(signed.url)
    }
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^image\//)
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0)
    // A tampered chain is not covered by the signature.
    const tampered = signed.url.replace('w:200', 'w:201')
    expect((await fetch(tampered)).status).toBe(401)
  })

  it('signs a path on this server and answers a path', async () => {
    await clearRuns()
    const path = '/v2/demo/t.resize(w:100)~erase.bg()/samples/coffee.png'
    const answer = await sign(path)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const signed = answer.body as Signed
    expect(signed.url.startsWith(`${path}?pbs=`)).toBe(true)
    const response = await fetch(`${suite.server.url}${signed.url}`)
    expect([200, 202]).toContain(response.status)
  })

  it('leaves chains without AI operations unsigned and uncounted', async () => {
    await clearRuns()
    for (const url of [
      `${suite.server.url}/v2/demo/t.resize(w:100)/samples/astronaut.png`,
      '/v2/demo/original/samples/astronaut.png',
      '/v2/demo/p:thumbnail/samples/astronaut.png',
    ]) {
      const answer = await sign(url)
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      expect(answer.body).toEqual({ url, remaining: { aiRuns: LIMIT } })
    }
  })

  it('refuses other organisations, other hosts and garbage with 400', async () => {
    const other = await suite.client.signup()
    const { cloudName } = other.organisation
    for (const url of [
      `${suite.server.url}/v2/${cloudName}/ic.crop(w:200)/a.png`,
      '/v2/acme/ic.crop(w:200)/a.png',
      'https://elsewhere.example/v2/demo/ic.crop(w:200)/samples/astronaut.png',
      '/service/panel/users/v1.0/session',
      'not a url',
      '/v2/demo',
      '/v2/demo/ic.crop(w:200)/samples/astronaut.png?unknown=1',
    ]) {
      expectError(await sign(url), 400, 'not_playground_url')
    }
    expectError(await sign(''), 400, 'invalid_body')
    expectError(await sign(42), 400, 'invalid_body')
    expectError(await suite.call('POST', SIGN, { raw: '{', headers: {} }), 400, 'invalid_json')
  })

  it('counts new AI renders per address at delivery and answers 429 past the daily limit', async () => {
    await clearRuns()
    const queued: string[] = []
    for (let run = 1; run <= LIMIT; run++) {
      const answer = await sign(`/v2/demo/ic.crop(w:${40 + run},h:50)/samples/horse.png`)
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      // Signing counts nothing; the render delivery starts does.
      expect((answer.body as Signed).remaining.aiRuns).toBe(LIMIT - run + 1)
      const url = (answer.body as Signed).url
      const response = await fetch(`${suite.server.url}${url}`)
      expect([200, 202]).toContain(response.status)
      await response.arrayBuffer()
      queued.push(url)
    }
    const last = await sign('/v2/demo/ic.crop(w:30,h:30)/samples/horse.png')
    expect(last.status).toBe(200)
    expect((last.body as Signed).remaining.aiRuns).toBe(0)
    const over = await fetch(`${suite.server.url}${(last.body as Signed).url}`, {
      headers: { accept: 'application/json' },
    })
    expect(over.status).toBe(429)
    expect(await over.json()).toMatchObject({ code: 'daily_limit_exceeded' })
    const wait = Number(over.headers.get('retry-after'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(24 * 3600)
    // Polling a render already queued is not a new one.
    const again = await fetch(`${suite.server.url}${queued[0]}`)
    expect([200, 202]).toContain(again.status)
    await again.arrayBuffer()
    // A free chain still answers, with nothing left.
    const free = await sign('/v2/demo/t.flip()/samples/horse.png')
    expect(free.body).toEqual({
      url: '/v2/demo/t.flip()/samples/horse.png',
      remaining: { aiRuns: 0 },
    })
  })

  it("signs a member's URL of their own organisation, which delivery runs; no one else's", async () => {
    // A small image of the owner's organisation, stored as an upload would store it.
    const image = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#3366cc' },
    })
      .png()
      .toBuffer()
    const owner = await suite.signUp({ files: { 'a.png': image } })
    const other = await suite.client.signup()
    const orgId = owner.organisation._id
    const cloud = owner.organisation.cloudName
    const plain = `${suite.server.url}/v2/${cloud}/ic.crop(w:20,h:20)/a.png`
    const memberSign = (who: { cookie: string }, org: string, url: unknown) =>
      suite.call('POST', `${MEMBER_PLAYGROUND}/${org}/sign`, { cookie: who.cookie, body: { url } })

    const answer = await memberSign(owner, orgId, plain)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const signed = (answer.body as { url: string }).url
    expect(signed.startsWith(`${plain}?`)).toBe(true)
    expect(new URL(signed).searchParams.get('pbs')).toMatch(/^[0-9a-f]{64}$/)
    // New organisations are strict: unsigned, the AI operation is refused; signed, it is queued.
    expect((await fetch(plain)).status).toBe(401)
    expect((await fetch(signed)).status).toBe(202)

    // Another organisation's member cannot sign here, nor sign this organisation's URL.
    expectError(await memberSign(other, orgId, plain), 404, 'organisation_not_found')
    expectError(await memberSign(other, other.organisation._id, plain), 400, 'not_playground_url')
    expectError(await memberSign(owner, orgId, 'garbage'), 400, 'not_playground_url')
    expectError(
      await suite.call('POST', `${MEMBER_PLAYGROUND}/${orgId}/sign`, { body: { url: plain } }),
      401,
      'unauthenticated',
    )
  })
})
