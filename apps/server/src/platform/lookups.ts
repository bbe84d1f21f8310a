// Database rows the delivery hot path reads on every request, remembered for a few seconds in
// this process (other processes see a change after at most `ttlMs`; this one at once, because
// writes here forget what they change).

import type {
  DerivedImage,
  Organisation,
  Preset,
  Repository,
  StoredFile,
  Zone,
} from '../db/index.ts'
import { createByteCache, createTtlCache } from './cache.ts'

export interface Lookups {
  organisationByCloudName(cloudName: string): Promise<Organisation | undefined>
  organisationById(id: string): Promise<Organisation | undefined>
  /** The organisation a custom-domain host belongs to. */
  organisationByDomain(host: string): Promise<Organisation | undefined>
  zone(organisationId: string, slug: string): Promise<Zone | undefined>
  file(organisationId: string, path: string): Promise<StoredFile | undefined>
  preset(organisationId: string, name: string): Promise<Preset | undefined>
  derived(cacheKey: string): Promise<DerivedImage | undefined>
  /** Bytes of recently served derived images, by storage key. */
  readonly bytes: ReturnType<typeof createByteCache>
  /** Forgets a file (after an upload or delete in this process). */
  forgetFile(organisationId: string, path: string): void
  /** Forgets a preset (after it is created, changed or deleted in this process). */
  forgetPreset(organisationId: string, name: string): void
  /** Forgets an organisation under its id and cloud name (after a change in this process). */
  forgetOrganisation(organisation: Pick<Organisation, 'id' | 'cloudName'>): void
}

export function createLookups(
  repo: Repository,
  options: { ttlMs: number; hotCacheBytes: number },
): Lookups {
  const ttl = { ttlMs: options.ttlMs, maxEntries: 10_000 }
  // `null` remembers that a row does not exist, so a scan of missing paths stays off the database.
  const organisations = createTtlCache<string, Organisation | null>(ttl)
  const organisationsById = createTtlCache<string, Organisation | null>(ttl)
  const domains = createTtlCache<string, Organisation | null>(ttl)
  const zones = createTtlCache<string, Zone | null>(ttl)
  const files = createTtlCache<string, StoredFile | null>({ ...ttl, maxEntries: 50_000 })
  const presets = createTtlCache<string, Preset | null>(ttl)
  // A derived image's row never changes (a new file version makes a new cache key).
  const derivedRows = createTtlCache<string, DerivedImage>({ ttlMs: 60_000, maxEntries: 50_000 })

  async function remember<T>(
    cache: ReturnType<typeof createTtlCache<string, T | null>>,
    key: string,
    load: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const known = cache.get(key)
    if (known !== undefined) return known ?? undefined
    const value = await load()
    cache.set(key, value ?? null)
    return value
  }

  return {
    organisationByCloudName: (cloudName) =>
      remember(organisations, cloudName, () => repo.findOrganisationByCloudName(cloudName)),
    organisationById: (id) => remember(organisationsById, id, () => repo.findOrganisationById(id)),
    organisationByDomain: (host) =>
      remember(domains, host, () => repo.findOrganisationByDomain(host)),
    zone: (organisationId, slug) =>
      remember(zones, `${organisationId}\n${slug}`, () => repo.findZone(organisationId, slug)),
    file: (organisationId, path) =>
      remember(files, `${organisationId}\n${path}`, () => repo.findFile(organisationId, path)),
    preset: (organisationId, name) =>
      remember(presets, `${organisationId}\n${name}`, () => repo.findPreset(organisationId, name)),
    async derived(cacheKey) {
      const known = derivedRows.get(cacheKey)
      if (known !== undefined) return known
      const row = await repo.findDerived(cacheKey)
      if (row !== undefined) derivedRows.set(cacheKey, row)
      return row
    },
    bytes: createByteCache({ maxBytes: options.hotCacheBytes }),
    forgetFile(organisationId, path) {
      files.delete(`${organisationId}\n${path}`)
    },
    forgetPreset(organisationId, name) {
      presets.delete(`${organisationId}\n${name}`)
    },
    forgetOrganisation(organisation) {
      organisations.delete(organisation.cloudName)
      organisationsById.delete(organisation.id)
    },
  }
}
