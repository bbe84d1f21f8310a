// Custom domains through the real server (issue 24): an owner registers a domain, proves control
// with a DNS TXT record (a DNS server of the test's own, DOMAIN_DNS_SERVERS) or an HTTP file
// (its address from that DNS, DOMAIN_HTTP_PORT), and then `https://<domain>/{pattern}/{path}`
// delivers the organisation's images (a request with that Host header); pending, failed and
// removed domains deliver nothing; the TLS proxy's `ask` answers 200 for verified domains only.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../test-client.ts'
import { useLoopbackHost } from '../test-loopback.ts'
import { type TestDatabaseKind, type TestServer, testDatabases } from '../test-server.ts'
import { DEMO_HORSE, useTestServer } from '../test-suite.ts'
import { type DnsResponder, startDnsResponder } from './dns-responder.ts'

const ORG = '/service/panel/organization/v1.0'
const ASK = '/service/public/domains/v1.0/tls-ask'

interface Domain {
  _id: string
  host: string
  status: 'pending' | 'verified' | 'failed'
  lastError: string | null
  method?: string
  challenge: { dns: { name: string; value: string }; http: { url: string; body: string } }
}

/** A GET to the test server with this Host header, as a client of the custom domain sends. */
function getVia(
  server: TestServer,
  host: string,
  path: string,
): Promise<{ status: number; type: string; size: number }> {
  const { port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port, path, headers: { host, accept: 'image/png' } },
      (response) => {
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
        })
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            type: String(response.headers['content-type'] ?? ''),
            size,
          }),
        )
        response.on('error', reject)
      },
    )
    sent.on('error', reject)
    sent.end()
  })
}

