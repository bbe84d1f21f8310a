// Fetching from user-given URLs (upload by URL, download proxy) without letting a request reach
// this machine or the private network (SSRF): http(s) only, every redirect re-checked, and the
// address checked at connect time (so DNS rebinding between check and connect cannot slip by).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/** Why a remote fetch failed; the server maps codes to 4xx/5xx answers. */
export type RemoteErrorCode =
  | 'invalid_url'
  | 'blocked_address'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'bad_status'
  | 'unreachable'

export class RemoteError extends Error {
  readonly code: RemoteErrorCode

  constructor(code: RemoteErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'RemoteError'
    this.code = code
  }
}

export interface RemoteOptions {
  timeoutMs: number
  maxBytes: number
  /** Host names allowed even when they resolve to a private or loopback address. */
  allowHosts: readonly string[]
  maxRedirects?: number
}

export interface RemoteResponse {
  data: Buffer
  contentType: string | undefined
  /** The URL finally answered, after redirects. */
  url: string
}

const BLOCKED = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  // The 6to4 relay anycast (deprecated, RFC 7526): a relay a packet may be handed to.
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local, deprecated but still routed inside some networks.
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6')
}

/** The 16 bytes of an IPv6 address (zone id dropped); undefined when it is not one. */
function ipv6Bytes(address: string): Uint8Array | undefined {
  const text = address.replace(/%.*$/, '')
  if (isIP(text) !== 6) return undefined
  let words: string[]
  const halves = text.split('::')
  const part = (half: string | undefined) =>
    half === undefined || half === '' ? [] : half.split(':')
  const head = part(halves[0])
  const tail = part(halves[1])
  // A trailing dotted quad stands for the last two words.
  const expand = (list: string[]) => {
    const last = list.at(-1)
    if (last === undefined || !last.includes('.')) return list
    const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number)
    return [...list.slice(0, -1), ((a << 8) | b).toString(16), ((c << 8) | d).toString(16)]
  }
  if (halves.length === 2) {
    const left = expand(head)
    const right = expand(tail)
    words = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  } else {
    words = expand(head)
  }
  const bytes = new Uint8Array(16)
  words.forEach((word, index) => {
    const value = Number.parseInt(word, 16)
    bytes[index * 2] = value >> 8
    bytes[index * 2 + 1] = value & 0xff
  })
  return bytes
}

const dotted = (bytes: Uint8Array, at: number, xor = 0) =>
  Array.from(bytes.subarray(at, at + 4), (byte) => byte ^ xor).join('.')

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  prefix.every((byte, index) => bytes[index] === byte)

/**
 * The IPv4 addresses an IPv6 address leads to: IPv4-compatible (::a.b.c.d), IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96 and the local-use
 * 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32: its server, and its client stored
 * inverted). Packets to these may be delivered to the embedded IPv4 host by a relay or by the
 * machine's own stack, so that address must pass the IPv4 check too.
 */
function embeddedIPv4(bytes: Uint8Array): string[] {
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0)
  const found: string[] = []
  if (zeros(0, 12)) found.push(dotted(bytes, 12))
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) found.push(dotted(bytes, 12))
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) {
    found.push(dotted(bytes, 12))
  }
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]))
    found.push(dotted(bytes, 12))
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) found.push(dotted(bytes, 12))
  if (startsWith(bytes, [0x20, 0x02])) found.push(dotted(bytes, 2))
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) {
    found.push(dotted(bytes, 4), dotted(bytes, 12, 0xff))
  }
  return found
}

