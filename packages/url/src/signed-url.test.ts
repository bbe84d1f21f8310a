import { describe, expect, it } from 'vitest'
import { IllegalArgumentError, MESSAGES } from './errors.ts'
import { type SignUrlOptions, signUrl, timingSafeEqual, verifySignedUrl } from './signed-url.ts'

const URL_TO_SIGN =
  'https://cdn.pixelbin.io/v2/dummy-cloudname/original/__playground/playground-default.jpeg'
const KEY = '6227274d-92c9-4b74-bef8-2528542516d8'
const TOKENS = new Map([[KEY, 'dummy-token']])
const getToken = (key: string) => TOKENS.get(key)
const NOW = 1695635915

describe('signUrl', () => {
  it('matches the published test vector of the peer SDKs', async () => {
    const signed = await signUrl(URL_TO_SIGN, {
      accessKey: KEY,
      token: 'dummy-token',
      expirySeconds: 0,
      now: NOW,
    })
    expect(signed).toBe(
      `${URL_TO_SIGN}?pbs=8eb6a00af74e57967a42316e4de238aa88d92961649764fad1832c1bff101f25&pbe=1695635915&pbt=${KEY}`,
    )
  })

  it('keeps an existing query and signs it too', async () => {
    const signed = await signUrl(`${URL_TO_SIGN}?dpr=2`, {
      accessKey: KEY,
      token: 'dummy-token',
      expirySeconds: 60,
      now: NOW,
    })
    expect(signed).toMatch(/\?dpr=2&pbs=[0-9a-f]{64}&pbe=1695635975&pbt=/)
    expect(await verifySignedUrl(signed, { getToken, now: NOW })).toEqual({
      valid: true,
      accessKey: KEY,
      expiresAt: 1695635975,
    })
    const altered = signed.replace('dpr=2', 'dpr=3')
    expect(await verifySignedUrl(altered, { getToken, now: NOW })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    })
  })

  it.each<[string, Partial<SignUrlOptions>, string]>([
    ['no token', { accessKey: KEY, expirySeconds: 1 }, MESSAGES.signRequired],
    ['no access key', { token: 't', expirySeconds: 1 }, MESSAGES.signRequired],
    ['no expiry', { accessKey: KEY, token: 't' }, MESSAGES.signRequired],
    [
      'a text expiry',
      { accessKey: KEY, token: 't', expirySeconds: '60' as unknown as number },
      MESSAGES.signExpiry('string'),
    ],
  ])('refuses %s', async (_name, options, message) => {
    await expect(signUrl(URL_TO_SIGN, options as SignUrlOptions)).rejects.toThrowError(
      new IllegalArgumentError(message),
    )
  })

  it('refuses a URL that is already signed', async () => {
    const signed = await signUrl(URL_TO_SIGN, { accessKey: KEY, token: 't', expirySeconds: 1 })
    await expect(
      signUrl(signed, { accessKey: KEY, token: 't', expirySeconds: 1 }),
    ).rejects.toThrowError(MESSAGES.signAlreadySigned)
  })
})

describe('verifySignedUrl', () => {
  const sign = (expirySeconds = 3600) =>
    signUrl(URL_TO_SIGN, { accessKey: KEY, token: 'dummy-token', expirySeconds, now: NOW })

  it('accepts a fresh, untouched URL', async () => {
    expect(await verifySignedUrl(await sign(), { getToken, now: NOW + 10 })).toEqual({
      valid: true,
      accessKey: KEY,
      expiresAt: NOW + 3600,
    })
  })

  it('refuses an expired URL', async () => {
    expect(await verifySignedUrl(await sign(60), { getToken, now: NOW + 61 })).toEqual({
      valid: false,
      reason: 'expired',
    })
  })

  it('refuses a URL whose path was altered', async () => {
    const altered = (await sign()).replace('/original/', '/t.flip()/')
    expect(await verifySignedUrl(altered, { getToken, now: NOW })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    })
  })

  it('refuses a URL whose expiry was pushed back', async () => {
    const altered = (await sign(60)).replace(`pbe=${NOW + 60}`, `pbe=${NOW + 99999}`)
    expect(await verifySignedUrl(altered, { getToken, now: NOW })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    })
  })

  it('refuses a URL signed with another token', async () => {
    const other = await signUrl(URL_TO_SIGN, {
      accessKey: KEY,
      token: 'other',
      expirySeconds: 60,
      now: NOW,
    })
    expect(await verifySignedUrl(other, { getToken, now: NOW })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    })
  })

  it('refuses an unknown access key', async () => {
    const signed = await signUrl(URL_TO_SIGN, {
      accessKey: 'nobody',
      token: 'x',
      expirySeconds: 60,
      now: NOW,
    })
    expect(await verifySignedUrl(signed, { getToken, now: NOW })).toEqual({
      valid: false,
      reason: 'unknown_key',
    })
  })

  it.each([
    [URL_TO_SIGN, 'missing'],
    [`${URL_TO_SIGN}?pbs=abc&pbe=1&pbt=${KEY}`, 'malformed'],
    [`${URL_TO_SIGN}?pbs=${'a'.repeat(64)}&pbe=soon&pbt=${KEY}`, 'malformed'],
    [`${URL_TO_SIGN}?pbs=${'a'.repeat(64)}&pbs=${'b'.repeat(64)}&pbe=1&pbt=${KEY}`, 'malformed'],
    [`${URL_TO_SIGN}?pbs=${'a'.repeat(64)}&pbe=9999999999&pbt=%E0%A4%A`, 'malformed'],
    ['not a url', 'malformed'],
  ])('refuses %s as %s without throwing', async (url, reason) => {
    expect(await verifySignedUrl(url, { getToken, now: NOW })).toEqual({ valid: false, reason })
  })
})

describe('timingSafeEqual', () => {
  it('compares whole strings', () => {
    expect(timingSafeEqual('abcdef', 'abcdef')).toBe(true)
    expect(timingSafeEqual('abcdef', 'abcdeg')).toBe(false)
    expect(timingSafeEqual('bbcdef', 'abcdef')).toBe(false)
    expect(timingSafeEqual('abc', 'abcd')).toBe(false)
    expect(timingSafeEqual('', '')).toBe(true)
  })
})