describe.each<TestDatabaseKind>(testDatabases('server'))('custom domains on %s', (kind) => {
  let dns: DnsResponder
  /** What the HTTP challenge server answers, by path. */
  const files = new Map<string, string>()

  beforeAll(async () => {
    dns = await startDnsResponder()
  })
  afterAll(async () => {
    await dns?.close()
  })
  const challenges = useLoopbackHost((req, res) => {
    const body = files.get(req.url ?? '')
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' })
    res.end(body ?? 'not here')
  })
  const suite = useTestServer(
    kind,
    () => ({
      DOMAIN_DNS_SERVERS: dns.address,
      DOMAIN_HTTP_PORT: String(challenges.port),
      DOMAIN_CHECK_TIMEOUT_MS: '2000',
      REMOTE_ALLOW_HOSTS: 'cdn.example.test',
    }),
    { owner: { files: { 'horse.png': DEMO_HORSE } } },
  )
  const { call } = suite

  const domainsPath = () => `${ORG}/${suite.owner.organisation._id}/domains`
  const add = (host: string, account = suite.owner) =>
    call('POST', `${ORG}/${account.organisation._id}/domains`, {
      cookie: account.cookie,
      body: { host },
    })
  const check = (id: string) =>
    call('POST', `${domainsPath()}/${id}/check`, { cookie: suite.owner.cookie })
  const ask = async (host: string) =>
    (await fetch(`${suite.server.url}${ASK}?domain=${encodeURIComponent(host)}`)).status

  it('registers, verifies by DNS TXT and delivers on the domain; re-checks and removes', async () => {
    const added = await add('Assets.Example.test')
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const domain = added.body as Domain
    expect(domain.host).toBe('assets.example.test')
    expect(domain.status).toBe('pending')
    expect(domain.challenge.dns.name).toBe('_tessera-challenge.assets.example.test')
    expect(domain.challenge.dns.value).toMatch(/^tessera-verification=[A-Za-z0-9_-]{24}$/)

    // Pending: the host delivers nothing and gets no certificate.
    const pending = await getVia(
      suite.server,
      'assets.example.test',
      '/v2/t.resize(w:20)/horse.png',
    )
    expect(pending.status).toBe(404)
    expect(pending.type).not.toBe('image/png')
    expect(await ask('assets.example.test')).toBe(403)

    // No record yet: failed, saying what was looked for.
    const failed = await check(domain._id)
    expect(failed.status).toBe(200)
    expect((failed.body as Domain).status).toBe('failed')
    expect((failed.body as Domain).lastError).toContain('_tessera-challenge.assets.example.test')

    dns.records.txt.set('_tessera-challenge.assets.example.test', [
      'some-other=record',
      domain.challenge.dns.value,
    ])
    const verified = await check(domain._id)
    expect(verified.body).toMatchObject({ status: 'verified', method: 'dns', lastError: null })
    expect(dns.asked.some((q) => q.name === '_tessera-challenge.assets.example.test')).toBe(true)

    const image = await getVia(suite.server, 'assets.example.test', '/v2/t.resize(w:20)/horse.png')
    expect(image.status).toBe(200)
    expect(image.type).toBe('image/png')
    const original = await getVia(suite.server, 'assets.example.test', '/v2/original/horse.png')
    expect(original.status).toBe(200)
    expect(await ask('assets.example.test')).toBe(200)

    const listed = await call('GET', domainsPath(), { cookie: suite.owner.cookie })
    expect((listed.body as Domain[]).map((d) => [d.host, d.status])).toEqual([
      ['assets.example.test', 'verified'],
    ])

    // The record taken away: a re-check fails and the domain stops delivering.
    dns.records.txt.delete('_tessera-challenge.assets.example.test')
    expect(((await check(domain._id)).body as Domain).status).toBe('failed')
    const stopped = await getVia(
      suite.server,
      'assets.example.test',
      '/v2/t.resize(w:20)/horse.png',
    )
    expect(stopped.status).toBe(404)
    expect(await ask('assets.example.test')).toBe(403)

    // Back, then removed: nothing is delivered once removal answers.
    dns.records.txt.set('_tessera-challenge.assets.example.test', [domain.challenge.dns.value])
    expect(((await check(domain._id)).body as Domain).status).toBe('verified')
    const removed = await call('DELETE', `${domainsPath()}/${domain._id}`, {
      cookie: suite.owner.cookie,
    })
    expect(removed.status).toBe(204)
    const gone = await getVia(suite.server, 'assets.example.test', '/v2/t.resize(w:20)/horse.png')
    expect(gone.status).toBe(404)
    expect(await ask('assets.example.test')).toBe(403)
  })

  it('verifies by the HTTP challenge, only where the address may be reached', async () => {
    const domain = (await add('cdn.example.test')).body as Domain
    dns.records.a.set('cdn.example.test', '127.0.0.1')
    files.set(new URL(domain.challenge.http.url).pathname, domain.challenge.http.body)
    const verified = await check(domain._id)
    expect(verified.body).toMatchObject({ status: 'verified', method: 'http' })
    expect((await getVia(suite.server, 'cdn.example.test', '/v2/original/horse.png')).status).toBe(
      200,
    )

    // A loopback address not in REMOTE_ALLOW_HOSTS is never fetched.
    const other = (await add('private.example.test')).body as Domain
    dns.records.a.set('private.example.test', '127.0.0.1')
    files.set(new URL(other.challenge.http.url).pathname, other.challenge.http.body)
    const refused = await check(other._id)
    expect((refused.body as Domain).status).toBe('failed')
    expect((refused.body as Domain).lastError).toContain('private address')
  })

  it('refuses names that are not domains, its own hosts, and a domain taken', async () => {
    for (const host of ['not a domain', 'localhost', '127.0.0.1', 'com', '-bad.example', '']) {
      const answer = await add(host)
      expect(answer.status, host).toBe(400)
    }
    expectError(await add('localhost.'), 400, 'invalid_domain')
    const other = await suite.client.signup()
    await add('taken.example.test')
    expectError(await add('taken.example.test', other), 409, 'domain_taken')
  })

  it('is invisible to another organisation and changed by owners only', async () => {
    const domain = (await add('mine.example.test')).body as Domain
    const other = await suite.client.signup()
    const path = `${ORG}/${suite.owner.organisation._id}/domains`
    expect((await call('GET', path, { cookie: other.cookie })).status).toBe(404)
    expect(
      (await call('POST', `${path}/${domain._id}/check`, { cookie: other.cookie })).status,
    ).toBe(404)
    expect((await call('DELETE', `${path}/${domain._id}`, { cookie: other.cookie })).status).toBe(
      404,
    )
    // The other organisation's own path with this id: no such domain there.
    expect(
      (
        await call('DELETE', `${ORG}/${other.organisation._id}/domains/${domain._id}`, {
          cookie: other.cookie,
        })
      ).status,
    ).toBe(404)
    const { member } = await suite.client.join(suite.owner)
    expect((await call('GET', path, { cookie: member.cookie })).status).toBe(200)
    const byMember = await call('POST', path, {
      cookie: member.cookie,
      body: { host: 'member.example.test' },
    })
    expect(byMember.status).toBe(403)
  })

  it('answers the TLS ask for its own host and refuses junk', async () => {
    expect(await ask('localhost')).toBe(200)
    expect(await ask('unknown.example.test')).toBe(403)
    expect(await ask('')).toBe(403)
    expect(await ask('x'.repeat(5000))).toBe(403)
  })
})