/** True for loopback, private, link-local, multicast, documentation and reserved addresses. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return BLOCKED.check(address, 'ipv4')
  const bytes = ipv6Bytes(address)
  if (bytes === undefined) return true
  const normal = Array.from({ length: 8 }, (_, index) =>
    (((bytes[index * 2] ?? 0) << 8) | (bytes[index * 2 + 1] ?? 0)).toString(16),
  ).join(':')
  if (BLOCKED.check(normal, 'ipv6')) return true
  return embeddedIPv4(bytes).some((ipv4) => BLOCKED.check(ipv4, 'ipv4'))
}

/** A `lookup` for sockets that refuses names resolving to blocked addresses. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0)
        return
      }
      const list = addresses as LookupAddress[]
      const blocked = list.find((entry) => isBlockedAddress(entry.address))
      if (!allowPrivate && (blocked !== undefined || list.length === 0)) {
        callback(
          new RemoteError('blocked_address', `${hostname} resolves to a private address`),
          '',
          0,
        )
        return
      }
      if (options.all) callback(null, list)
      else callback(null, (list[0] as LookupAddress).address, (list[0] as LookupAddress).family)
    })
  }
}

/** Checks a remote URL under the rules above; says whether its host is allow-listed. */
export function checkUrl(
  text: string,
  allowHosts: readonly string[],
): { url: URL; allowPrivate: boolean } {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new RemoteError('invalid_url', 'The source URL is not a valid absolute URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RemoteError('invalid_url', 'The source URL must use http or https')
  }
  if (url.username !== '' || url.password !== '') {
    throw new RemoteError('invalid_url', 'The source URL must not carry credentials')
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const allowPrivate = allowHosts.includes(host)
  // An IP literal is connected to without a lookup, so it is judged here.
  if (isIP(host) !== 0 && !allowPrivate && isBlockedAddress(host)) {
    throw new RemoteError('blocked_address', `${host} is a private or local address`)
  }
  if ((host === 'localhost' || host.endsWith('.localhost')) && !allowPrivate) {
    throw new RemoteError('blocked_address', `${host} is a local address`)
  }
  return { url, allowPrivate }
}

/**
 * One request to `url` whose host name is looked up under the remote rules (`guardedLookup`):
 * the response as soon as its head arrives.
 */
export function guardedRequest(
  url: URL,
  allowPrivate: boolean,
  {
    body,
    ...options
  }: { method: string; signal: AbortSignal; headers: Record<string, string>; body?: string },
): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = send(url, { ...options, lookup: guardedLookup(allowPrivate) })
    req.on('response', resolve)
    req.on('error', reject)
    req.end(body)
  })
}

const requestOnce = (url: URL, allowPrivate: boolean, signal: AbortSignal) =>
  guardedRequest(url, allowPrivate, {
    method: 'GET',
    signal,
    headers: { 'user-agent': 'Tessera/0.1 (+image fetch)', accept: '*/*' },
  })

async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy()
    throw new RemoteError('too_large', `The source is larger than ${maxBytes} bytes`)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    size += (chunk as Buffer).length
    if (size > maxBytes) {
      response.destroy()
      throw new RemoteError('too_large', `The source is larger than ${maxBytes} bytes`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * Downloads a user-given http(s) URL with the remote-source rules: no private, loopback or
 * link-local address (unless its host is allow-listed), every redirect re-checked (at most 5),
 * a size limit and a time limit.
 *
 * @throws {RemoteError} with a code saying why.
 */
export async function fetchRemote(source: string, options: RemoteOptions): Promise<RemoteResponse> {
  const maxRedirects = options.maxRedirects ?? 5
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs)
  try {
    let current = source
    for (let hop = 0; ; hop++) {
      const { url, allowPrivate } = checkUrl(current, options.allowHosts)
      let response: IncomingMessage
      try {
        response = await requestOnce(url, allowPrivate, controller.signal)
      } catch (error) {
        if (error instanceof RemoteError) throw error
        if (controller.signal.aborted) {
          throw new RemoteError('timeout', 'The source did not answer in time', { cause: error })
        }
        const cause = (error as { cause?: unknown }).cause
        if (cause instanceof RemoteError) throw cause
        throw new RemoteError('unreachable', `Could not reach ${url.host}`, { cause: error })
      }
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400 && response.headers.location !== undefined) {
        response.resume()
        if (hop >= maxRedirects) {
          throw new RemoteError('too_many_redirects', `More than ${maxRedirects} redirects`)
        }
        current = new URL(response.headers.location, url).toString()
        continue
      }
      if (status < 200 || status >= 300) {
        response.resume()
        throw new RemoteError('bad_status', `The source answered ${status}`)
      }
      try {
        const data = await readBody(response, options.maxBytes)
        return { data, contentType: response.headers['content-type'], url: url.toString() }
      } catch (error) {
        if (error instanceof RemoteError) throw error
        if (controller.signal.aborted) {
          throw new RemoteError('timeout', 'The source did not answer in time', { cause: error })
        }
        throw new RemoteError('unreachable', 'The source closed the connection', { cause: error })
      }
    }
  } finally {
    clearTimeout(timer)
  }
}
