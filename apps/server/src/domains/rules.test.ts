// The pure rules under custom domains and CORS: which names are domains, which strings are
// origins, and what a GET or a preflight answers for each setting.
import { describe, expect, it } from 'vitest'
import { corsHeaders, normaliseOrigin, preflightResponse } from '../delivery/cors.ts'
import { normaliseHost } from './domains.ts'

describe('domain names', () => {
  it('takes host names, lower-cased, without a trailing dot', () => {
    expect(normaliseHost('Img.Shop.Example.')).toBe('img.shop.example')
    expect(normaliseHost(' a-b.c1.io ')).toBe('a-b.c1.io')
    expect(normaliseHost('xn--bcher-kva.example')).toBe('xn--bcher-kva.example')
  })

  it('refuses what is not one', () => {
    for (const value of [
      'localhost',
      '10.0.0.1',
      'a..b',
      '-a.b',
      'a-.b',
      'a_b.c',
      'a b.c',
      'https://a.b',
      'a.b/c',
      `${'a'.repeat(64)}.b`,
      `${'a.'.repeat(127)}b`,
    ]) {
      expect(normaliseHost(value), value).toBeUndefined()
    }
  })
})

describe('CORS settings', () => {
  it('reads * and http(s) origins, default ports dropped', () => {
    expect(normaliseOrigin('*')).toBe('*')
    expect(normaliseOrigin('https://Shop.Example:443')).toBe('https://shop.example')
    expect(normaliseOrigin('http://a.test:8080/')).toBe('http://a.test:8080')
    for (const value of ['ftp://a.b', 'https://a.b/x', 'a.b', 'https://u:p@a.b', 'https://a.b?q']) {
      expect(normaliseOrigin(value), value).toBeUndefined()
    }
  })

  it('answers *, a listed origin with Vary, or nothing', () => {
    expect(corsHeaders(['*'], 'https://x.test')).toMatchObject({
      headers: { 'access-control-allow-origin': '*' },
      varyOrigin: false,
    })
    expect(corsHeaders(['https://x.test'], 'https://x.test')).toMatchObject({
      headers: { 'access-control-allow-origin': 'https://x.test' },
      varyOrigin: true,
    })
    expect(corsHeaders(['https://x.test'], 'https://y.test')).toEqual({
      headers: {},
      varyOrigin: true,
    })
    expect(corsHeaders(['https://x.test'], null)).toEqual({ headers: {}, varyOrigin: true })
    expect(corsHeaders([], 'https://x.test')).toEqual({ headers: {}, varyOrigin: false })
  })

  it('echoes only header names in a preflight', () => {
    const ok = preflightResponse(['*'], 'https://x.test', 'Range, If-None-Match')
    expect(ok.status).toBe(204)
    expect(ok.headers.get('access-control-allow-headers')).toBe('Range, If-None-Match')
    const odd = preflightResponse(['*'], 'https://x.test', 'range\r\nx-evil: 1')
    expect(odd.headers.get('access-control-allow-headers')).toBeNull()
    const refused = preflightResponse([], 'https://x.test', 'range')
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
  })
})
