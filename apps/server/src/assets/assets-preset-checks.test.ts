// Presets through the real server, on PGlite and PostgreSQL: presets delivery could not use,
// bad names, bodies and params, and duplicates, refused with the reason.
import { describe, expect, it } from 'vitest'
import { API, type ApiError, describeAssetsApi, HOSTILE } from './assets-api-suite.ts'

describeAssetsApi({ least: 70 }, (t) => {
  const { call, holdings } = t

  describe('presets', () => {
    it('refuses presets delivery could not use, naming why', async () => {
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
        body: {
          presetName: 'retired',
          transformation: 't.flip()',
          archived: true,
        },
      })
      const cases: [Record<string, unknown>, string][] = [
        [{ transformation: 'original' }, 'A preset needs at least one operation'],
        [{ transformation: 't.resize(w:$w)' }, 'Variable object not defined for the variable $w'],
        [
          {
            transformation: 't.resize(w:$w)',
            params: { w: { type: 'integer', default: 'wide' } },
          },
          "Value for 'w' in 'loop' must be a type of integer",
        ],
        [{ transformation: 'p:nothere' }, 'Invalid preset: nothere'],
        [{ transformation: 'p:retired' }, 'Preset retired is archived'],
        [{ transformation: 'p:loop' }, 'Preset loop nests presets too deeply or in a cycle'],
        [
          {
            transformation: Array.from({ length: 16 }, () => 't.flip()').join('~'),
          },
          'Cannot add more than 15 transformations.',
        ],
      ]
      for (const [body, message] of cases) {
        const answer = await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
          body: { presetName: 'loop', ...body },
        })
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect(answer.body, JSON.stringify(body)).toEqual({
          code: 'invalid_transformation',
          message,
        })
      }
      // A cycle through another preset is found when the change would close it.
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
        body: { presetName: 'ring-a', transformation: 't.flip()' },
      })
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
        body: { presetName: 'ring-b', transformation: 'p:ring-a~t.grey()' },
      })
      const cycle = await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/presets/ring-a`, {
        body: { transformation: 'p:ring-b' },
      })
      expect(cycle.status).toBe(400)
      expect((cycle.body as ApiError).message).toMatch(/nests presets too deeply or in a cycle/)
      expect((await call(t.ada, 'GET', `${API}/${t.ada.orgId}/presets/ring-a`)).body).toMatchObject(
        {
          transformation: 't.flip()',
        },
      )
      expect((await call(t.ada, 'GET', `${API}/${t.ada.orgId}/presets/loop`)).status).toBe(404)
    })

    it('refuses bad preset names, bodies and params with 400, and a duplicate with 409', async () => {
      await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, {
        body: { presetName: 'unique', transformation: 't.flip()' },
      })
      const before = await holdings(t.ada.orgId)
      const cases: [unknown, number, string][] = [
        [{ presetName: 'unique', transformation: 't.grey()' }, 409, 'already_exists'],
        [{ presetName: 'has space', transformation: 't.flip()' }, 400, 'invalid_body'],
        [{ presetName: 'a/b', transformation: 't.flip()' }, 400, 'invalid_body'],
        [{ presetName: '../x', transformation: 't.flip()' }, 400, 'invalid_body'],
        [{ presetName: 'tab\tname', transformation: 't.flip()' }, 400, 'invalid_body'],
        [{ presetName: 'é', transformation: 't.flip()' }, 400, 'invalid_body'],
        [{ presetName: 'x(y)', transformation: 't.flip()' }, 400, 'invalid_body'],
        [{ presetName: '', transformation: 't.flip()' }, 400, 'invalid_body'],
        [{ presetName: 'x'.repeat(65), transformation: 't.flip()' }, 400, 'invalid_body'],
        [{ presetName: 7, transformation: 't.flip()' }, 400, 'invalid_body'],
        [{ presetName: 'ok' }, 400, 'invalid_body'],
        [{ presetName: 'ok', transformation: '' }, 400, 'invalid_body'],
        [{ presetName: 'ok', transformation: '   ' }, 400, 'invalid_body'],
        [{ presetName: 'ok', transformation: 't.flip()\u0000' }, 400, 'invalid_body'],
        [{ presetName: 'ok', transformation: 't.flip()'.repeat(600) }, 400, 'invalid_body'],
        [{ presetName: 'ok', transformation: 't.flip()', params: [] }, 400, 'invalid_body'],
        [
          {
            presetName: 'ok',
            transformation: 't.flip()',
            params: { w: { type: 'wide' } },
          },
          400,
          'invalid_body',
        ],
        [
          {
            presetName: 'ok',
            transformation: 't.flip()',
            params: { w: { type: 'integer', default: {} } },
          },
          400,
          'invalid_body',
        ],
        [
          {
            presetName: 'ok',
            transformation: 't.flip()',
            params: { w: { type: 'string', default: 'a\u0000' } },
          },
          400,
          'invalid_body',
        ],
        [
          {
            presetName: 'ok',
            transformation: 't.flip()',
            params: { 'w;drop': { type: 'integer' } },
          },
          400,
          'invalid_body',
        ],
        [
          {
            presetName: 'ok',
            transformation: 't.flip()',
            params: { w: { type: 'integer', sql: "' OR 1" } },
          },
          400,
          'invalid_body',
        ],
        [
          {
            presetName: 'ok',
            transformation: 't.flip()',
            params: Object.fromEntries(
              Array.from({ length: 21 }, (_, i) => [`v${i}`, { type: 'integer' }]),
            ),
          },
          400,
          'invalid_body',
        ],
        [{ presetName: 'ok', transformation: 't.flip()', archived: 'yes' }, 400, 'invalid_body'],
        [{ presetName: 'ok', transformation: 't.flip()', owner: 'me' }, 400, 'invalid_body'],
        // `_` alone is a valid name (letters, digits, _ and -).
        ...HOSTILE.filter((text) => text !== '_').map((text): [unknown, number, string] => [
          { presetName: text, transformation: 't.flip()' },
          400,
          'invalid_body',
        ]),
        ...HOSTILE.map((text): [unknown, number, string] => [
          { presetName: 'ok', transformation: text },
          400,
          'invalid_transformation',
        ]),
        ...HOSTILE.map((text): [unknown, number, string] => [
          {
            presetName: 'ok',
            transformation: 't.flip()',
            params: { w: { type: text } },
          },
          400,
          'invalid_body',
        ]),
      ]
      for (const [body, status, code] of cases) {
        const answer = await call(t.ada, 'POST', `${API}/${t.ada.orgId}/presets`, { body })
        expect(answer.status, JSON.stringify(body)).toBe(status)
        expect((answer.body as ApiError).code, JSON.stringify(body)).toBe(code)
      }
      for (const body of [
        {},
        { archived: 'no' },
        { transformation: 't.nosuch()' },
        { presetName: 'renamed' },
        { params: { w: 3 } },
      ]) {
        const answer = await call(t.ada, 'PATCH', `${API}/${t.ada.orgId}/presets/unique`, {
          body,
        })
        expect(answer.status, JSON.stringify(body)).toBe(400)
      }
      expect(await holdings(t.ada.orgId)).toEqual(before)
    })

    it.each([
      'nothere',
      'a b',
      encodeURIComponent("' OR '1'='1"),
      encodeURIComponent('x;drop'),
      'x'.repeat(200),
    ])('answers 404 preset_not_found for the preset name %s on every preset call', async (name) => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { archived: true }],
        ['DELETE', undefined],
      ] as const) {
        const answer = await call(
          { token: t.ada.token },
          method,
          `${API}/${t.ada.orgId}/presets/${name}`,
          body === undefined ? {} : { body },
        )
        expect(answer.status, method).toBe(404)
        expect((answer.body as ApiError).code, method).toBe('preset_not_found')
      }
    })

    it.each(['archived=maybe', 'pageNo=0', 'pageSize=500', 'pageNo=2&pageNo=3'])(
      'refuses the preset listing query %s with 400',
      async (query) => {
        const answer = await call(t.ada, 'GET', `${API}/${t.ada.orgId}/presets?${query}`)
        expect(answer.status).toBe(400)
        expect((answer.body as ApiError).code).toBe('invalid_query')
      },
    )
  })
})
