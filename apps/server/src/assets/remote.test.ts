import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LoopbackServer, startLoopbackServer } from '../test-loopback.ts'
import { fetchRemote, guardedLookup, isBlockedAddress, type RemoteOptions } from './remote.ts'

let server: LoopbackServer
let base: string
const hanging: Array<() => void> = []

beforeAll(async () => {
  server = await startLoopbackServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname === '/ok') {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.end(Buffer.from('hello'))
    } else if (url.pathname === '/big') {
      res.writeHead(200)
      res.end(Buffer.alloc(2048))
    } else if (url.pathname === '/to-ok') {
      res.writeHead(302, { location: '/ok' })
      res.end()
    } else if (url.pathname === '/loop') {
      res.writeHead(302, { location: '/loop' })
      res.end()
    } else if (url.pathname === '/to-private') {
      res.writeHead(302, { location: 'http://10.1.2.3/x.png' })
      res.end()
    } else if (url.pathname === '/to-localhost') {
      res.writeHead(301, { location: `http://localhost:${server.port}/ok` })
      res.end()
    } else if (url.pathname === '/cut') {
      // Promises 1000 bytes, sends 100 and drops the connection.
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '1000' })
      res.write(Buffer.alloc(100), () => res.socket?.destroy())
    } else if (url.pathname === '/cut-chunked') {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.write(Buffer.alloc(100), () => res.socket?.destroy())
    } else if (url.pathname === '/hang') {
      hanging.push(() => res.end())
    } else {
      res.writeHead(404)
      res.end()
    }
  })
  base = server.base
})

afterAll(async () => {
  for (const finish of hanging) finish()
  await server.close()
})

// The test server is on loopback, so it is allow-listed by its address; other local names are not.
const allowed: RemoteOptions = { timeoutMs: 2000, maxBytes: 1024, allowHosts: ['127.0.0.1'] }

describe('fetchRemote', () => {
  it('downloads an allowed source', async () => {
    const response = await fetchRemote(`${base}/ok`, allowed)
    expect(response.data.toString()).toBe('hello')
    expect(response.contentType).toBe('image/png')
  })

  it('follows redirects and says where it ended', async () => {
    expect((await fetchRemote(`${base}/to-ok`, allowed)).url).toBe(`${base}/ok`)
  })

  it('refuses loopback sources that are not allow-listed', async () => {
    await expect(fetchRemote(`${base}/ok`, { ...allowed, allowHosts: [] })).rejects.toMatchObject({
      code: 'blocked_address',
    })
  })

  it('refuses a redirect to a private address', async () => {
    await expect(fetchRemote(`${base}/to-private`, allowed)).rejects.toMatchObject({
      code: 'blocked_address',
    })
  })

  it('refuses a redirect to localhost', async () => {
    await expect(fetchRemote(`${base}/to-localhost`, allowed)).rejects.toMatchObject({
      code: 'blocked_address',
    })
  })

  it.each([
    ['http://10.0.0.1/a.png'],
    ['http://192.168.1.1/a.png'],
    ['http://169.254.169.254/latest/meta-data'],
    ['http://[::1]/a.png'],
    ['http://[::ffff:127.0.0.1]/a.png'],
    ['http://0.0.0.0/a.png'],
    ['http://localhost/a.png'],
  ])('refuses %s without connecting', async (url) => {
    await expect(fetchRemote(url, { ...allowed, allowHosts: [] })).rejects.toMatchObject({
      code: 'blocked_address',
    })
  })

  it.each([
    ['ftp://example.com/a.png'],
    ['file:///etc/passwd'],
    ['not a url'],
    ['http://user:pw@example.com/a'],
  ])('refuses %s as an invalid source', async (url) => {
    await expect(fetchRemote(url, allowed)).rejects.toMatchObject({ code: 'invalid_url' })
  })

  it.each(['/cut', '/cut-chunked'])(
    'reports a body cut short (%s) as unreachable, without an unhandled error',
    async (path) => {
      const unhandled: unknown[] = []
      const record = (error: unknown) => unhandled.push(error)
      process.on('uncaughtException', record)
      process.on('unhandledRejection', record)
      try {
        await expect(fetchRemote(`${base}${path}`, allowed)).rejects.toMatchObject({
          code: 'unreachable',
        })
        // Give late socket errors a turn to surface.
        await new Promise((resolve) => setTimeout(resolve, 50))
      } finally {
        process.off('uncaughtException', record)
        process.off('unhandledRejection', record)
      }
      expect(unhandled).toEqual([])
    },
  )

  it('stops after too many redirects', async () => {
    await expect(fetchRemote(`${base}/loop`, allowed)).rejects.toMatchObject({
      code: 'too_many_redirects',
    })
  })

  it('refuses a source larger than the limit', async () => {
    await expect(fetchRemote(`${base}/big`, allowed)).rejects.toMatchObject({ code: 'too_large' })
  })

  it('reports an error status', async () => {
    await expect(fetchRemote(`${base}/missing`, allowed)).rejects.toMatchObject({
      code: 'bad_status',
    })
  })

  it('gives up on a source that does not answer', async () => {
    await expect(fetchRemote(`${base}/hang`, { ...allowed, timeoutMs: 200 })).rejects.toMatchObject(
      {
        code: 'timeout',
      },
    )
  })
})

