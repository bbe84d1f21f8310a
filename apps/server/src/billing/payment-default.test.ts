// PAYMENT_PROVIDER defaults to `off` unless the server runs on a local URL (issue 19, finding
// 15): a public server never hands out credits through the test checkout by accident, and the
// start-up line says which provider runs and why.
import { describe, expect, it } from 'vitest'
import { isLocalUrl, loadConfig, paymentProviderNote } from '../config.ts'

describe('the default payment provider', () => {
  it('is the test checkout on a local server', () => {
    for (const url of [
      'http://localhost:4201',
      'http://127.0.0.1:8080',
      'http://[::1]:4201',
      'http://tessera.localhost',
    ]) {
      expect(isLocalUrl(url), url).toBe(true)
      expect(loadConfig({ PUBLIC_URL: url }).paymentProvider, url).toBe('test')
    }
    expect(loadConfig({}).paymentProvider).toBe('test')
  })

  it('is off on a public URL, unless PAYMENT_PROVIDER says otherwise', () => {
    for (const url of [
      'https://images.example.com',
      'http://10.0.0.5:4201',
      'http://localhost.example',
    ]) {
      expect(isLocalUrl(url), url).toBe(false)
      expect(loadConfig({ PUBLIC_URL: url }).paymentProvider, url).toBe('off')
    }
    const chosen = { PUBLIC_URL: 'https://images.example.com', PAYMENT_PROVIDER: 'test' }
    expect(loadConfig(chosen).paymentProvider).toBe('test')
    expect(loadConfig({ PAYMENT_PROVIDER: 'off' }).paymentProvider).toBe('off')
  })

  it('says at start-up which provider runs and why', () => {
    const env = { PUBLIC_URL: 'https://images.example.com' }
    expect(paymentProviderNote(loadConfig(env), env)).toMatch(/^payments: off .*not local/)
    expect(paymentProviderNote(loadConfig({}), {})).toMatch(/^payments: test .*is local/)
    const chosen = { ...env, PAYMENT_PROVIDER: 'test' }
    expect(paymentProviderNote(loadConfig(chosen), chosen)).toBe(
      'payments: test (PAYMENT_PROVIDER)',
    )
  })
})
