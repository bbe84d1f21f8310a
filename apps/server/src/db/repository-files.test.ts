import { describe, expect, it } from 'vitest'
import { isUniqueViolation } from './query-helpers.ts'
import type { Repository } from './repository.ts'
import {
  causeCode,
  derivedInput,
  describeRepository,
  fileInput,
  rejection,
  unique,
} from './repository-suite.ts'
import { files, presets } from './schema.ts'

describeRepository((t) => {
  const { newOrganisation } = t

  describe('files', () => {
    it("does not find one organisation's file with another organisation's id", async () => {
      const a = await newOrganisation()
      const b = await newOrganisation()
      const file = await t.repo.upsertFile(a.id, fileInput('photos/cat.png'))
      expect(await t.repo.findFile(a.id, 'photos/cat.png')).toEqual(file)
      expect(await t.repo.findFile(b.id, 'photos/cat.png')).toBeUndefined()
      expect(await t.repo.listFiles(b.id, { limit: 10 })).toEqual([])
      expect(await t.repo.deleteFile(b.id, 'photos/cat.png')).toBeUndefined()
      expect(await t.repo.findFile(a.id, 'photos/cat.png')).toEqual(file)
    })

    it('stores a new file at version 1 with its fields', async () => {
      const org = await newOrganisation()
      const input = fileInput('a/b/c.png', { size: 5_000_000_000, width: null, height: null })
      const file = await t.repo.upsertFile(org.id, input)
      expect(file).toMatchObject({ ...input, organisationId: org.id, version: 1 })
      expect(file.size).toBe(5_000_000_000)
      expect(file.updatedAt).toBeInstanceOf(Date)
    })

    it('bumps the version and replaces the fields when a path is overwritten', async () => {
      const org = await newOrganisation()
      const first = await t.repo.upsertFile(org.id, fileInput('logo.png'))
      const replacement = fileInput('logo.png', { format: 'webp', contentType: 'image/webp' })
      const second = await t.repo.upsertFile(org.id, replacement)
      const third = await t.repo.upsertFile(org.id, fileInput('logo.png'))

      expect(second).toMatchObject({ ...replacement, id: first.id, version: 2 })
      expect(second.createdAt).toEqual(first.createdAt)
      expect(third.version).toBe(3)
      expect(await t.repo.findFile(org.id, 'logo.png')).toEqual(third)
    })

    it('allows a path once per organisation', async () => {
      const a = await newOrganisation()
      const b = await newOrganisation()
      const row = (organisationId: string) => ({ organisationId, ...fileInput('same.png') })
      await t.database.db.insert(files).values(row(a.id))
      await t.database.db.insert(files).values(row(b.id))
      const error = await rejection(t.database.db.insert(files).values(row(a.id)))
      expect(isUniqueViolation(error, 'files_organisation_path_key')).toBe(true)
    })

    it('refuses a hash that is not sha256 hex', async () => {
      const org = await newOrganisation()
      const error = await rejection(t.repo.upsertFile(org.id, fileInput('x.png', { hash: 'abc' })))
      expect(causeCode(error)).toBe('23514')
    })

    it('lists files by path with a literal prefix, a limit and an offset', async () => {
      const org = await newOrganisation()
      for (const path of ['b/2.png', 'a/1.png', 'b/1.png', 'b%/x.png', 'b_/y.png', 'bb/z.png']) {
        await t.repo.upsertFile(org.id, fileInput(path))
      }
      const paths = async (options: Parameters<Repository['listFiles']>[1]) =>
        (await t.repo.listFiles(org.id, options)).map((file) => file.path)

      expect(await paths({ limit: 100 })).toEqual([
        'a/1.png',
        'b%/x.png',
        'b/1.png',
        'b/2.png',
        'b_/y.png',
        'bb/z.png',
      ])
      expect(await paths({ prefix: 'b/', limit: 100 })).toEqual(['b/1.png', 'b/2.png'])
      expect(await paths({ prefix: 'b%', limit: 100 })).toEqual(['b%/x.png'])
      expect(await paths({ prefix: 'b_', limit: 100 })).toEqual(['b_/y.png'])
      expect(await paths({ limit: 2, offset: 1 })).toEqual(['b%/x.png', 'b/1.png'])
      expect(await paths({ prefix: 'zzz', limit: 10 })).toEqual([])
      await expect(t.repo.listFiles(org.id, { limit: -1 })).rejects.toThrow(RangeError)
    })

    it('deletes a file with its derived images and returns their storage keys', async () => {
      const org = await newOrganisation()
      const file = await t.repo.upsertFile(org.id, fileInput('gone.png'))
      const derived = await t.repo.recordDerived(derivedInput(org.id, file.id, file.version))

      const deleted = await t.repo.deleteFile(org.id, 'gone.png')

      expect(deleted).toEqual({ file, derivedStorageKeys: [derived.storageKey] })
      expect(await t.repo.findFile(org.id, 'gone.png')).toBeUndefined()
      expect(await t.repo.findDerived(derived.cacheKey)).toBeUndefined()
      expect(await t.repo.deleteFile(org.id, 'gone.png')).toBeUndefined()
    })
  })

  describe('presets', () => {
    it('creates, replaces and lists presets per organisation', async () => {
      const a = await newOrganisation()
      const b = await newOrganisation()
      const thumb = await t.repo.upsertPreset(a.id, {
        name: 'thumb',
        transformation: 't.resize(w:$w)',
        params: { w: { type: 'integer', default: 100 } },
      })
      expect(thumb).toMatchObject({ archived: false, params: { w: { default: 100 } } })
      await t.repo.upsertPreset(a.id, { name: 'avatar', transformation: 't.flip()' })
      await t.repo.upsertPreset(b.id, { name: 'thumb', transformation: 't.flop()' })

      const replaced = await t.repo.upsertPreset(a.id, {
        name: 'thumb',
        transformation: 't.resize(w:200)',
        archived: true,
      })

      expect(replaced).toMatchObject({ id: thumb.id, params: {}, archived: true })
      expect(await t.repo.findPreset(a.id, 'thumb')).toEqual(replaced)
      expect((await t.repo.findPreset(b.id, 'thumb'))?.transformation).toBe('t.flop()')
      expect((await t.repo.listPresets(a.id)).map((preset) => preset.name)).toEqual([
        'avatar',
        'thumb',
      ])
      expect(await t.repo.findPreset(a.id, 'missing')).toBeUndefined()
    })

    it('allows a preset name once per organisation', async () => {
      const org = await newOrganisation()
      const row = { organisationId: org.id, name: 'p', transformation: 't.flip()' }
      await t.database.db.insert(presets).values(row)
      const error = await rejection(t.database.db.insert(presets).values(row))
      expect(isUniqueViolation(error, 'presets_organisation_name_key')).toBe(true)
    })
  })

  describe('derived images', () => {
    it('records a cache key once and returns the first row to a later writer', async () => {
      const org = await newOrganisation()
      const file = await t.repo.upsertFile(org.id, fileInput('d.png'))
      const input = derivedInput(org.id, file.id, file.version)
      const first = await t.repo.recordDerived(input)
      const second = await t.otherRepo.recordDerived({ ...input, storageKey: 'derived/other' })

      expect(first).toMatchObject({ ...input, size: 99 })
      expect(second).toEqual(first)
      expect(await t.repo.findDerived(input.cacheKey)).toEqual(first)
      expect(await t.repo.findDerived(unique('missing'))).toBeUndefined()
    })

    it('keeps the transformation context, filling in one a row stored without it', async () => {
      const org = await newOrganisation()
      const file = await t.repo.upsertFile(org.id, fileInput('c.png'))
      const input = derivedInput(org.id, file.id, file.version)
      const context = [{ name: 'od.detect', data: { objects: [{ label: 'person' }] } }]
      expect((await t.repo.recordDerived(input)).context).toBeNull()
      const filled = await t.repo.recordDerived({ ...input, context })
      expect(filled.context).toEqual(context)
      // A context once kept is not replaced.
      const again = await t.repo.recordDerived({ ...input, context: [{ name: 'other' }] })
      expect(again.context).toEqual(context)
      expect((await t.repo.findDerived(input.cacheKey))?.context).toEqual(context)
    })

    it('moves lastAccessedAt forward when touched', async () => {
      const org = await newOrganisation()
      const file = await t.repo.upsertFile(org.id, fileInput('t.png'))
      const derived = await t.repo.recordDerived(derivedInput(org.id, file.id, file.version))
      await t.repo.touchDerived(derived.id)
      const touched = await t.repo.findDerived(derived.cacheKey)
      expect(touched?.lastAccessedAt.getTime()).toBeGreaterThanOrEqual(
        derived.lastAccessedAt.getTime(),
      )
    })

    it("forgets a file's derived images and returns their storage keys", async () => {
      const org = await newOrganisation()
      const file = await t.repo.upsertFile(org.id, fileInput('many.png'))
      const other = await t.repo.upsertFile(org.id, fileInput('other.png'))
      const one = await t.repo.recordDerived(derivedInput(org.id, file.id, 1))
      const two = await t.repo.recordDerived(derivedInput(org.id, file.id, 1))
      const kept = await t.repo.recordDerived(derivedInput(org.id, other.id, 1))

      const keys = await t.repo.deleteDerivedForFile(file.id)

      expect(keys.sort()).toEqual([one.storageKey, two.storageKey].sort())
      expect(await t.repo.findDerived(one.cacheKey)).toBeUndefined()
      expect(await t.repo.findDerived(kept.cacheKey)).toEqual(kept)
      expect(await t.repo.deleteDerivedForFile(file.id)).toEqual([])
    })
  })
})
