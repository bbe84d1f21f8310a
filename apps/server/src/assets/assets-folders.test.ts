// Folders through the real server, on PGlite and PostgreSQL: make, rename, move and delete with
// everything in them.
import { describe, expect, it } from 'vitest'
import {
  API,
  type ApiError,
  describeAssetsApi,
  type FolderAnswer,
  HOSTILE,
  type Listing,
} from './assets-api-suite.ts'

describeAssetsApi({ least: 50 }, (t) => {
  const { call, addFile, holdings, deliver, derivedKeys } = t

  describe('folders', () => {
    it('makes a folder and its missing parents, and lists it with its id', async () => {
      const made = await call(t.ada, 'POST', `${API}/${t.ada.orgId}/folders`, {
        body: { name: 'shoes', path: '/made/products/' },
      })
      expect(made.status).toBe(201)
      const folder = made.body as FolderAnswer
      expect(folder).toMatchObject({
        type: 'folder',
        name: 'shoes',
        path: 'made/products',
        fullPath: 'made/products/shoes',
      })
      expect(folder._id).toMatch(/^[0-9a-f-]{36}$/)
      const listed = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=made/products`)
      expect((listed.body as Listing<FolderAnswer>).items).toEqual([
        expect.objectContaining({ _id: folder._id, name: 'shoes' }),
      ])
      const parent = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=made`)
      expect((parent.body as Listing<FolderAnswer>).items[0]?._id).toMatch(/^[0-9a-f-]{36}$/)
      const top = await call({ token: t.ada.token }, 'POST', `${API}/${t.ada.orgId}/folders`, {
        body: { name: 'top-level' },
      })
      expect(top.body).toMatchObject({ path: '', fullPath: 'top-level' })
    })

    it('refuses a folder where a folder (made or implied by files) or a file is, with 409', async () => {
      await addFile(t.ada.orgId, 'taken/implied/file.png')
      const before = await holdings(t.ada.orgId)
      for (const body of [
        { name: 'shoes', path: 'made/products' },
        { name: 'implied', path: 'taken' },
        { name: 'file.png', path: 'taken/implied' },
        { name: 'taken' },
      ]) {
        const answer = await call(t.ada, 'POST', `${API}/${t.ada.orgId}/folders`, { body })
        expect(answer.status, JSON.stringify(body)).toBe(409)
        expect((answer.body as ApiError).code).toBe('already_exists')
      }
      expect(await holdings(t.ada.orgId)).toEqual(before)
    })

    it('refuses bad folder names and paths with 400 and makes nothing', async () => {
      const before = await holdings(t.ada.orgId)
      const cases: [unknown, string][] = [
        [{ name: 'a/b' }, 'invalid_name'],
        [{ name: '..' }, 'invalid_path'],
        [{ name: '' }, 'invalid_path'],
        [{ name: 'x', path: '../up' }, 'invalid_path'],
        [{ name: 'x', path: 'a/../../b' }, 'invalid_path'],
        [{ name: 'bell\u0007' }, 'invalid_body'],
        [{ name: 'x'.repeat(300) }, 'invalid_body'],
        [{ name: 'x', path: `${'a/'.repeat(600)}a` }, 'invalid_body'],
        [{ path: 'x' }, 'invalid_body'],
        [{ name: true }, 'invalid_body'],
        [{ name: 'x', colour: 'red' }, 'invalid_body'],
        ...HOSTILE.map((text): [unknown, string] => [
          { name: text },
          text.includes('/') ? 'invalid_name' : 'invalid_path',
        ]),
        ...HOSTILE.map((text): [unknown, string] => [{ name: 'ok', path: text }, 'invalid_path']),
      ]
      for (const [body, code] of cases) {
        const answer = await call(t.ada, 'POST', `${API}/${t.ada.orgId}/folders`, { body })
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect((answer.body as ApiError).code, JSON.stringify(body)).toBe(code)
      }
      expect(await holdings(t.ada.orgId)).toEqual(before)
    })

    it('deletes an empty folder, and refuses one with something in it unless recursive=true', async () => {
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/folders`, {
        body: { name: 'inner', path: 'del/outer' },
      })
      const refused = await call(t.ada, 'DELETE', `${API}/${t.ada.orgId}/folders?path=del/outer`)
      expect(refused.status).toBe(409)
      expect((refused.body as ApiError).code).toBe('folder_not_empty')
      const inner = await call(
        t.ada,
        'DELETE',
        `${API}/${t.ada.orgId}/folders?path=del/outer/inner`,
      )
      expect(inner.status).toBe(200)
      expect(inner.body).toEqual({
        path: 'del/outer/inner',
        deleted: { files: 0, folders: 1 },
      })
      const outer = await call(t.ada, 'DELETE', `${API}/${t.ada.orgId}/folders?path=/del/outer/`)
      expect(outer.body).toEqual({
        path: 'del/outer',
        deleted: { files: 0, folders: 1 },
      })
      const missing = await call(
        { token: t.ada.token },
        'DELETE',
        `${API}/${t.ada.orgId}/folders?path=del/outer`,
      )
      expect(missing.status).toBe(404)
      expect((missing.body as ApiError).code).toBe('folder_not_found')
    })

    it('deletes a folder recursively: its files, their stored bytes and sub-folders', async () => {
      const { storage } = t.server.services.context
      const files = [
        await addFile(t.ada.orgId, 'tree/a.png'),
        await addFile(t.ada.orgId, 'tree/sub/b.png'),
        await addFile(t.ada.orgId, 'tree/sub/deeper/c.png'),
      ]
      const kept = await addFile(t.ada.orgId, 'tree-sibling/d.png')
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/folders`, {
        body: { name: 'empty', path: 'tree/sub' },
      })
      const answer = await call(
        { token: t.ada.token },
        'DELETE',
        `${API}/${t.ada.orgId}/folders?path=tree&recursive=true`,
      )
      expect(answer.status).toBe(200)
      // Three made folders: tree/sub/empty, and its parents tree and tree/sub made with it.
      expect(answer.body).toEqual({
        path: 'tree',
        deleted: { files: 3, folders: 3 },
      })
      for (const file of files) {
        expect(await storage.get(file.storageKey)).toBeUndefined()
        expect((await deliver(t.ada.cloudName, 'original', file.path)).status).toBe(404)
      }
      expect((await deliver(t.ada.cloudName, 'original', kept.path)).status).toBe(200)
      expect((await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=tree`)).status).toBe(404)
    })

    it.each([
      ['', 'invalid_query'],
      ['path=', 'invalid_query'],
      ['path=/', 'invalid_query'],
      ['path=../x', 'invalid_path'],
      ['path=x&recursive=yes', 'invalid_query'],
      [`path=${encodeURIComponent("x'; drop table folders; --")}`, 'invalid_path'],
    ])('refuses to delete the folder of "%s" with 400 %s', async (query, code) => {
      const answer = await call(t.ada, 'DELETE', `${API}/${t.ada.orgId}/folders?${query}`)
      expect(answer.status).toBe(400)
      expect((answer.body as ApiError).code).toBe(code)
    })

    it('moves a folder with everything in it: old URLs answer 404, new ones the images', async () => {
      const { storage } = t.server.services.context
      const one = await addFile(t.ada.orgId, 'albums/2024/one.png', 20)
      await addFile(t.ada.orgId, 'albums/2024/sub/two.png', 20)
      expect((await deliver(t.ada.cloudName, 't.flip()', one.path)).status).toBe(200)
      const [derivedKey] = await derivedKeys(one.id, 1)
      if (derivedKey === undefined) throw new Error('the derived image was not indexed')
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/folders`, {
        body: { name: 'empty', path: 'albums/2024' },
      })
      expect((await deliver(t.ada.cloudName, 'original', 'archive/old-2024/one.png')).status).toBe(
        404,
      )
      const answer = await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/folders?path=albums/2024`, {
        body: { name: 'old-2024', path: 'archive' },
      })
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({
        fullPath: 'archive/old-2024',
        name: 'old-2024',
        path: 'archive',
      })
      expect(await derivedKeys(one.id)).toEqual([])
      expect(await storage.get(derivedKey)).toBeUndefined()
      const file = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files/${one.id}`)
      expect(file.body).toMatchObject({
        fullPath: 'archive/old-2024/one.png',
        version: 2,
      })
      for (const path of ['one.png', 'sub/two.png']) {
        expect((await deliver(t.ada.cloudName, 'original', `albums/2024/${path}`)).status).toBe(404)
        expect(
          (await deliver(t.ada.cloudName, 'original', `archive/old-2024/${path}`)).status,
        ).toBe(200)
      }
      const listed = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=archive/old-2024`)
      expect((listed.body as Listing<FolderAnswer>).items.map((item) => item.name)).toEqual([
        'empty',
        'sub',
        'one.png',
      ])
      expect(
        (await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=albums/2024`)).status,
      ).toBe(404)
    })

    it('refuses to move a folder into itself, onto something, or that does not exist', async () => {
      await addFile(t.ada.orgId, 'mv/a/x.png')
      await addFile(t.ada.orgId, 'mv/b/y.png')
      const before = await holdings(t.ada.orgId)
      const cases: [string, unknown, number, string][] = [
        ['mv/a', { path: 'mv/a/inside' }, 400, 'invalid_path'],
        ['mv/a', { name: 'b' }, 409, 'already_exists'],
        ['mv/a', { path: 'mv/b', name: 'y.png' }, 409, 'already_exists'],
        ['mv/none', { name: 'z' }, 404, 'folder_not_found'],
        ['mv/a', {}, 400, 'invalid_body'],
        ['mv/a', { name: 'q/r' }, 400, 'invalid_name'],
        ['', { name: 'z' }, 400, 'invalid_query'],
      ]
      for (const [from, body, status, code] of cases) {
        const answer = await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/folders?path=${from}`, {
          body,
        })
        expect(answer.status, `${from} ${JSON.stringify(body)}`).toBe(status)
        expect((answer.body as ApiError).code).toBe(code)
      }
      expect(await holdings(t.ada.orgId)).toEqual(before)
    })
  })
})
