// The repository on PGlite and PostgreSQL: migrations, organisations and signing keys.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { count } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { MIGRATIONS_FOLDER } from './database.ts'
import { isUniqueViolation } from './query-helpers.ts'
import {
  causeCode,
  describeRepository,
  migrationsTable,
  rejection,
  unique,
} from './repository-suite.ts'
import { organisations } from './schema.ts'

describeRepository((t) => {
  const { newOrganisation } = t

  describe('migrations', () => {
    it('leaves the database unchanged when run again', async () => {
      const journal = JSON.parse(
        await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
      ) as { entries: unknown[] }
      await newOrganisation()
      const countOrganisations = async () =>
        (await t.database.db.select({ n: count() }).from(organisations))[0]?.n
      const before = await countOrganisations()

      await t.database.migrate()
      await t.database.migrate()

      const [applied] = await t.database.db.select({ n: count() }).from(migrationsTable)
      expect(applied?.n).toBe(journal.entries.length)
      expect(await countOrganisations()).toBe(before)
    })

    it('answers a ping', async () => {
      await expect(t.database.ping()).resolves.toBeUndefined()
    })
  })

  describe('organisations', () => {
    it('finds an organisation by cloud name and by id', async () => {
      const created = await t.repo.createOrganisation({
        cloudName: unique('Acme-'),
        name: 'Acme',
        requireSignedUrls: true,
      })
      expect(created).toMatchObject({ name: 'Acme', requireSignedUrls: true })
      expect(created.createdAt).toBeInstanceOf(Date)
      expect(await t.repo.findOrganisationByCloudName(created.cloudName)).toEqual(created)
      expect(await t.repo.findOrganisationById(created.id)).toEqual(created)
      expect(await t.repo.findOrganisationByCloudName(unique('nobody'))).toBeUndefined()
      expect(await t.repo.findOrganisationById('not-a-uuid')).toBeUndefined()
    })

    it('defaults requireSignedUrls to false', async () => {
      expect((await newOrganisation()).requireSignedUrls).toBe(false)
    })

    it('refuses a cloud name that is already taken', async () => {
      const first = await newOrganisation()
      const error = await rejection(
        t.repo.createOrganisation({ cloudName: first.cloudName, name: 'Impostor' }),
      )
      expect(isUniqueViolation(error, 'organisations_cloud_name_key')).toBe(true)
    })

    it.each(['ab', 'has space', 'dot.name', 'ünï'])('refuses the cloud name %j', async (name) => {
      const error = await rejection(t.repo.createOrganisation({ cloudName: name, name: 'Bad' }))
      expect(causeCode(error)).toBe('23514')
      expect(isUniqueViolation(error)).toBe(false)
    })

    it('finds a zone only through its own organisation', async () => {
      const a = await newOrganisation()
      const b = await newOrganisation()
      const zone = await t.repo.createZone(a.id, { slug: 'zone_1', name: 'Main' })
      await t.repo.createZone(b.id, { slug: 'zone_1', name: 'Same slug, other tenant' })
      expect(await t.repo.findZone(a.id, 'zone_1')).toEqual(zone)
      expect((await t.repo.findZone(b.id, 'zone_1'))?.id).not.toBe(zone.id)
      expect(await t.repo.findZone(a.id, 'zone_2')).toBeUndefined()
      const duplicate = await rejection(t.repo.createZone(a.id, { slug: 'zone_1', name: 'Again' }))
      expect(isUniqueViolation(duplicate, 'zones_organisation_slug_key')).toBe(true)
    })

    it('refuses a zone slug that is not six URL-safe characters', async () => {
      const org = await newOrganisation()
      for (const slug of ['short', 'toolong', 'ab/cde']) {
        expect(causeCode(await rejection(t.repo.createZone(org.id, { slug, name: 'x' })))).toBe(
          '23514',
        )
      }
    })
  })

  describe('signing keys', () => {
    it('finds an active key by access key and forgets it once revoked', async () => {
      const org = await newOrganisation()
      const key = await t.repo.createSigningKey(org.id)
      expect(key.accessKey).toMatch(/^[0-9a-f]{32}$/)
      expect(key.secret).toMatch(/^[0-9a-f]{64}$/)
      expect(await t.repo.findSigningKey(key.accessKey)).toEqual(key)

      const other = await newOrganisation()
      expect(await t.repo.revokeSigningKey(other.id, key.accessKey)).toBe(false)
      expect(await t.repo.findSigningKey(key.accessKey)).toEqual(key)

      expect(await t.repo.revokeSigningKey(org.id, key.accessKey)).toBe(true)
      expect(await t.repo.findSigningKey(key.accessKey)).toBeUndefined()
      expect(await t.repo.revokeSigningKey(org.id, key.accessKey)).toBe(false)
    })

    it('keeps access keys unique across organisations', async () => {
      const accessKey = unique('ak')
      await t.repo.createSigningKey((await newOrganisation()).id, { accessKey, secret: 's1' })
      const error = await rejection(
        t.repo.createSigningKey((await newOrganisation()).id, { accessKey, secret: 's2' }),
      )
      expect(isUniqueViolation(error, 'signing_keys_access_key_key')).toBe(true)
    })
  })
})
