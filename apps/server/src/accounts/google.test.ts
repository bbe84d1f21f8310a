// Google one-tap through the real server, with a real key pair and a JWKS endpoint on loopback
// standing in for Google's (we cannot reach Google here; the verifier is the production one).
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ApiError } from '../test-client.ts'
import { useLoopbackHost } from '../test-loopback.ts'
import { defaultTestDatabase, type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

const CLIENT_ID = 'tessera-test.apps.googleusercontent.com'
const GOOGLE = '/service/panel/users/v1.0/auth/google'

describe.each<TestDatabaseKind>(testDatabases('server'))('Google one-tap on %s', (kind) => {
  let publicJwk: Record<string, unknown>
  let sign: (
    claims: Record<string, unknown>,
    options?: { key?: 'other'; expiresIn?: string; audience?: string },
  ) => Promise<string>
  let seq = 0

  beforeAll(async () => {
    const google = await generateKeyPair('RS256')
    const stranger = await generateKeyPair('RS256')
    publicJwk = { ...(await exportJWK(google.publicKey)), kid: 'g1', alg: 'RS256', use: 'sig' }
    sign = (claims, options = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'g1' })
        .setIssuer('https://accounts.google.com')
        .setAudience(options.audience ?? CLIENT_ID)
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '10m')
        .sign(options.key === 'other' ? stranger.privateKey : google.privateKey)
  })
  const jwks = useLoopbackHost((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ keys: [publicJwk] }))
  })
  const suite = useTestServer(kind, () => ({
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_JWKS_URL: `${jwks.base}/oauth2/v3/certs`,
  }))

  const person = () => {
    seq++
    return {
      sub: `google-${kind}-${seq}-${Date.now()}`,
      email: `Person${seq}.${kind}.${Date.now()}@Gmail.com`,
      email_verified: true,
      given_name: 'Grace',
      family_name: 'Hopper',
    }
  }

  it('creates an account with an organisation for a new Google user and signs them in', async () => {
    const claims = person()
    const answer = await suite.call('POST', GOOGLE, { body: { credential: await sign(claims) } })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    expect(answer.body).toMatchObject({
      isNewUser: true,
      user: { email: claims.email.toLowerCase(), firstName: 'Grace', lastName: 'Hopper' },
    })
    const session = await suite.call('GET', '/service/panel/users/v1.0/session', {
      cookie: answer.cookie ?? '',
    })
    expect(session.status).toBe(200)
    const orgs = await suite.call('GET', '/service/panel/organization/v1.0/all', {
      cookie: answer.cookie ?? '',
    })
    expect((orgs.body as { cloudName: string }[])[0]?.cloudName).toMatch(/^grace-/)
    // The same Google account signs in to the same user next time.
    const again = await suite.call('POST', GOOGLE, { body: { credential: await sign(claims) } })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({
      isNewUser: false,
      user: { _id: (answer.body as { user: { _id: string } }).user._id },
    })
    // Such an account has no password to log in with.
    const login = await suite.call('POST', '/service/panel/users/v1.0/auth/login', {
      body: { email: claims.email, password: 'correct horse battery' },
    })
    expect(login.status).toBe(401)
  })

  it('links a verified Google email to the existing account of that email', async () => {
    const existing = await suite.client.signup()
    const claims = { ...person(), email: existing.email }
    const answer = await suite.call('POST', GOOGLE, { body: { credential: await sign(claims) } })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ isNewUser: false, user: { _id: existing.user._id } })
    // A second Google account claiming the same email cannot take it over.
    const other = await suite.call('POST', GOOGLE, {
      body: { credential: await sign({ ...person(), email: existing.email }) },
    })
    expect(other.status).toBe(409)
    expect((other.body as ApiError).code).toBe('google_account_conflict')
  })

  it('refuses an unverified email for a new account', async () => {
    const answer = await suite.call('POST', GOOGLE, {
      body: { credential: await sign({ ...person(), email_verified: false }) },
    })
    expect(answer.status).toBe(403)
    expect((answer.body as ApiError).code).toBe('email_not_verified')
  })

  it.each([
    ['signed by another key', async () => sign(person(), { key: 'other' })],
    ['expired', async () => sign(person(), { expiresIn: '-5m' })],
    [
      'for another audience',
      async () => sign(person(), { audience: 'someone-else.apps.googleusercontent.com' }),
    ],
    ['not a JWT', async () => 'not.a.jwt'],
    ['SQL-looking', async () => "' OR '1'='1"],
  ])('answers 401 for a credential %s', async (_what, make) => {
    const answer = await suite.call('POST', GOOGLE, { body: { credential: await make() } })
    expect(answer.status, JSON.stringify(answer.body)).toBe(401)
    expect((answer.body as ApiError).code).toBe('invalid_google_token')
    expect(answer.cookie).toBeUndefined()
  })

  it('answers 400 without a credential', async () => {
    for (const body of [{}, { credential: '' }, { credential: 42 }]) {
      const answer = await suite.call('POST', GOOGLE, { body })
      expect(answer.status).toBe(400)
      expect((answer.body as ApiError).code).toBe('invalid_body')
    }
  })
})

describe('Google one-tap without a client id', () => {
  const suite = useTestServer(defaultTestDatabase())

  it('is off: 404 google_sign_in_off', async () => {
    const answer = await suite.call('POST', GOOGLE, { body: { credential: 'x' } })
    expect(answer.status).toBe(404)
    expect((answer.body as ApiError).code).toBe('google_sign_in_off')
  })
})
