// Files, folders and presets against another organisation's callers (404, nothing changed) and
// hostile bodies, on PGlite and PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest'
import {
  API,
  type ApiError,
  describeAssetsApi,
  type FileAnswer,
  type Listing,
  type PresetAnswer,
} from './assets-api-suite.ts'

describeAssetsApi({ least: 130 }, (t) => {
  const { call, addFile, holdings, deliver } = t
  // The listing folder the last check reads (the listing tests, in their own file, make theirs).
  beforeAll(async () => {
    await addFile(t.ada.orgId, 'listing/kept.png')
  })

  describe('access', () => {
    /** One call of every route, each aimed at Ada's organisation and things in it. */
    async function everyRoute(orgId: string, fileId: string) {
      return [
        ['GET', `${API}/${orgId}/files`, undefined],
        ['GET', `${API}/${orgId}/files?path=access`, undefined],
        ['GET', `${API}/${orgId}/files/${fileId}`, undefined],
        ['PATCH', `${API}/${orgId}/files/${fileId}`, { name: 'stolen.png' }],
        ['DELETE', `${API}/${orgId}/files/${fileId}`, undefined],
        ['POST', `${API}/${orgId}/folders`, { name: 'intruder' }],
        ['PATCH', `${API}/${orgId}/folders?path=access`, { name: 'moved' }],
        ['DELETE', `${API}/${orgId}/folders?path=access&recursive=true`, undefined],
        ['POST', `${API}/${orgId}/presets`, { presetName: 'intruder', transformation: 't.flip()' }],
        ['GET', `${API}/${orgId}/presets`, undefined],
        ['GET', `${API}/${orgId}/presets/guarded`, undefined],
        ['PATCH', `${API}/${orgId}/presets/guarded`, { archived: true }],
        ['DELETE', `${API}/${orgId}/presets/guarded`, undefined],
      ] as const
    }

    let fileId: string
    beforeAll(async () => {
      fileId = (await addFile(t.ada.orgId, 'access/secret.png')).id
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
        body: { presetName: 'guarded', transformation: 't.flip()' },
      })
    })

    it('answers 401 without credentials and with an unknown token', async () => {
      const before = await holdings(t.ada.orgId)
      for (const [method, path, body] of await everyRoute(t.ada.orgId, fileId)) {
        const anonymous = await call(undefined, method, path, body === undefined ? {} : { body })
        expect(anonymous.status, `${method} ${path}`).toBe(401)
        expect((anonymous.body as ApiError).code).toBe('unauthenticated')
        const forged = await call(
          { token: `tsk_${'A'.repeat(43)}` },
          method,
          path,
          body === undefined ? {} : { body },
        )
        expect(forged.status, `${method} ${path}`).toBe(401)
        expect((forged.body as ApiError).code).toBe('invalid_token')
      }
      expect(await holdings(t.ada.orgId)).toEqual(before)
    })

    it("gives another organisation's member and token 404 on every route and changes nothing", async () => {
      const before = await holdings(t.ada.orgId)
      for (const who of [{ cookie: t.bob.cookie }, { token: t.bob.token }]) {
        for (const [method, path, body] of await everyRoute(t.ada.orgId, fileId)) {
          const answer = await call(who, method, path, body === undefined ? {} : { body })
          expect(answer.status, `${method} ${path}`).toBe(404)
          expect((answer.body as ApiError).code, `${method} ${path}`).toBe('organisation_not_found')
        }
      }
      expect(await holdings(t.ada.orgId)).toEqual(before)
      expect((await deliver(t.ada.cloudName, 'original', 'access/secret.png')).status).toBe(200)
    })

    it("gives 404 for another organisation's file ids and preset names used in one's own", async () => {
      const before = await holdings(t.ada.orgId)
      for (const who of [{ cookie: t.bob.cookie }, { token: t.bob.token }]) {
        for (const [method, path, body] of await everyRoute(t.bob.orgId, fileId)) {
          if (method === 'POST' || path.endsWith('/files') || path.endsWith('/presets')) continue
          const answer = await call(who, method, path, body === undefined ? {} : { body })
          expect(answer.status, `${method} ${path}`).toBe(404)
          expect(['file_not_found', 'folder_not_found', 'preset_not_found']).toContain(
            (answer.body as ApiError).code,
          )
        }
      }
      // Bob's own listing shows nothing of Ada's.
      const listing = await call(t.bob, 'GET', `${API}/${t.bob.orgId}/files`)
      expect((listing.body as Listing<FileAnswer>).items).toEqual([])
      const presets = await call(t.bob, 'GET', `${API}/${t.bob.orgId}/presets`)
      expect((presets.body as Listing<PresetAnswer>).items).toEqual([])
      // A preset of the same name in Bob's organisation is his own, not Ada's.
      const own = await call(t.bob, 'POST', `${API}/${t.bob.orgId}/presets`, {
        body: { presetName: 'guarded', transformation: 't.grey()' },
      })
      expect(own.status).toBe(201)
      expect(
        (await call(t.ada, 'GET', `${API}/${t.ada.orgId}/presets/guarded`)).body,
      ).toMatchObject({
        transformation: 't.flip()',
      })
      expect(await holdings(t.ada.orgId)).toEqual(before)
    })

    it('answers 404 organisation_not_found for organisation ids that are not ids', async () => {
      for (const orgId of [
        'nope',
        encodeURIComponent("' OR '1'='1"),
        '00000000-0000-4000-8000-000000000000',
      ]) {
        for (const who of [{ cookie: t.ada.cookie }, { token: t.ada.token }]) {
          const answer = await call(who, 'GET', `${API}/${orgId}/files`)
          expect(answer.status, orgId).toBe(404)
          expect((answer.body as ApiError).code).toBe('organisation_not_found')
        }
      }
    })

    it('lets a member with a session and an API token make every call', async () => {
      for (const who of [{ cookie: t.ada.cookie }, { token: t.ada.token }]) {
        const file = await addFile(t.ada.orgId, `every/${'cookie' in who ? 'c' : 't'}/f.png`)
        const prefix = `${API}/${t.ada.orgId}`
        const name = 'cookie' in who ? 'by-cookie' : 'by-token'
        const steps: [string, string, unknown, number][] = [
          ['GET', `${prefix}/files?path=every`, undefined, 200],
          ['GET', `${prefix}/files/${file.id}`, undefined, 200],
          ['PATCH', `${prefix}/files/${file.id}`, { name: 'g.png' }, 200],
          ['POST', `${prefix}/folders`, { name, path: 'every' }, 201],
          ['PATCH', `${prefix}/folders?path=every/${name}`, { name: `${name}-2` }, 200],
          ['DELETE', `${prefix}/folders?path=every/${name}-2`, undefined, 200],
          ['POST', `${prefix}/presets`, { presetName: name, transformation: 't.flip()' }, 201],
          ['GET', `${prefix}/presets`, undefined, 200],
          ['GET', `${prefix}/presets/${name}`, undefined, 200],
          ['PATCH', `${prefix}/presets/${name}`, { archived: true }, 200],
          ['DELETE', `${prefix}/presets/${name}`, undefined, 200],
          ['DELETE', `${prefix}/files/${file.id}`, undefined, 200],
        ]
        for (const [method, path, body, status] of steps) {
          const answer = await call(who, method, path, body === undefined ? {} : { body })
          expect(answer.status, `${name} ${method} ${path} ${JSON.stringify(answer.body)}`).toBe(
            status,
          )
        }
      }
    })
  })

  describe('bad bodies', () => {
    const routes = () => [
      ['PATCH', `${API}/${t.ada.orgId}/files/00000000-0000-4000-8000-000000000000`],
      ['POST', `${API}/${t.ada.orgId}/folders`],
      ['PATCH', `${API}/${t.ada.orgId}/folders?path=listing`],
      ['POST', `${API}/${t.ada.orgId}/presets`],
      ['PATCH', `${API}/${t.ada.orgId}/presets/guarded`],
    ]

    it('refuses malformed JSON, another media type and bodies over 64 KB on every body route', async () => {
      const before = await holdings(t.ada.orgId)
      for (const [method, path] of routes()) {
        for (const who of [{ cookie: t.ada.cookie }, { token: t.ada.token }]) {
          const label = `${method} ${path} ${'cookie' in who ? 'cookie' : 'token'}`
          const malformed = await call(who, method as string, path as string, {
            raw: '{"name": ',
          })
          expect(malformed.status, label).toBe(400)
          expect((malformed.body as ApiError).code, label).toBe('invalid_json')
          const form = await call(who, method as string, path as string, {
            raw: 'name=x',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          })
          expect(form.status, label).toBe(415)
          const huge = await call(who, method as string, path as string, {
            body: { name: 'x'.repeat(70_000) },
          })
          expect(huge.status, label).toBe(413)
          expect((huge.body as ApiError).code, label).toBe('too_large')
          const scalar = await call(who, method as string, path as string, {
            raw: '"just text"',
          })
          expect(scalar.status, label).toBe(400)
          expect((scalar.body as ApiError).code, label).toBe('invalid_body')
        }
      }
      expect(await holdings(t.ada.orgId)).toEqual(before)
    })

    it('keeps serving after all of it', async () => {
      expect((await fetch(`${t.server.url}/healthz`)).status).toBe(200)
      expect((await call(t.ada, 'GET', `${API}/${t.ada.orgId}/files?path=listing`)).status).toBe(
        200,
      )
    })
  })
})
