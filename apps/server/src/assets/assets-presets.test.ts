// Presets through the real server, on PGlite and PostgreSQL: delivery uses a change at once.
import { parsePattern } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import {
  API,
  type ApiError,
  describeAssetsApi,
  type Listing,
  type PresetAnswer,
  widthOf,
} from './assets-api-suite.ts'

describeAssetsApi({ least: 20 }, (t) => {
  const { call, addFile, deliver } = t

  describe('presets', () => {
    it('creates, reads, lists (archived shown, paged), changes and deletes a preset', async () => {
      const made = await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
        body: {
          presetName: 'card_v2-x',
          transformation: ' t.resize(w:$w,h:$h)~t.flip() ',
          params: {
            w: { type: 'integer', default: 40 },
            h: { type: 'integer', default: 30 },
          },
        },
      })
      expect(made.status).toBe(201)
      expect(made.body).toMatchObject({
        presetName: 'card_v2-x',
        transformation: 't.resize(w:$w,h:$h)~t.flip()',
        params: { w: { type: 'integer', default: 40 } },
        archived: false,
      })
      const read = await call(
        { token: t.ada.token },
        'GET',
        `${API}/${t.ada.orgId}/presets/card_v2-x`,
      )
      expect(read.body).toEqual(made.body)

      for (const name of ['p1', 'p2', 'p3', 'p4']) {
        const answer = await call({ token: t.ada.token }, 'POST', `${API}/${t.ada.orgId}/presets`, {
          body: { presetName: name, transformation: 't.flip()' },
        })
        expect(answer.status).toBe(201)
      }
      const names: string[] = []
      for (let pageNo = 1; ; pageNo++) {
        const answer = await call(
          t.ada,
          'GET',
          `${API}/${t.ada.orgId}/presets?pageSize=2&pageNo=${pageNo}`,
        )
        const { items, page } = answer.body as Listing<PresetAnswer>
        names.push(...items.map((item) => item.presetName))
        expect(items.every((item) => typeof item.archived === 'boolean')).toBe(true)
        if (!page.hasNext) break
      }
      expect(names).toEqual(['card_v2-x', 'p1', 'p2', 'p3', 'p4'])

      const changed = await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/presets/p1`, {
        body: { transformation: 't.grey()' },
      })
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({
        presetName: 'p1',
        transformation: 't.grey()',
        archived: false,
      })

      const deleted = await call(t.ada, 'DELETE', `${API}/${t.ada.orgId}/presets/p4`)
      expect(deleted.status).toBe(200)
      expect(deleted.body).toMatchObject({ presetName: 'p4' })
      expect((await call(t.ada, 'GET', `${API}/${t.ada.orgId}/presets/p4`)).status).toBe(404)
      expect(
        (await call({ token: t.ada.token }, 'DELETE', `${API}/${t.ada.orgId}/presets/p4`)).status,
      ).toBe(404)
    })

    it('archives a preset: listed as archived, left out of the usable list, refused by delivery; restores it', async () => {
      await addFile(t.ada.orgId, 'presets/photo.png', 50)
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
        body: { presetName: 'small', transformation: 't.resize(w:10)' },
      })
      expect((await deliver(t.ada.cloudName, 'p:small', 'presets/photo.png')).status).toBe(200)

      const archived = await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/presets/small`, {
        body: { archived: true },
      })
      expect(archived.status).toBe(200)
      expect(archived.body).toMatchObject({
        presetName: 'small',
        archived: true,
      })
      const refused = await deliver(t.ada.cloudName, 'p:small', 'presets/photo.png')
      expect(refused.status).toBe(400)
      expect(((await refused.json()) as ApiError).message).toBe('Preset small is archived')

      const all = (await call(t.ada, 'GET', `${API}/${t.ada.orgId}/presets?pageSize=100`))
        .body as Listing<PresetAnswer>
      expect(all.items.find((item) => item.presetName === 'small')?.archived).toBe(true)
      const usable = (
        await call(t.ada, 'GET', `${API}/${t.ada.orgId}/presets?archived=false&pageSize=100`)
      ).body as Listing<PresetAnswer>
      expect(usable.items.map((item) => item.presetName)).not.toContain('small')
      expect(usable.items.every((item) => !item.archived)).toBe(true)
      const only = (await call(t.ada, 'GET', `${API}/${t.ada.orgId}/presets?archived=true`))
        .body as Listing<PresetAnswer>
      expect(only.items.map((item) => item.presetName)).toEqual(['small'])

      const restored = await call(
        { token: t.ada.token },
        'PATCH',
        `${API}/${t.ada.orgId}/presets/small`,
        { body: { archived: false } },
      )
      expect(restored.body).toMatchObject({ archived: false })
      const served = await deliver(t.ada.cloudName, 'p:small', 'presets/photo.png')
      expect(served.status).toBe(200)
      expect(await widthOf(served)).toBe(10)
    })

    it('is used by delivery at once after a change, with its variables', async () => {
      await addFile(t.ada.orgId, 'presets/var.png', 50)
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
        body: {
          presetName: 'sized',
          transformation: 't.resize(w:$w)',
          params: { w: { type: 'integer', default: 20 } },
        },
      })
      expect(await widthOf(await deliver(t.ada.cloudName, 'p:sized', 'presets/var.png'))).toBe(20)
      expect(
        await widthOf(await deliver(t.ada.cloudName, 'p:sized(w:15)', 'presets/var.png')),
      ).toBe(15)
      await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/presets/sized`, {
        body: { params: { w: { type: 'integer', default: 25 } } },
      })
      expect(await widthOf(await deliver(t.ada.cloudName, 'p:sized', 'presets/var.png'))).toBe(25)
      await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/presets/sized`, {
        body: {
          transformation: 't.resize(w:$w)~t.flip()',
          params: { w: { type: 'integer', default: 30 } },
        },
      })
      const rotated = await deliver(t.ada.cloudName, 'p:sized', 'presets/var.png')
      expect(rotated.status).toBe(200)
      expect(await widthOf(rotated)).toBe(30)
      await call(t.ada, 'DELETE', `${API}/${t.ada.orgId}/presets/sized`)
      const gone = await deliver(t.ada.cloudName, 'p:sized', 'presets/var.png')
      expect(gone.status).toBe(400)
      expect(((await gone.json()) as ApiError).message).toBe('Invalid preset: sized')
    })

    it.each([
      ['t.resize(w:abc)', {}],
      ['t.nosuch()', {}],
      ['zz.resize(w:10)', {}],
      ['t.resize(w:10', {}],
      ['t.resize(w:10)~~t.flip()', {}],
      ["' OR '1'='1", {}],
      ['t.blur(s:abc)', {}],
    ])(
      'refuses the transformation %s with 400 and the URL package’s message',
      async (transformation, params) => {
        const answer = await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
          body: { presetName: 'broken', transformation, params },
        })
        expect(answer.status).toBe(400)
        expect((answer.body as ApiError).code).toBe('invalid_transformation')
        const issue = parsePattern(transformation).issues[0]
        expect(issue).toBeDefined()
        expect((answer.body as ApiError).message).toContain(issue?.message)
      },
    )
  })
})
