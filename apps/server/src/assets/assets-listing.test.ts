// The file listing through the real server, on PGlite and PostgreSQL: paging, sorting and filters.
import { describe, expect, it } from 'vitest'
import type { OpenApiDocument } from '../openapi.ts'
import {
  API,
  type ApiError,
  describeAssetsApi,
  type FileAnswer,
  type FolderAnswer,
  HOSTILE,
  type Listing,
} from './assets-api-suite.ts'
import { ASSET_PAGE_SIZE } from './paths.ts'

/** Tests that read the OpenAPI document. */
const documentTests = (document: () => OpenApiDocument) => {
  it('gives the page size the server uses', () => {
    const parameter = document().paths[`${API}/{orgId}/files`]?.get?.parameters?.find(
      (p) => p.name === 'pageSize',
    )
    expect(parameter?.schema.default).toBe(ASSET_PAGE_SIZE)
  })
}

describeAssetsApi({ least: 40, more: documentTests }, (t) => {
  const { call, addFile } = t

  describe('the file listing', () => {
    it('lists one folder level: its folders first, then its files, with a SPEC §7.2 page', async () => {
      await addFile(t.ada.orgId, 'listing/b.png')
      await addFile(t.ada.orgId, 'listing/A.png')
      await addFile(t.ada.orgId, 'listing/photos/deep/x.png')
      await addFile(t.ada.orgId, 'listing/zoo/y.png')
      expect(
        (
          await call(t.ada, 'POST', `${API}/${t.ada.orgId}/folders`, {
            body: { name: 'empty', path: 'listing' },
          })
        ).status,
      ).toBe(201)

      const answer = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=listing`)
      expect(answer.status).toBe(200)
      expect(answer.response.headers.get('cache-control')).toBe('no-store')
      const listing = answer.body as Listing<FileAnswer | FolderAnswer>
      expect(listing.items.map((item) => `${item.type}:${item.name}`)).toEqual([
        'folder:empty',
        'folder:photos',
        'folder:zoo',
        'file:A.png',
        'file:b.png',
      ])
      expect(listing.page).toEqual({
        current: 1,
        size: ASSET_PAGE_SIZE,
        hasNext: false,
        itemTotal: 5,
        type: 'number',
      })
      const [empty, photos] = listing.items as FolderAnswer[]
      expect(empty).toMatchObject({
        path: 'listing',
        fullPath: 'listing/empty',
      })
      expect(empty?._id).toMatch(/^[0-9a-f-]{36}$/)
      // A folder that exists because a file lies in it has no id of its own.
      expect(photos?._id).toBeNull()
      const file = listing.items[3] as FileAnswer
      expect(file).toMatchObject({
        orgId: t.ada.orgId,
        name: 'A.png',
        path: 'listing',
        fullPath: 'listing/A.png',
        url: `${t.server.config.publicUrl}/v2/${t.ada.cloudName}/original/listing/A.png`,
        width: 40,
      })

      const top = (await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files`))
        .body as Listing<FolderAnswer>
      expect(top.items.map((item) => item.name)).toContain('listing')
      const slashes = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=/listing/photos/`)
      expect((slashes.body as Listing<FolderAnswer>).items.map((item) => item.fullPath)).toEqual([
        'listing/photos/deep',
      ])
    })

    it('pages through a folder until hasNext is false, each entry once', async () => {
      for (let i = 0; i < 7; i++) await addFile(t.ada.orgId, `paged/file-${i}.png`, 8)
      for (const name of ['f1', 'f2', 'f3'])
        await addFile(t.ada.orgId, `paged/${name}/inner.png`, 8)
      const seen: string[] = []
      let pages = 0
      for (let pageNo = 1; ; pageNo++) {
        const answer = await call(
          t.ada,
          'GET',
          `${API}/${t.ada.orgId}/files?path=paged&pageSize=4&pageNo=${pageNo}`,
        )
        expect(answer.status).toBe(200)
        const { items, page } = answer.body as Listing<FileAnswer | FolderAnswer>
        pages++
        expect(page).toMatchObject({
          current: pageNo,
          size: 4,
          itemTotal: 10,
        })
        seen.push(...items.map((item) => `${item.type}:${item.name}`))
        if (!page.hasNext) break
      }
      expect(pages).toBe(3)
      expect(seen).toEqual([
        'folder:f1',
        'folder:f2',
        'folder:f3',
        ...Array.from({ length: 7 }, (_, i) => `file:file-${i}.png`),
      ])
      const past = await call(
        t.ada,
        'GET',
        `${API}/${t.ada.orgId}/files?path=paged&pageSize=4&pageNo=9`,
      )
      expect(past.body).toMatchObject({
        items: [],
        page: { hasNext: false, itemTotal: 10 },
      })
    })

    it('filters by name case-insensitively, and text that looks like SQL or a pattern matches nothing', async () => {
      const found = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=paged&name=FILE-3`)
      expect((found.body as Listing<FileAnswer>).items.map((item) => item.name)).toEqual([
        'file-3.png',
      ])
      const folders = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=paged&name=f2`)
      expect((folders.body as Listing<FolderAnswer>).items.map((item) => item.name)).toEqual(['f2'])
      for (const text of HOSTILE) {
        const answer = await call(
          t.ada,
          'GET',
          `${API}/${t.ada.orgId}/files?path=paged&name=${encodeURIComponent(text)}`,
        )
        expect(answer.status, text).toBe(200)
        expect((answer.body as Listing<FileAnswer>).items, text).toEqual([])
      }
    })

    it('sorts the whole level, not one page: folders first, then files by the order asked', async () => {
      const sizes = new Map<string, number>()
      for (const [name, pixels] of [
        ['a.png', 10],
        ['b.png', 60],
        ['c.png', 30],
        ['d.png', 90],
        ['e.png', 20],
      ] as const) {
        sizes.set(name, (await addFile(t.ada.orgId, `sorted/${name}`, pixels)).size)
      }
      for (const name of ['f1', 'f2']) await addFile(t.ada.orgId, `sorted/${name}/inner.png`, 8)
      const walk = async (sort: string) => {
        const seen: string[] = []
        for (let pageNo = 1; ; pageNo++) {
          const answer = await call(
            t.ada,
            'GET',
            `${API}/${t.ada.orgId}/files?path=sorted&pageSize=3&pageNo=${pageNo}&sort=${sort}`,
          )
          expect(answer.status).toBe(200)
          const { items, page } = answer.body as Listing<FileAnswer | FolderAnswer>
          seen.push(...items.map((item) => `${item.type}:${item.name}`))
          if (!page.hasNext) return seen
        }
      }
      const largestFirst = [...sizes.keys()].sort(
        (a, b) => (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0) || a.localeCompare(b),
      )
      expect(await walk('-size')).toEqual([
        'folder:f1',
        'folder:f2',
        ...largestFirst.map((name) => `file:${name}`),
      ])
      expect(await walk('-name')).toEqual([
        'folder:f2',
        'folder:f1',
        ...['e', 'd', 'c', 'b', 'a'].map((name) => `file:${name}.png`),
      ])
      expect(await walk('name')).toEqual(await walk('type'))
      const refused = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=sorted&sort=size`)
      expect(refused.status).toBe(400)
      expect((refused.body as ApiError).code).toBe('invalid_query')
    })

    it('answers 404 folder_not_found for a folder that does not exist', async () => {
      const answer = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=nowhere/at/all`)
      expect(answer.status).toBe(404)
      expect((answer.body as ApiError).code).toBe('folder_not_found')
    })

    it.each([
      ['pageNo=0', 'invalid_query'],
      ['pageNo=-1', 'invalid_query'],
      ['pageNo=1.5', 'invalid_query'],
      ['pageNo=abc', 'invalid_query'],
      ['pageNo=100001', 'invalid_query'],
      ['pageSize=0', 'invalid_query'],
      ['pageSize=101', 'invalid_query'],
      ['pageSize=1e3', 'invalid_query'],
      ['pageNo=1&pageNo=2', 'invalid_query'],
      [`path=${'a'.repeat(1100)}`, 'invalid_query'],
      ['path=a%00b', 'invalid_query'],
      ['path=../etc', 'invalid_path'],
      ['path=a/../../b', 'invalid_path'],
      ['path=a//b', 'invalid_path'],
      ['path=a\\b', 'invalid_path'],
      [`path=${encodeURIComponent("' OR '1'='1")}`, 'invalid_path'],
    ])('refuses %s with 400 %s', async (query, code) => {
      const answer = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?${query}`)
      expect(answer.status).toBe(400)
      expect((answer.body as ApiError).code).toBe(code)
      expect((answer.body as ApiError).message).not.toMatch(/at .*\.ts/)
    })
  })
})
