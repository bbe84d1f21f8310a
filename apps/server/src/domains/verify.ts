// Proving control of a custom domain (issue 24): the owner publishes the domain's challenge
// token either as a DNS TXT record at `_tessera-challenge.<domain>` (`tessera-verification=<token>`)
// or as the body of `http://<domain>/.well-known/tessera-challenge/<token>`. Names are looked up
// with `DOMAIN_DNS_SERVERS` (the system's servers when unset); the HTTP challenge connects to the
// address found there, never to a loopback or private one unless the domain is in
// REMOTE_ALLOW_HOSTS (the SSRF rule of every fetch the server makes), follows no redirect and
// reads at most 1 KB.
import { Resolver } from 'node:dns/promises'
import { request } from 'node:http'
import { isBlockedAddress } from '../assets/remote.ts'
import type { ServerConfig } from '../config.ts'

/** The DNS name whose TXT record carries the challenge. */
export const challengeRecordName = (host: string) => `_tessera-challenge.${host}`
/** The TXT record's value. */
export const challengeRecordValue = (token: string) => `tessera-verification=${token}`
/** The HTTP challenge's path; its body is the token. */
export const challengePath = (token: string) => `/.well-known/tessera-challenge/${token}`

const MAX_BODY = 1024

export type DomainProof = { ok: true; method: 'dns' | 'http' } | { ok: false; error: string }

export type DomainVerifier = (host: string, token: string) => Promise<DomainProof>

type DomainConfig = Pick<ServerConfig, 'domains' | 'remote'>

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOTFOUND' || code === 'ENODATA') return 'no such record'
  if (code === 'ETIMEOUT' || code === 'ECONNREFUSED') return 'the DNS server did not answer'
  return error instanceof Error ? error.message : String(error)
}

/** Creates the check every registration and re-check runs. */
export function createDomainVerifier(config: DomainConfig): DomainVerifier {
  const { dnsServers, httpPort, checkTimeoutMs } = config.domains

  function resolver(): Resolver {
    const made = new Resolver({ timeout: checkTimeoutMs, tries: 1 })
    if (dnsServers.length > 0) made.setServers(dnsServers)
    return made
  }

  async function byDns(host: string, token: string): Promise<string | undefined> {
    try {
      const records = await withTimeout(
        resolver().resolveTxt(challengeRecordName(host)),
        checkTimeoutMs,
        'The DNS lookup',
      )
      const wanted = challengeRecordValue(token)
      if (records.some((chunks) => chunks.join('') === wanted)) return undefined
      return `the TXT record at ${challengeRecordName(host)} does not hold ${wanted}`
    } catch (error) {
      return `no TXT record at ${challengeRecordName(host)} (${reasonOf(error)})`
    }
  }

  async function addressOf(host: string): Promise<string> {
    const dns = resolver()
    const v4 = await dns.resolve4(host).catch(() => [] as string[])
    const found = v4.length > 0 ? v4 : await dns.resolve6(host).catch(() => [] as string[])
    const address = found[0]
    if (address === undefined) throw new Error(`${host} has no address`)
    if (isBlockedAddress(address) && !config.remote.allowHosts.includes(host)) {
      throw new Error(`${host} resolves to a private address`)
    }
    return address
  }

  function get(
    address: string,
    host: string,
    path: string,
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const sent = request(
        {
          host: address,
          port: httpPort,
          path,
          headers: { host: httpPort === 80 ? host : `${host}:${httpPort}`, accept: 'text/plain' },
          timeout: checkTimeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = []
          let size = 0
          response.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size > MAX_BODY) {
              response.destroy()
              reject(new Error('the answer is longer than a token'))
              return
            }
            chunks.push(chunk)
          })
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          )
          response.on('error', reject)
        },
      )
      sent.on('timeout', () => sent.destroy(new Error(`no answer within ${checkTimeoutMs} ms`)))
      sent.on('error', reject)
      sent.end()
    })
  }

  async function byHttp(host: string, token: string): Promise<string | undefined> {
    const url = `http://${host}${challengePath(token)}`
    try {
      const address = await withTimeout(addressOf(host), checkTimeoutMs, 'The address lookup')
      const answer = await withTimeout(
        get(address, host, challengePath(token)),
        checkTimeoutMs,
        'The HTTP challenge',
      )
      if (answer.status !== 200) return `${url} answered ${answer.status}`
      if (answer.body.trim() !== token) return `${url} does not answer the token`
      return undefined
    } catch (error) {
      return `${url} could not be read (${reasonOf(error)})`
    }
  }

  return async (host, token) => {
    const dns = await byDns(host, token)
    if (dns === undefined) return { ok: true, method: 'dns' }
    const http = await byHttp(host, token)
    if (http === undefined) return { ok: true, method: 'http' }
    return { ok: false, error: `Not verified: ${dns}; and ${http}.` }
  }
}
