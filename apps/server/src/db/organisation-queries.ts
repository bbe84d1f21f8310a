// Organisations, their zones, custom domains and signing keys (see createRepository).
import { randomBytes } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from './database.ts'
import { isUuid, returned, revokeLive } from './query-helpers.ts'
import {
  type CustomDomain,
  customDomains,
  type Organisation,
  organisations,
  type SigningKey,
  signingKeys,
  type Zone,
  zones,
} from './schema.ts'

export interface NewOrganisation {
  cloudName: string
  name: string
  requireSignedUrls?: boolean
}

export interface NewZone {
  slug: string
  name: string
}

export interface NewSigningKey {
  /** Generated (32 hex characters) when absent. */
  accessKey?: string
  /** Generated (64 hex characters) when absent. */
  secret?: string
}

/** The organisation, zone, domain and signing-key queries. */
export function createOrganisationQueries(db: Db) {
  async function findOrganisationById(id: string): Promise<Organisation | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db.select().from(organisations).where(eq(organisations.id, id))
    return row
  }

  async function findOrganisationByCloudName(cloudName: string): Promise<Organisation | undefined> {
    const [row] = await db
      .select()
      .from(organisations)
      .where(eq(organisations.cloudName, cloudName))
    return row
  }

  /** @throws a unique violation (`isUniqueViolation`) when the cloud name is taken. */
  async function createOrganisation(input: NewOrganisation): Promise<Organisation> {
    const [row] = await db
      .insert(organisations)
      .values({
        cloudName: input.cloudName,
        name: input.name,
        requireSignedUrls: input.requireSignedUrls ?? false,
      })
      .returning()
    return returned(row)
  }

  async function createZone(organisationId: string, input: NewZone): Promise<Zone> {
    const [row] = await db
      .insert(zones)
      .values({ organisationId, slug: input.slug, name: input.name })
      .returning()
    return returned(row)
  }

  async function addCustomDomain(organisationId: string, host: string): Promise<CustomDomain> {
    const [row] = await db
      .insert(customDomains)
      .values({ organisationId, host: host.toLowerCase() })
      .returning()
    return row as CustomDomain
  }

  /** The organisation a verified custom-domain host belongs to (pending and failed: none). */
  async function findOrganisationByDomain(host: string): Promise<Organisation | undefined> {
    const [row] = await db
      .select({ organisation: organisations })
      .from(customDomains)
      .innerJoin(organisations, eq(organisations.id, customDomains.organisationId))
      .where(and(eq(customDomains.host, host.toLowerCase()), eq(customDomains.status, 'verified')))
    return row?.organisation
  }

  async function findZone(organisationId: string, slug: string): Promise<Zone | undefined> {
    const [row] = await db
      .select()
      .from(zones)
      .where(and(eq(zones.organisationId, organisationId), eq(zones.slug, slug)))
    return row
  }

  async function createSigningKey(
    organisationId: string,
    input: NewSigningKey = {},
  ): Promise<SigningKey> {
    const [row] = await db
      .insert(signingKeys)
      .values({
        organisationId,
        accessKey: input.accessKey ?? randomBytes(16).toString('hex'),
        secret: input.secret ?? randomBytes(32).toString('hex'),
      })
      .returning()
    return returned(row)
  }

  /** The key with this access key unless it was revoked. */
  async function findSigningKey(accessKey: string): Promise<SigningKey | undefined> {
    const [row] = await db
      .select()
      .from(signingKeys)
      .where(and(eq(signingKeys.accessKey, accessKey), isNull(signingKeys.revokedAt)))
    return row
  }

  /** Returns whether a key that was still active got revoked. */
  async function revokeSigningKey(organisationId: string, accessKey: string): Promise<boolean> {
    return revokeLive(db, signingKeys, organisationId, eq(signingKeys.accessKey, accessKey))
  }

  return {
    findOrganisationById,
    findOrganisationByCloudName,
    createOrganisation,
    createZone,
    addCustomDomain,
    findOrganisationByDomain,
    findZone,
    createSigningKey,
    findSigningKey,
    revokeSigningKey,
  }
}
