// One file through the real server, on PGlite and PostgreSQL: read, rename, move and delete
// (delivery follows at once).
import { describe, expect, it } from 'vitest'
import {
  API,
  type ApiError,
  describeAssetsApi,
  type FileAnswer,
  HOSTILE,
  type Listing,
  widthOf,
} from './assets-api-suite.ts'

describeAssetsApi({ least: 60 }, (t) => {
  const { call, addFile, holdings, deliver, local, derivedKeys } = t

  describe('one file', () => {
    it('answers the file with a delivery URL that serves it', async () => {
      const file = await addFile(t.ada.orgId, 'one/sky.png', 30)
      const answer = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files/${file.id}`)
      expect(answer.status).toBe(200)
      const body = answer.body as FileAnswer
      expect(body).toMatchObject({
        _id: file.id,
        name: 'sky.png',
        path: 'one',
        version: 1,
      })
      const delivered = await fetch(local(body.url))
      expect(delivered.status).toBe(200)
      expect(await widthOf(delivered)).toBe(30)
    })

    it('renames a file: the old delivery URL answers 404 at once and the new one the image', async () => {
      const { storage } = t.server.services.context
      const file = await addFile(t.ada.orgId, 'rename/old.png', 24)
      expect((await deliver(t.ada.cloudName, 'original', 'rename/old.png')).status).toBe(200)
      expect((await deliver(t.ada.cloudName, 't.resize(w:12)', 'rename/old.png')).status).toBe(200)
      const [derivedKey] = await derivedKeys(file.id, 1)
      if (derivedKey === undefined) throw new Error('the derived image was not indexed')
      // Ask for the new path first, so this process remembers it as missing.
      expect((await deliver(t.ada.cloudName, 'original', 'rename/new name.png')).status).toBe(404)
      const answer = await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/files/${file.id}`, {
        body: { name: 'new name.png' },
      })
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({
        _id: file.id,
        name: 'new name.png',
        path: 'rename',
        fullPath: 'rename/new name.png',
        version: 2,
        url: `${t.server.config.publicUrl}/v2/${t.ada.cloudName}/original/rename/new%20name.png`,
      })
      // The derived images of the old version went with the move.
      expect(await derivedKeys(file.id)).toEqual([])
      expect(await storage.get(derivedKey)).toBeUndefined()
      expect((await deliver(t.ada.cloudName, 'original', 'rename/old.png')).status).toBe(404)
      expect((await deliver(t.ada.cloudName, 't.resize(w:12)', 'rename/old.png')).status).toBe(404)
      const moved = await deliver(t.ada.cloudName, 't.resize(w:12)', 'rename/new name.png')
      expect(moved.status).toBe(200)
      expect(await widthOf(moved)).toBe(12)
    })

    it('moves a file to another folder (and to the top level) with a token', async () => {
      const file = await addFile(t.ada.orgId, 'move/from/pic.png')
      const moved = await call(
        { token: t.ada.token },
        'PATCH',
        `${API}/${t.ada.orgId}/files/${file.id}`,
        {
          body: { path: 'move/to/here' },
        },
      )
      expect(moved.status).toBe(200)
      expect(moved.body).toMatchObject({
        fullPath: 'move/to/here/pic.png',
        path: 'move/to/here',
      })
      const listed = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=move/to/here`)
      expect((listed.body as Listing<FileAnswer>).items.map((item) => item._id)).toEqual([file.id])
      // The folder it left held nothing else, so it is gone.
      expect((await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=move/from`)).status).toBe(
        404,
      )
      const both = await call(
        { token: t.ada.token },
        'PATCH',
        `${API}/${t.ada.orgId}/files/${file.id}`,
        {
          body: { path: '', name: 'top-pic.png' },
        },
      )
      expect(both.body).toMatchObject({ fullPath: 'top-pic.png', path: '' })
      expect((await deliver(t.ada.cloudName, 'original', 'top-pic.png')).status).toBe(200)
      expect((await deliver(t.ada.cloudName, 'original', 'move/to/here/pic.png')).status).toBe(404)
      const same = await call(
        { token: t.ada.token },
        'PATCH',
        `${API}/${t.ada.orgId}/files/${file.id}`,
        {
          body: { name: 'top-pic.png' },
        },
      )
      expect(same.status).toBe(200)
    })

    it('refuses a rename onto an existing file or folder with 409 and changes nothing', async () => {
      const file = await addFile(t.ada.orgId, 'clash/a.png')
      await addFile(t.ada.orgId, 'clash/b.png')
      await addFile(t.ada.orgId, 'clash/dir/c.png')
      const before = await holdings(t.ada.orgId)
      for (const body of [
        { name: 'b.png' },
        { name: 'dir' },
        { path: 'clash', name: 'b.png' },
        { path: '', name: 'clash' },
      ]) {
        const answer = await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/files/${file.id}`, {
          body,
        })
        expect(answer.status, JSON.stringify(body)).toBe(409)
        expect((answer.body as ApiError).code).toBe('already_exists')
      }
      expect(await holdings(t.ada.orgId)).toEqual(before)
    })

    it('refuses bad names and paths with 400 and changes nothing', async () => {
      const file = await addFile(t.ada.orgId, 'bad/name.png')
      const before = await holdings(t.ada.orgId)
      const cases: [unknown, string][] = [
        [{ name: 'a/b.png' }, 'invalid_name'],
        [{ name: '../x.png' }, 'invalid_name'],
        [{ name: '..' }, 'invalid_path'],
        [{ name: '.' }, 'invalid_path'],
        [{ name: '' }, 'invalid_path'],
        [{ name: '   ' }, 'invalid_path'],
        [{ name: 'tab\there.png' }, 'invalid_body'],
        [{ name: 'nul\u0000.png' }, 'invalid_body'],
        [{ name: 'line\nbreak.png' }, 'invalid_body'],
        [{ name: '\ud800.png' }, 'invalid_body'],
        [{ name: 'back\\slash.png' }, 'invalid_path'],
        [{ name: 'x'.repeat(256) }, 'invalid_body'],
        [{ name: 42 }, 'invalid_body'],
        [{ name: null }, 'invalid_body'],
        [{ path: '../../etc' }, 'invalid_path'],
        [{ path: 'a/./b' }, 'invalid_path'],
        [{ path: 'a%2f..' }, 'invalid_path'],
        [{ path: ['a'] }, 'invalid_body'],
        [{}, 'invalid_body'],
        [{ name: 'ok.png', extra: true }, 'invalid_body'],
        [[], 'invalid_body'],
        ['name', 'invalid_body'],
        ...HOSTILE.map((text): [unknown, string] => [
          { name: text },
          text.includes('/') ? 'invalid_name' : 'invalid_path',
        ]),
        ...HOSTILE.map((text): [unknown, string] => [{ path: text }, 'invalid_path']),
      ]
      for (const [body, code] of cases) {
        const answer = await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/files/${file.id}`, {
          body,
        })
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect((answer.body as ApiError).code, JSON.stringify(body)).toBe(code)
      }
      expect(await holdings(t.ada.orgId)).toEqual(before)
    })

    it('deletes a file with its stored original and derived images; delivery answers 404', async () => {
      const { storage } = t.server.services.context
      const file = await addFile(t.ada.orgId, 'gone/soon.png', 32)
      expect((await deliver(t.ada.cloudName, 't.resize(w:16)', 'gone/soon.png')).status).toBe(200)
      const [derivedKey] = await derivedKeys(file.id, 1)
      if (derivedKey === undefined) throw new Error('the derived image was not indexed')
      expect(await storage.get(derivedKey)).toBeDefined()

      const answer = await call(t.ada, 'DELETE', `${API}/${t.ada.orgId}/files/${file.id}`)
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({
        _id: file.id,
        fullPath: 'gone/soon.png',
      })
      expect(await storage.get(file.storageKey)).toBeUndefined()
      expect(await storage.get(derivedKey)).toBeUndefined()
      expect(await derivedKeys(file.id)).toEqual([])
      expect((await deliver(t.ada.cloudName, 'original', 'gone/soon.png')).status).toBe(404)
      expect((await deliver(t.ada.cloudName, 't.resize(w:16)', 'gone/soon.png')).status).toBe(404)
      const again = await call(
        { token: t.ada.token },
        'DELETE',
        `${API}/${t.ada.orgId}/files/${file.id}`,
      )
      expect(again.status).toBe(404)
      expect((await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files/${file.id}`)).status).toBe(404)
    })

    it.each([
      'not-a-uuid',
      '00000000-0000-4000-8000-000000000000',
      encodeURIComponent("' OR '1'='1"),
      encodeURIComponent('1; drop table files'),
      'x'.repeat(300),
    ])('answers 404 file_not_found for the file id %s on every file call', async (id) => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'renamed.png' }],
        ['DELETE', undefined],
      ] as const) {
        const answer = await call(
          { token: t.ada.token },
          method,
          `${API}/${t.ada.orgId}/files/${id}`,
          body === undefined ? {} : { body },
        )
        expect(answer.status, method).toBe(404)
        expect((answer.body as ApiError).code, method).toBe('file_not_found')
      }
    })
  })
})
