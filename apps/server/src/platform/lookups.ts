// Database rows the delivery hot path reads on every request, remembered for a few seconds in
// this process. A write forgets what it changes here at once and, through the change feed
// (`changes.ts`, PostgreSQL NOTIFY), in every other process before it answers; `ttlMs` only
// bounds how long a row stays when a notification was lost.

import type {
  DerivedImage,
  Organisation,
  Preset,
  Repository,
  SigningKey,
  StoredFile,
  Zone,
} from '../db/index.ts'
import { createByteCache, createTtlCache } from './cache.ts'
import type { Change } from './changes.ts'

export interface Lookups {
  organisationByCloudName(cloudName: string): Promise<Organisation | undefined>
  organisationById(id: string): Promise<Organisation | undefined>
  /** The organisation a custom-domain host belongs to. */
  organisationByDomain(host: string): Promise<Organisation | undefined>
  zone(organisationId: string, slug: string): Promise<Zone | undefined>
  file(organisationId: string, path: string): Promise<StoredFile | undefined>
  preset(organisationId: string, name: string): Promise<Preset | undefined>
  derived(cacheKey: string): Promise<DerivedImage | undefined>
  /** A signing key that is not revoked, by its access key (signed delivery URLs). */
  signingKey(accessKey: string): Promise<SigningKey | undefined>
  /** Bytes of recently served derived images, by storage key. */
  readonly bytes: ReturnType<typeof createByteCache>
  /**
   * Forgets a file (after an upload, delete or move) in every process; resolves when they have
   * been told, so the answer that follows is true everywhere.
   */
  forgetFile(organisationId: string, path: string): Promise<void>
  /** Forgets a preset (after it is created, changed or deleted) in every process. */
  forgetPreset(organisationId: string, name: string): Promise<void>
  /** Forgets an organisation, its zones and domains (after a change) in every process. */
  forgetOrganisation(organisation: Pick<Organisation, 'id' | 'cloudName'>): Promise<void>
  /** Forgets every signing key (after one is created or revoked) in every process. */
  forgetSigningKeys(): Promise<void>
  /** Forgets what `change` makes stale, in this process only (the change feed calls it). */
  apply(change: Change): void
  /** Forgets every row (not the bytes, which never go stale), in this process only. */
  forgetAll(): void
  /**
   * Calls `listener` after every change is applied here (`undefined`: everything was forgotten),
   * for caches built over these rows (the delivery fast lane).
   */
  onChange(listener: (change: Change | undefined) => void): void
}

export interface LookupOptions {
  ttlMs: number
  hotCacheBytes: number
  /**
   * Tells every process about a change (the change feed); without it a change is applied
   * here only, which is enough for a single process.
   */
  publish?: (change: Change) => Promise<void>
}

export function createLookups(repo: Repository, options: LookupOptions): Lookups {
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
  const signingKeys = createTtlCache<string, SigningKey | null>(ttl)
  const rows = [organisations, organisationsById, domains, zones, files, presets, signingKeys]
  const listeners: Array<(change: Change | undefined) => void> = []

  function apply(change: Change): void {
    forgetRows(change)
    for (const listener of listeners) listener(change)
  }

  function forgetRows(change: Change): void {
    switch (change.kind) {
      case 'file':
        files.delete(`${change.organisationId}\n${change.path}`)
        return
      case 'preset':
        presets.delete(`${change.organisationId}\n${change.name}`)
        return
      case 'organisation':
        organisations.delete(change.cloudName)
        organisationsById.delete(change.id)
        // Few rows, rarely changed: forgetting all is simpler than finding the organisation's.
        domains.clear()
        zones.clear()
        return
      case 'signing-keys':
        signingKeys.clear()
        return
    }
  }

  const publish = (change: Change): Promise<void> => {
    if (options.publish !== undefined) return options.publish(change)
    apply(change)
    return Promise.resolve()
  }

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
    signingKey: (accessKey) =>
      remember(signingKeys, accessKey, () => repo.findSigningKey(accessKey)),
    bytes: createByteCache({ maxBytes: options.hotCacheBytes }),
    forgetFile: (organisationId, path) => publish({ kind: 'file', organisationId, path }),
    forgetPreset: (organisationId, name) => publish({ kind: 'preset', organisationId, name }),
    forgetOrganisation: (organisation) =>
      publish({ kind: 'organisation', id: organisation.id, cloudName: organisation.cloudName }),
    forgetSigningKeys: () => publish({ kind: 'signing-keys' }),
    apply,
    forgetAll() {
      for (const cache of rows) cache.clear()
      for (const listener of listeners) listener(undefined)
    },
    onChange(listener) {
      listeners.push(listener)
    },
  }
}
