// Limits count an IPv6 client by its /64 (issue 19, finding 17): the addresses of one
// subscriber's network cost an attacker nothing, so they share one allowance.
import { describe, expect, it } from 'vitest'
import { limitAddress } from './rate-limit.ts'

describe('the address a limit counts by', () => {
  it('is the /64 of an IPv6 address, however it is written', () => {
    const network = '2001:db8:1:2::/64'
    for (const address of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0000:0000:0000:0009',
      '2001:DB8:1:2::abcd',
      '[2001:db8:1:2::7]',
      '2001:db8:1:2::1%eth0',
    ]) {
      expect(limitAddress(address), address).toBe(network)
    }
    expect(limitAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(limitAddress('::1')).toBe('0:0:0:0::/64')
    expect(limitAddress('fe80::1')).toBe('fe80:0:0:0::/64')
  })

  it('is an IPv4 address as it is, also when mapped into IPv6', () => {
    expect(limitAddress('203.0.113.9')).toBe('203.0.113.9')
    expect(limitAddress('::ffff:203.0.113.9')).toBe('203.0.113.9')
  })

  it('leaves what is not an address as it is', () => {
    expect(limitAddress('unknown')).toBe('unknown')
  })
})
