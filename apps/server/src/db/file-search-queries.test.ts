// The library search and the file fields of issue 22 against the database itself: tags,
// metadata and access stored and filtered, files by Pixelbin's file id, folder rows for every
// folder an upload implies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../test-server.ts'
import type { FileInput } from './repository.ts'
import { createRepository, type Repository } from './repository.ts'
import { openTestDatabase } from './test-database.ts'

const file = (path: string, extra: Partial<FileInput> = {}): FileInput => ({
  path,
  name: path.slice(path.lastIndexOf('/') + 1),
  size: 100,
  format: path.endsWith('.png') ? 'png' : 'jpeg',
  contentType: path.endsWith('.png') ? 'image/png' : 'image/jpeg',
  hash: 'b'.repeat(64),
  storageKey: `k/${path}`,
  ...extra,
})

describe.each(testDatabases('database'))('library search queries on %s', (kind) => {
  let repo: Repository
  let close: () => Promise<void>
  let org: string
  let other: string

  beforeAll(async () => {
    const opened = await openTestDatabase(kind)
    close = opened.close
    repo = createRepository(opened.database.db)
    org = (await repo.createOrganisation({ cloudName: `search-${kind}`, name: 'S' })).id
    other = (await repo.createOrganisation({ cloudName: `other-${kind}`, name: 'O' })).id
    await repo.storeFile(
      org,
      file('shoes/red/boot.jpg', { tags: ['red', 'sale'], metadata: { sku: 'B1', n: 2 } }),
      false,
    )
    await repo.storeFile(org, file('shoes/blue.png', { tags: ['blue'], size: 5000 }), false)
    await repo.storeFile(
      org,
      file('hats/cap.jpg', { tags: ['red'], access: 'private', metadata: { sku: 'C9' } }),
      false,
    )
    await repo.storeFile(other, file('shoes/red/boot.jpg', { tags: ['red', 'sale'] }), false)
  }, 120_000)
  afterAll(async () => close?.())

  const search = (extra: Partial<Parameters<Repository['searchFiles']>[1]> = {}) =>
    repo.searchFiles(org, { folder: '', recursive: true, limit: 50, offset: 0, ...extra })
  const paths = async (extra: Partial<Parameters<Repository['searchFiles']>[1]> = {}) =>
    (await search(extra)).files.map((row) => row.path)

  it('stores tags, metadata and access and answers them', async () => {
    const row = await repo.findFile(org, 'hats/cap.jpg')
    expect(row).toMatchObject({ access: 'private', tags: ['red'], metadata: { sku: 'C9' } })
    expect((await repo.findFile(org, 'shoes/blue.png'))?.access).toBe('public-read')
  })

  it('filters by every tag given, by metadata containment, format, size, access', async () => {
    expect(await paths({ tags: ['red'] })).toEqual(['shoes/red/boot.jpg', 'hats/cap.jpg'])
    expect(await paths({ tags: ['red', 'sale'] })).toEqual(['shoes/red/boot.jpg'])
    expect(await paths({ tags: ['nothing'] })).toEqual([])
    expect(await paths({ metadata: { sku: 'C9' } })).toEqual(['hats/cap.jpg'])
    expect(await paths({ metadata: { n: 2 } })).toEqual(['shoes/red/boot.jpg'])
    expect(await paths({ formats: ['png'] })).toEqual(['shoes/blue.png'])
    expect(await paths({ minSize: 1000 })).toEqual(['shoes/blue.png'])
    expect(await paths({ maxSize: 1000, access: 'private' })).toEqual(['hats/cap.jpg'])
  })

  it('searches a folder, directly or under it, by name and path text, sorted and paged', async () => {
    expect(await paths({ folder: 'shoes', recursive: false })).toEqual(['shoes/blue.png'])
    expect(await paths({ folder: 'shoes', sort: '-size' })).toEqual([
      'shoes/blue.png',
      'shoes/red/boot.jpg',
    ])
    expect(await paths({ name: 'BOO' })).toEqual(['shoes/red/boot.jpg'])
    expect(await paths({ pathText: 'red/' })).toEqual(['shoes/red/boot.jpg'])
    expect(await paths({ name: "%' or 1=1 --" })).toEqual([])
    const page = await search({ sort: 'name', limit: 2, offset: 2 })
    expect(page.total).toBe(3)
    expect(page.files.map((row) => row.name)).toEqual(['cap.jpg'])
    expect(await paths({ createdAfter: new Date(Date.now() + 60_000) })).toEqual([])
    expect((await paths({ updatedBefore: new Date(Date.now() + 60_000) })).length).toBe(3)
  })

  it('finds a file by folder and name without extension, never in another organisation', async () => {
    expect((await repo.findFileByStem(org, 'shoes/red/boot'))?.path).toBe('shoes/red/boot.jpg')
    expect((await repo.findFileByStem(org, 'shoes/red/boot.jpg'))?.path).toBe('shoes/red/boot.jpg')
    expect(await repo.findFileByStem(org, 'shoes/red')).toBeUndefined()
    const theirs = await repo.findFileByStem(other, 'shoes/red/boot')
    expect(theirs?.organisationId).toBe(other)
  })

  it('updates tags, metadata and access', async () => {
    const row = await repo.findFile(org, 'shoes/blue.png')
    const updated = await repo.updateFileFields(org, row?.id as string, {
      tags: ['blue', 'new'],
      metadata: { colour: 'blue' },
      access: 'private',
    })
    expect(updated).toMatchObject({ tags: ['blue', 'new'], metadata: { colour: 'blue' } })
    expect(updated?.access).toBe('private')
    expect(await repo.updateFileFields(other, row?.id as string, { tags: [] })).toBeUndefined()
    expect(await paths({ tags: ['new'] })).toEqual(['shoes/blue.png'])
  })

  it('gives every folder an upload implies a row with a stable id', async () => {
    const shoes = await repo.findFolder(org, 'shoes')
    const red = await repo.findFolder(org, 'shoes/red')
    expect(shoes?.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(red?.id).toMatch(/^[0-9a-f-]{36}$/)
    expect((await repo.findFolderById(org, red?.id as string))?.path).toBe('shoes/red')
    expect(await repo.findFolderById(other, red?.id as string)).toBeUndefined()
    await repo.makeImpliedFolders(org)
    expect((await repo.findFolder(org, 'shoes'))?.id).toBe(shoes?.id)
    const found = await repo.searchFolders(org, {
      folder: '',
      name: 'RE',
      recursive: true,
      limit: 10,
      offset: 0,
    })
    expect(found.folders.map((row) => row.path)).toEqual(['shoes/red'])
    const top = await repo.searchFolders(org, {
      folder: '',
      name: '',
      recursive: false,
      limit: 10,
      offset: 0,
    })
    expect(top.folders.map((row) => row.path)).toEqual(['hats', 'shoes'])
  })

  it('counts tags', async () => {
    const tags = await repo.listTags(org, 10)
    expect(tags[0]).toEqual({ tag: 'red', files: 2 })
    expect(tags.map((entry) => entry.tag)).toContain('sale')
  })
})
