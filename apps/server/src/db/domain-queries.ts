// An organisation's custom domains and their verification (issue 24; see createRepository).
// Delivery reads a domain's organisation through `findOrganisationByDomain` (verified ones only).
import { and, asc, count, eq } from 'drizzle-orm'
import type { Db } from './database.ts'
import { isUuid, now, returned } from './query-helpers.ts'
import { type CustomDomain, customDomains, type DomainStatus } from './schema.ts'

/** The result of a control check, recorded on the domain. */
export interface DomainCheck {
  status: DomainStatus
  /** What the check found wrong (null when it passed). */
  error: string | null
}

export function createDomainQueries(db: Db) {
  /** The organisation's domains, oldest first. */
  async function listDomains(organisationId: string): Promise<CustomDomain[]> {
    return db
      .select()
      .from(customDomains)
      .where(eq(customDomains.organisationId, organisationId))
      .orderBy(asc(customDomains.createdAt), asc(customDomains.id))
  }

  async function countDomains(organisationId: string): Promise<number> {
    const [row] = await db
      .select({ value: count() })
      .from(customDomains)
      .where(eq(customDomains.organisationId, organisationId))
    return row?.value ?? 0
  }

  async function findDomain(organisationId: string, id: string): Promise<CustomDomain | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db
      .select()
      .from(customDomains)
      .where(and(eq(customDomains.organisationId, organisationId), eq(customDomains.id, id)))
    return row
  }

  /** Any organisation's domain by host (the TLS `ask` check). */
  async function findDomainByHost(host: string): Promise<CustomDomain | undefined> {
    const [row] = await db.select().from(customDomains).where(eq(customDomains.host, host))
    return row
  }

  /**
   * Registers a domain, pending until its challenge is seen.
   *
   * @throws a unique violation (`custom_domains_host_key`) when any organisation has the host.
   */
  async function registerDomain(
    organisationId: string,
    host: string,
    token: string,
  ): Promise<CustomDomain> {
    const [row] = await db
      .insert(customDomains)
      .values({ organisationId, host, token, status: 'pending' })
      .returning()
    return returned(row)
  }

  /** Records a check's result: verified (with its time) or failed, and when it ran. */
  async function recordDomainCheck(
    organisationId: string,
    id: string,
    check: DomainCheck,
  ): Promise<CustomDomain | undefined> {
    const [row] = await db
      .update(customDomains)
      .set({
        status: check.status,
        lastError: check.error,
        checkedAt: now(),
        ...(check.status === 'verified' ? { verifiedAt: now() } : {}),
      })
      .where(and(eq(customDomains.organisationId, organisationId), eq(customDomains.id, id)))
      .returning()
    return row
  }

  async function deleteDomain(
    organisationId: string,
    id: string,
  ): Promise<CustomDomain | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db
      .delete(customDomains)
      .where(and(eq(customDomains.organisationId, organisationId), eq(customDomains.id, id)))
      .returning()
    return row
  }

  return {
    listDomains,
    countDomains,
    findDomain,
    findDomainByHost,
    registerDomain,
    recordDomainCheck,
    deleteDomain,
  }
}
