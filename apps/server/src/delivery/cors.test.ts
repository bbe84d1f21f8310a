// CORS on delivery (issue 24, item 2) through the real server: anyone may read an
// organisation's images by default (originals, derived images, 304s, HEAD, the fast lane's
// answers, signed URLs), the preflight allows GET and HEAD; a list of origins echoes a listed
// Origin and varies on it; an empty list sends no header; bad settings are a 400.
import { describe, expect, it } from 'vitest'
import { expectError } from '../test-client.ts'
import {
  createSignedUrlOrganisation,
  signWithKey,
  type TestDatabaseKind,
  testDatabases,
} from '../test-server.ts'
import { DEMO_HORSE, useTestServer } from '../test-suite.ts'

const ORG = '/service/panel/organization/v1.0'
const ACAO = 'access-control-allow-origin'

describe.each<TestDatabaseKind>(testDatabases('server'))('CORS on delivery on %s', (kind) => {
  const suite = useTestServer(kind, {}, { owner: { files: { 'horse.png': DEMO_HORSE } } })
  const { call } = suite

  const settings = (body: unknown) =>
    call('PATCH', `${ORG}/${suite.owner.organisation._id}/settings`, {
      cookie: suite.owner.cookie,
      body,
    })
  const from = (origin: string, extra: Record<string, string> = {}) => ({
    headers: { origin, ...extra },
  })

  it('lets any origin read originals and derived images by default', async () => {
    const current = await call('GET', `${ORG}/${suite.owner.organisation._id}/settings`, {
      cookie: suite.owner.cookie,
    })
    expect((current.body as { corsOrigins: string[] }).corsOrigins).toEqual(['*'])
    const original = await fetch(`${suite.base}/original/horse.png`, from('https://other.example'))
    expect(original.status).toBe(200)
    expect(original.headers.get(ACAO)).toBe('*')
    expect(original.headers.get('access-control-expose-headers')).toContain('ETag')
    // A derived image: first the render, then hits (the second is the fast lane's answer).
    const url = `${suite.base}/t.resize(w:40)/horse.png`
    for (let round = 0; round < 3; round++) {
      const answer = await fetch(url, from('https://other.example'))
      expect(answer.status).toBe(200)
      expect(answer.headers.get(ACAO)).toBe('*')
      await answer.arrayBuffer()
    }
    const etag = (await fetch(url)).headers.get('etag') as string
    const again = await fetch(url, from('https://other.example', { 'if-none-match': etag }))
    expect(again.status).toBe(304)
    expect(again.headers.get(ACAO)).toBe('*')
    const head = await fetch(url, { method: 'HEAD', ...from('https://other.example') })
    expect(head.headers.get(ACAO)).toBe('*')
  })

  it('answers the preflight of a delivery URL', async () => {
    const answer = await fetch(`${suite.base}/t.resize(w:40)/horse.png`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://other.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'range, if-none-match',
      },
    })
    expect(answer.status).toBe(204)
    expect(answer.headers.get(ACAO)).toBe('*')
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, HEAD')
    expect(answer.headers.get('access-control-allow-headers')).toBe('range, if-none-match')
    const unknown = await fetch(`${suite.server.url}/v2/nobody-here/original/a.png`, {
      method: 'OPTIONS',
      headers: { origin: 'https://other.example', 'access-control-request-method': 'GET' },
    })
    expect(unknown.status).toBe(404)
  })

  it('echoes only listed origins, varying on Origin, when the organisation lists them', async () => {
    const changed = await settings({
      corsOrigins: ['https://Shop.example:443/', 'http://a.test:8080'],
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect((changed.body as { corsOrigins: string[] }).corsOrigins).toEqual([
      'https://shop.example',
      'http://a.test:8080',
    ])
    const url = `${suite.base}/t.resize(w:41)/horse.png`
    for (let round = 0; round < 2; round++) {
      const listed = await fetch(url, from('https://shop.example'))
      expect(listed.headers.get(ACAO)).toBe('https://shop.example')
      expect(listed.headers.get('vary')).toContain('Origin')
      await listed.arrayBuffer()
      const other = await fetch(url, from('https://evil.example'))
      expect(other.status).toBe(200)
      expect(other.headers.get(ACAO)).toBeNull()
      await other.arrayBuffer()
      const none = await fetch(url)
      expect(none.headers.get(ACAO)).toBeNull()
      await none.arrayBuffer()
    }
    const original = await fetch(`${suite.base}/original/horse.png`, from('http://a.test:8080'))
    expect(original.headers.get(ACAO)).toBe('http://a.test:8080')
    expect(original.headers.get('vary')).toContain('Origin')
    const refused = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    })
    expect(refused.status).toBe(204)
    expect(refused.headers.get(ACAO)).toBeNull()
  })

  it('sends no CORS header with an empty list, and back to anyone with *', async () => {
    expect((await settings({ corsOrigins: [] })).status).toBe(200)
    const closed = await fetch(
      `${suite.base}/t.resize(w:40)/horse.png`,
      from('https://other.example'),
    )
    expect(closed.headers.get(ACAO)).toBeNull()
    await closed.arrayBuffer()
    expect((await settings({ corsOrigins: ['*'] })).status).toBe(200)
    const open = await fetch(
      `${suite.base}/t.resize(w:40)/horse.png`,
      from('https://other.example'),
    )
    expect(open.headers.get(ACAO)).toBe('*')
  })

  it('refuses settings that are not * or origins, changing nothing', async () => {
    for (const corsOrigins of [
      ['ftp://shop.example'],
      ['https://shop.example/path'],
      ['*', 'https://shop.example'],
      'https://shop.example',
      ['https://user:pw@shop.example'],
    ]) {
      expectError(await settings({ corsOrigins }), 400, 'invalid_body')
    }
    const current = await call('GET', `${ORG}/${suite.owner.organisation._id}/settings`, {
      cookie: suite.owner.cookie,
    })
    expect((current.body as { corsOrigins: string[] }).corsOrigins).toEqual(['*'])
  })

  it('gives signed URLs the same header: the signature is the guard', async () => {
    const { organisation, key } = await createSignedUrlOrganisation(suite.server, 'cors-signed')
    const signed = await signWithKey(
      `${suite.server.url}/v2/${organisation.cloudName}/original/horse.png`,
      key,
    )
    const answer = await fetch(signed, from('https://other.example'))
    expect(answer.status).toBe(200)
    expect(answer.headers.get(ACAO)).toBe('*')
  })
})
