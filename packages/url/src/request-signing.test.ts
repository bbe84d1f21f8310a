import { describe, expect, it } from 'vitest'
import { UrlError } from './errors.ts'
import { formatSigningTime, signRequest, verifyRequestSignature } from './request-signing.ts'

const KEY = 'a-key-of-sixteen-chars'
const NOW = Date.UTC(2026, 10, 21, 9, 30, 5, 123)
const URL_ = 'https://api.example.com/service/panel/users/v1.0/profile/meta?b=2&a=1'
const request = { method: 'PATCH', url: URL_, body: '{"theme":"dark"}' }

async function signed(overrides: Partial<typeof request> = {}, now = NOW) {
  const headers = await signRequest({ ...request, ...overrides }, KEY, { now })
  return { param: headers['x-ebg-param'], signature: headers['x-ebg-signature'] }
}

const check = (req: typeof request, headers: { param?: string; signature?: string }, now = NOW) =>
  verifyRequestSignature(
    { ...req, param: headers.param, signature: headers.signature },
    { key: KEY, maxAgeSeconds: 300, now },
  )

describe('signRequest', () => {
  it('formats the signing time without dashes, colons or milliseconds', () => {
    expect(formatSigningTime(NOW)).toBe('20261121T093005Z')
  })

  it('sends the signing time as base64 and a v1 hex signature', async () => {
    const headers = await signed()
    expect(atob(headers.param)).toBe('20261121T093005Z')
    expect(headers.signature).toMatch(/^v1:[0-9a-f]{64}$/)
  })

  it('is deterministic for the same request, key and time', async () => {
    expect(await signed()).toEqual(await signed())
  })

  it('refuses a request without a URL with the message of SPEC §8', async () => {
    await expect(signRequest({ method: 'GET', url: '' }, KEY)).rejects.toThrow(
      'No URL present in request config, unable to sign request',
    )
    await expect(
      signRequest({ method: 'GET' } as unknown as { method: string; url: string }, KEY),
    ).rejects.toBeInstanceOf(UrlError)
  })

  it('refuses an empty key', async () => {
    await expect(signRequest(request, '')).rejects.toBeInstanceOf(UrlError)
  })
})

describe('verifyRequestSignature', () => {
  it('accepts the request it signed', async () => {
    const result = await check(request, await signed())
    expect(result).toMatchObject({ valid: true, signedAt: Date.UTC(2026, 10, 21, 9, 30, 5) })
  })

  it('does not depend on the order of the query parameters', async () => {
    const headers = await signed()
    const reordered = { ...request, url: URL_.replace('b=2&a=1', 'a=1&b=2') }
    expect((await check(reordered, headers)).valid).toBe(true)
  })

  it.each([
    ['method', { method: 'POST' }],
    ['path', { url: URL_.replace('profile/meta', 'profile/other') }],
    ['query value', { url: URL_.replace('b=2', 'b=3') }],
    ['added query parameter', { url: `${URL_}&c=1` }],
    ['host', { url: URL_.replace('api.example.com', 'evil.example.com') }],
    ['body', { body: '{"theme":"light"}' }],
  ])('rejects a request whose %s was changed', async (_what, change) => {
    const headers = await signed()
    expect(await check({ ...request, ...change }, headers)).toEqual({
      valid: false,
      reason: 'invalid_signature',
    })
  })

  it('rejects a signature made with another key', async () => {
    const headers = await signRequest(request, 'another-key-of-16-chars', { now: NOW })
    const result = await check(request, {
      param: headers['x-ebg-param'],
      signature: headers['x-ebg-signature'],
    })
    expect(result).toEqual({ valid: false, reason: 'invalid_signature' })
  })

  it('rejects a signing time older or newer than the allowed age', async () => {
    const headers = await signed()
    expect(await check(request, headers, NOW + 301_000)).toEqual({ valid: false, reason: 'stale' })
    expect(await check(request, headers, NOW - 301_000)).toEqual({ valid: false, reason: 'stale' })
    expect((await check(request, headers, NOW + 299_000)).valid).toBe(true)
  })

  it('reports missing headers', async () => {
    expect(await check(request, {})).toEqual({ valid: false, reason: 'missing' })
    expect(await check(request, { param: btoa('20261121T093005Z') })).toEqual({
      valid: false,
      reason: 'missing',
    })
  })

  it.each([
    ['a param that is not base64', { param: '%%%' }],
    ['a param that is not a signing time', { param: btoa('yesterday') }],
    ['an impossible date', { param: btoa('20261331T093005Z') }],
    ['a signature without its version', { signature: 'f'.repeat(64) }],
    ['a signature of the wrong length', { signature: `v1:${'f'.repeat(63)}` }],
  ])('reports %s as malformed', async (_what, change) => {
    const headers = { ...(await signed()), ...change }
    expect(await check(request, headers)).toEqual({ valid: false, reason: 'malformed' })
  })

  it('signs a request without a body as one with an empty body', async () => {
    const bodiless = { method: 'GET', url: URL_, body: '' }
    const headers = await signRequest({ method: 'GET', url: URL_ }, KEY, { now: NOW })
    const result = await check(bodiless, {
      param: headers['x-ebg-param'],
      signature: headers['x-ebg-signature'],
    })
    expect(result.valid).toBe(true)
  })
})
