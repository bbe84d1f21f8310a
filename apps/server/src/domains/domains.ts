// Custom domains (issue 24): an organisation registers a host name, proves control of it (DNS TXT
// or an HTTP file, `verify.ts`), and from then on `https://<host>/v2/{pattern}/{path}` delivers its
// images (delivery's `deliveryHosts` reads verified domains only). TLS is the operator's proxy's
// job: `tlsAllowed` is the answer its on-demand TLS asks for (deploy/README.md).
import { randomBytes } from 'node:crypto'
import type { AppContext } from '../context.ts'
import { type CustomDomain, isUniqueViolation } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { pickJson } from '../http/pick-json.ts'
import {
  challengePath,
  challengeRecordName,
  challengeRecordValue,
  createDomainVerifier,
  type DomainVerifier,
} from './verify.ts'

/** Domains one organisation may hold. */
export const MAX_DOMAINS_PER_ORGANISATION = 20

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/**
 * A host name as registered: lower case, no trailing dot, at least two labels, each a DNS label,
 * not an IP address. Undefined for anything else.
 */
export function normaliseHost(value: string): string | undefined {
  const host = value.trim().toLowerCase().replace(/\.$/, '')
  if (host.length > 253 || !host.includes('.')) return undefined
  const labels = host.split('.')
  if (!labels.every((label) => LABEL.test(label))) return undefined
  // The last label of a name is never all digits (that is an IPv4 address).
  if (/^\d+$/.test(labels[labels.length - 1] as string)) return undefined
  return host
}

/** A domain as the API answers it, with what to publish to prove control. */
export function domainJson(domain: CustomDomain) {
  const token = domain.token ?? ''
  return {
    _id: domain.id,
    ...pickJson(domain, ['host', 'status', 'createdAt', 'checkedAt', 'verifiedAt', 'lastError']),
    challenge:
      token === ''
        ? null
        : {
            dns: {
              type: 'TXT',
              name: challengeRecordName(domain.host),
              value: challengeRecordValue(token),
            },
            http: { url: `http://${domain.host}${challengePath(token)}`, body: token },
          },
    deliveryBase: `https://${domain.host}/v2`,
  }
}

export type Domains = ReturnType<typeof createDomains>

/** The domain service over the app's repository, lookups and settings. */
export function createDomains(
  app: Pick<AppContext, 'repo' | 'lookups' | 'config'>,
  verify: DomainVerifier = createDomainVerifier(app.config),
) {
  const { repo, lookups, config } = app
  /** Hosts that are the server's own: never an organisation's. */
  const reserved = new Set(
    [
      new URL(config.publicUrl).hostname,
      ...config.deliveryHosts,
      config.web.deliveryUrl,
      config.web.apiUrl,
      config.web.mainUrl,
    ]
      .filter((value): value is string => value !== undefined && value !== '')
      .map((value) => {
        try {
          return new URL(value.includes('://') ? value : `http://${value}`).hostname.toLowerCase()
        } catch {
          return value.toLowerCase()
        }
      }),
  )

  async function register(
    organisation: { id: string; cloudName: string },
    input: string,
  ): Promise<CustomDomain> {
    const host = normaliseHost(input)
    if (host === undefined) {
      throw new HttpError(
        400,
        'invalid_domain',
        `'${input.slice(0, 100)}' is not a domain name such as img.example.com`,
      )
    }
    if (reserved.has(host) || host === 'localhost' || host.endsWith('.localhost')) {
      throw new HttpError(400, 'invalid_domain', `${host} is this server's own host`)
    }
    if ((await repo.countDomains(organisation.id)) >= MAX_DOMAINS_PER_ORGANISATION) {
      throw new HttpError(
        409,
        'too_many_domains',
        `An organisation can hold ${MAX_DOMAINS_PER_ORGANISATION} domains: remove one first`,
      )
    }
    try {
      return await repo.registerDomain(organisation.id, host, randomBytes(18).toString('base64url'))
    } catch (error) {
      if (isUniqueViolation(error, 'custom_domains_host_key')) {
        throw new HttpError(409, 'domain_taken', `${host} is already registered`)
      }
      throw error
    }
  }

  async function found(organisationId: string, id: string): Promise<CustomDomain> {
    const domain = await repo.findDomain(organisationId, id)
    if (domain === undefined) throw new HttpError(404, 'domain_not_found', `No domain ${id}`)
    return domain
  }

  /**
   * Checks the domain's challenge now: verified when the TXT record or the HTTP file holds the
   * token, failed (with what was found) otherwise. A verified domain that fails a re-check stops
   * delivering. Every process forgets the domain's owner before this answers.
   */
  async function check(
    organisation: { id: string; cloudName: string },
    id: string,
  ): Promise<{ domain: CustomDomain; method?: 'dns' | 'http' }> {
    const domain = await found(organisation.id, id)
    // An operator's row (made before verification existed) has no token and stays verified.
    if (domain.token === null) return { domain }
    const proof = await verify(domain.host, domain.token)
    const updated = await repo.recordDomainCheck(organisation.id, id, {
      status: proof.ok ? 'verified' : 'failed',
      error: proof.ok ? null : proof.error,
    })
    if (updated === undefined) throw new HttpError(404, 'domain_not_found', `No domain ${id}`)
    await lookups.forgetOrganisation(organisation)
    return proof.ok ? { domain: updated, method: proof.method } : { domain: updated }
  }

  async function remove(organisation: { id: string; cloudName: string }, id: string) {
    const removed = await repo.deleteDomain(organisation.id, id)
    if (removed === undefined) throw new HttpError(404, 'domain_not_found', `No domain ${id}`)
    await lookups.forgetOrganisation(organisation)
    return removed
  }

  /**
   * Whether the TLS proxy may get a certificate for `host`: a verified custom domain, or one of
   * the server's own hosts. Anything else is refused, so nobody can make the proxy ask a CA for
   * certificates of names that are not served here.
   */
  async function tlsAllowed(input: string): Promise<boolean> {
    if (reserved.has(input.toLowerCase())) return true
    const host = normaliseHost(input)
    if (host === undefined) return false
    const domain = await repo.findDomainByHost(host)
    return domain?.status === 'verified'
  }

  return { register, check, remove, tlsAllowed, list: repo.listDomains }
}
