import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { IllegalArgumentError, MESSAGES } from './errors.ts'
import {
  hmacHex,
  MAX_SIGNED_URL_LIFETIME_S,
  type SignUrlOptions,
  signUrl,
  timingSafeEqual,
  verifySignedUrl,
} from './signed-url.ts'

const URL_TO_SIGN =
  'https://cdn.pixelbin.io/v2/dummy-cloudname/original/__playground/playground-default.jpeg'
const KEY = '6227274d-92c9-4b74-bef8-2528542516d8'
const TOKENS = new Map([[KEY, 'dummy-token']])
const getToken = (key: string) => TOKENS.get(key)
const NOW = 1695635915

describe('signUrl', () => {
  it('signs the length-prefixed canonical message of decision 004', async () => {
    const signed = await signUrl(`${URL_TO_SIGN}?dpr=2`, {
      accessKey: KEY,
      token: 'dummy-token',
      expirySeconds: 0,
      now: NOW,
    })
    const path = 'v2/dummy-cloudname/original/__playground/playground-default.jpeg'
    const message = `tessera-signed-url-v2\n${path.length}:${path}\n5:dpr=2\n10:1695635915`
    const expected = createHmac('sha256', 'dummy-token').update(message).digest('hex')
    expect(signed).toBe(`${URL_TO_SIGN}?dpr=2&pbs=${expected}&pbe=1695635915&pbt=${KEY}`)
  })

  it("no longer matches Pixelbin's published vector (given up on purpose, decision 004)", async () => {
    const signed = await signUrl(URL_TO_SIGN, {
      accessKey: KEY,
      token: 'dummy-token',
      expirySeconds: 0,
      now: NOW,
    })
    expect(signed).toMatch(/pbe=1695635915&pbt=/)
    expect(signed).not.toContain('8eb6a00af74e57967a42316e4de238aa88d92961649764fad1832c1bff101f25')
  })

  it('refuses a query parameter the server does not know, and a lifetime over ten years', async () => {
    const options = { accessKey: KEY, token: 't', expirySeconds: 60 }
    await expect(signUrl(`${URL_TO_SIGN}?v=7`, options)).rejects.toThrowError(
      new IllegalArgumentError(MESSAGES.signUnknownParameter('v')),
    )
    await expect(
      signUrl(URL_TO_SIGN, { ...options, expirySeconds: MAX_SIGNED_URL_LIFETIME_S + 1 }),
    ).rejects.toThrowError(MESSAGES.signExpiryTooLong(MAX_SIGNED_URL_LIFETIME_S))
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

  // Issue 9 item 2: digits at the end of the query moved into `pbe` kept the old signature
  // valid, with an expiry thousands of years away.
  it('refuses digits moved from the query into the expiry', async () => {
    const signed = await signUrl(`${URL_TO_SIGN}?dpr=2`, {
      accessKey: KEY,
      token: 'dummy-token',
      expirySeconds: 60,
      now: NOW,
    })
    const forged = signed
      .replace('?dpr=2&', '?dpr=&')
      .replace(`pbe=${NOW + 60}`, `pbe=2${NOW + 60}`)
    const check = await verifySignedUrl(forged, { getToken, now: NOW })
    expect(check.valid).toBe(false)
  })

  it('refuses the forged ?v= form of the issue, signed the way Pixelbin signs', async () => {
    // What the old scheme signed for `?v=7`, valid for 60 s: path, query and expiry run together.
    const path = 'v2/dummy-cloudname/original/__playground/playground-default.jpeg'
    const signature = await hmacHex('dummy-token', `${path}?v=7${NOW + 60}`)
    const forged = `${URL_TO_SIGN}?v=&pbs=${signature}&pbe=7${NOW + 60}&pbt=${KEY}`
    expect(await verifySignedUrl(forged, { getToken, now: NOW })).toEqual({
      valid: false,
      reason: 'unknown_parameter',
    })
  })

  it('refuses an expiry more than ten years away, even with a good signature', async () => {
    const expiry = NOW + MAX_SIGNED_URL_LIFETIME_S + 1
    const signed = await signUrl(URL_TO_SIGN, {
      accessKey: KEY,
      token: 'dummy-token',
      expirySeconds: MAX_SIGNED_URL_LIFETIME_S,
      now: NOW + 1,
    })
    expect(signed).toContain(`pbe=${expiry}`)
    expect(await verifySignedUrl(signed, { getToken, now: NOW })).toEqual({
      valid: false,
      reason: 'malformed',
    })
    expect((await verifySignedUrl(signed, { getToken, now: NOW + 1 })).valid).toBe(true)
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
