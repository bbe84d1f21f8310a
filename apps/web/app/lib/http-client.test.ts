import { verifyRequestSignature } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { createHttpClient, HttpError } from './http-client.ts'

const KEY = 'a-test-signing-key-0123456789'

function recorder(status = 200, body: unknown = { ok: true }) {
  const seen: Request[] = []
  return {
    seen,
    fetch: async (request: Request) => {
      seen.push(request)
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      })
    },
  }
}

describe('the shared HTTP client (SPEC §7.1, §7.2, §8)', () => {
  it('signs panel calls so the server can verify them, body included', async () => {
    const net = recorder()
    const client = createHttpClient({
      origin: 'http://localhost:4201',
      signingKey: KEY,
      fetch: net.fetch,
    })
    await client.request('/service/panel/users/v1.0/profile/meta?b=2&a=1', {
      method: 'PATCH',
      body: { theme: 'dark' },
    })
    const request = net.seen[0]
    if (request === undefined) throw new Error('no request')
    const check = await verifyRequestSignature(
      {
        method: 'PATCH',
        url: request.url,
        body: await request.text(),
        param: request.headers.get('x-ebg-param') ?? undefined,
        signature: request.headers.get('x-ebg-signature') ?? undefined,
      },
      { key: KEY, maxAgeSeconds: 60 },
    )
    expect(check.valid).toBe(true)
    expect(request.credentials).toBe('include')
  })

  it('does not sign public calls', async () => {
    const net = recorder()
    const client = createHttpClient({
      origin: 'http://localhost',
      signingKey: KEY,
      fetch: net.fetch,
    })
    await client.request('/service/public/apps/v1.0/dynamicApps')
    expect(net.seen[0]?.headers.has('x-ebg-signature')).toBe(false)
  })

  it('sends the browser to the login page on 401 and 403, except for auth and session calls', async () => {
    for (const status of [401, 403]) {
      let redirected = 0
      const client = createHttpClient({
        origin: 'http://localhost',
        signingKey: KEY,
        fetch: recorder(status, { code: 'x' }).fetch,
        onUnauthorized: () => redirected++,
        log: () => {},
      })
      await expect(client.request('/service/panel/organization/v1.0/all')).rejects.toBeInstanceOf(
        HttpError,
      )
      await expect(client.request('/service/panel/users/v1.0/session')).rejects.toBeInstanceOf(
        HttpError,
      )
      await expect(
        client.request('/service/panel/users/v1.0/auth/login', { method: 'POST', body: {} }),
      ).rejects.toBeInstanceOf(HttpError)
      expect(redirected, String(status)).toBe(1)
    }
  })

  it('shows a 403 that refuses a signed-in caller (a role too weak) instead of looping to the login page', async () => {
    let redirected = 0
    const client = createHttpClient({
      origin: 'http://localhost',
      signingKey: KEY,
      fetch: recorder(403, { code: 'forbidden', message: 'This needs the admin role' }).fetch,
      onUnauthorized: () => redirected++,
      log: () => {},
    })
    await expect(
      client.request('/service/panel/organization/v1.0/x/signing-keys'),
    ).rejects.toMatchObject({ status: 403, data: { code: 'forbidden' } })
    expect(redirected).toBe(0)
  })

  it('logs a failure with status, method, URL and data', async () => {
    const logged: unknown[] = []
    const client = createHttpClient({
      origin: 'http://localhost',
      signingKey: KEY,
      fetch: recorder(409, { code: 'email_taken' }).fetch,
      log: (_message, details) => logged.push(details),
    })
    await expect(
      client.request('/service/panel/users/v1.0/auth/signup', { method: 'POST', body: {} }),
    ).rejects.toMatchObject({ status: 409, data: { code: 'email_taken' } })
    expect(logged).toEqual([
      {
        status: 409,
        method: 'POST',
        url: 'http://localhost/service/panel/users/v1.0/auth/signup',
        data: { code: 'email_taken' },
      },
    ])
  })
})
