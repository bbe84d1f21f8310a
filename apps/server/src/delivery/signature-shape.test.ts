// Issue 19 finding 10: a signature parameter of a shape no key has (a NUL byte in `pbt`, which
// the database refuses) answered 500. Every signed-URL check now refuses it as an invalid
// signature before any lookup, on PGlite and PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest'
import { createSignedUrlOrganisation, signWithKey, type TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

describe.each<TestDatabaseKind>(['pglite', 'postgres'])('signature parameters on %s', (kind) => {
  let signed: string
  const suite = useTestServer(kind)

  beforeAll(async () => {
    const { key } = await createSignedUrlOrganisation(suite.server, `shape-${kind}`)
    signed = await signWithKey(`${suite.server.url}/v2/shape-${kind}/t.resize(w:16)/horse.png`, key)
  })

  const withParam = (url: string, name: string, value: string) =>
    url.replace(new RegExp(`${name}=[^&]*`), `${name}=${value}`)
  const ODD_VALUES = ['%00', 'ab%00cd', '', '%FF', '%E2%80%AE', 'x'.repeat(5000), '%0A', '..%2F..']

  it('answers a signed URL whose access key has an odd shape with 401 invalid_signature', async () => {
    expect((await fetch(signed)).status).toBe(200)
    for (const value of ODD_VALUES) {
      const answer = await fetch(withParam(signed, 'pbt', value))
      expect(answer.status, `pbt=${value.slice(0, 20)}`).toBe(401)
      expect(((await answer.json()) as { code: string }).code).toBe('invalid_signature')
    }
  })

  it('answers odd signatures and expiries with 401 invalid_signature', async () => {
    for (const [name, value] of [
      ['pbs', '%00'],
      ['pbs', 'zz'],
      ['pbe', '%00'],
      ['pbe', '-1'],
      ['pbe', '1e99'],
    ] as const) {
      const answer = await fetch(withParam(signed, name, value))
      expect(answer.status, `${name}=${value}`).toBe(401)
      expect(((await answer.json()) as { code: string }).code).toBe('invalid_signature')
    }
  })

  it('refuses an odd access key on an unsigned AI URL of a strict organisation', async () => {
    // The demo organisation has strict transformations on: an AI step needs a valid signature.
    const url = `${suite.server.url}/v2/demo/erase.bg()/samples/horse.png?pbs=${'a'.repeat(64)}&pbe=${
      Math.floor(Date.now() / 1000) + 60
    }&pbt=ab%00cd`
    const answer = await fetch(url)
    expect(answer.status).toBe(401)
    expect(((await answer.json()) as { code: string }).code).toBe('strict_transformations')
  })
})
