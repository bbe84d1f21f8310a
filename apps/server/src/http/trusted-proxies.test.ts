// The client address behind a load balancer: read from X-Forwarded-For only when the peer is a
// trusted proxy, so a client cannot pick its own address to dodge limits or reach /metrics.
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { defaultTestDatabase } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { forwardedClient } from './request.ts'

describe('forwardedClient', () => {
  const trusted = ['127.0.0.1', '10.0.0.2']

  it.each<[string, string, string | undefined, string]>([
    [
      'ignores the header from a peer that is not a trusted proxy',
      '203.0.113.5',
      '1.2.3.4',
      '203.0.113.5',
    ],
    ['takes the entry the trusted proxy wrote', '127.0.0.1', '198.51.100.7', '198.51.100.7'],
    [
      'skips entries a client forged to its left',
      '127.0.0.1',
      '1.1.1.1, 198.51.100.7',
      '198.51.100.7',
    ],
    [
      'skips trusted proxies in a chain',
      '::ffff:127.0.0.1',
      '198.51.100.7, 10.0.0.2',
      '198.51.100.7',
    ],
    ['keeps the peer when the header is missing', '127.0.0.1', undefined, '127.0.0.1'],
    ['keeps the peer when every hop is a trusted proxy', '127.0.0.1', '10.0.0.2', '127.0.0.1'],
  ])('%s', (_name, peer, header, expected) => {
    expect(forwardedClient(peer, header, trusted)).toBe(expected)
  })

  it('refuses a TRUSTED_PROXIES entry that is not an IP address', () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: '127.0.0.1, proxy.example' })).toThrow(
      /TRUSTED_PROXIES must be a comma-separated list of IP addresses/,
    )
    expect(loadConfig({ TRUSTED_PROXIES: ' 127.0.0.1 ,::1' }).trustedProxies).toEqual([
      '127.0.0.1',
      '::1',
    ])
  })
})

describe('a server behind a trusted proxy', () => {
  const suite = useTestServer(defaultTestDatabase(), { TRUSTED_PROXIES: '127.0.0.1,::1' })

  it('serves /metrics to a client on this machine and refuses one the proxy names as remote', async () => {
    expect((await fetch(`${suite.server.url}/metrics`)).status).toBe(200)
    const local = await fetch(`${suite.server.url}/metrics`, {
      headers: { 'x-forwarded-for': '127.0.0.1' },
    })
    expect(local.status).toBe(200)
    const remote = await fetch(`${suite.server.url}/metrics`, {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    })
    expect(remote.status).toBe(403)
  })
})