describe('address checks', () => {
  it.each([
    '127.0.0.1',
    '10.2.3.4',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.1.1',
    '100.64.0.1',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:10.0.0.1',
    '224.0.0.1',
    '192.88.99.1',
    '::ffff:192.88.99.200',
    'nonsense',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true)
  })

  // IPv6 forms that carry an IPv4 address a packet may end up at (issue 9): each is judged by the
  // IPv4 address inside it.
  it.each([
    ['IPv4-compatible loopback', '::7f00:1'],
    ['IPv4-compatible loopback, dotted', '::127.0.0.1'],
    ['IPv4-compatible link-local (cloud metadata)', '::a9fe:a9fe'],
    ['IPv4-mapped loopback in hex', '::ffff:7f00:1'],
    ['IPv4-mapped, written out in full', '0:0:0:0:0:ffff:7f00:0001'],
    ['IPv4-translated (SIIT)', '::ffff:0:7f00:1'],
    ['6to4 of loopback', '2002:7f00:1::'],
    ['6to4 of a private network', '2002:a00:1::1'],
    ['NAT64 well-known prefix', '64:ff9b::7f00:1'],
    ['NAT64 local-use prefix of link-local', '64:ff9b:1::a9fe:a9fe'],
    ['site-local (deprecated)', 'fec0::1'],
    ['Teredo whose client is loopback', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    ['Teredo whose server is private', '2001:0:a00:1:8000:63bf:f7f7:f7f7'],
    ['upper case', '::FFFF:7F00:1'],
    ['with a zone id', 'fe80::1%eth0'],
  ])('blocks %s (%s)', (_form, address) => {
    expect(isBlockedAddress(address)).toBe(true)
  })

  it.each(['::7f00:1', '::a9fe:a9fe', '2002:7f00:1::', '64:ff9b:1::a9fe:a9fe', 'fec0::1'])(
    'refuses a source URL with the literal [%s]',
    async (address) => {
      await expect(fetchRemote(`http://[${address}]/x.png`, allowed)).rejects.toMatchObject({
        code: 'blocked_address',
      })
    },
  )

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::1',
    '64:ff9b::808:808',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false)
  })

  it('refuses at lookup time a name that resolves to loopback', async () => {
    const error = await new Promise((resolve) => {
      guardedLookup(false)('localhost', { all: false }, (err) => resolve(err))
    })
    expect(error).toMatchObject({ code: 'blocked_address' })
  })
})
