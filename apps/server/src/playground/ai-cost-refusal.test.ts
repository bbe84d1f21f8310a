// AI work that cannot finish within AI_TIMEOUT_MS is refused before anything is signed or queued
// (issue 19 finding 4), over real HTTP on PGlite and PostgreSQL: the visitor signer does not sign
// such a chain, and a prediction on such a file is refused with no job and no credit spent. The
// time limit is set low (2 s) so that an upscale of the 512² demo astronaut is out of reach by
// the cost estimate (packages/ai/src/cost.ts) while a 64² one is not; no model runs here.
import { readFile } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { storeTestFile, type TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { PUBLIC_PLAYGROUND } from './paths.ts'

const PREDICTIONS = '/service/panel/transformation/v1.0/org'
const SAMPLE = new URL('../../demo/samples/astronaut.png', import.meta.url)

describe.each<TestDatabaseKind>(['pglite', 'postgres'])(
  'AI work that cannot finish in time on %s',
  (kind) => {
    const suite = useTestServer(kind, { AI_TIMEOUT_MS: '2000' }, { runJobs: false })

    const sign = (url: string) => suite.call('POST', `${PUBLIC_PLAYGROUND}/sign`, { body: { url } })

    it('is not signed for a visitor: 422 image_too_large, saying what would fit', async () => {
      const refused = await sign('/v2/demo/sr.upscale(t:2x)/samples/astronaut.png')
      expect(refused.status, JSON.stringify(refused.body)).toBe(422)
      const body = refused.body as { code: string; message: string; url?: string }
      expect(body.code).toBe('image_too_large')
      expect(body.message).toMatch(/sr\.upscale/)
      expect(body.url).toBeUndefined()
      // The steps before the AI one decide its input: a small enough one is signed.
      const signed = await sign(
        '/v2/demo/t.resize(w:64,h:64)~sr.upscale(t:2x)/samples/astronaut.png',
      )
      expect(signed.status, JSON.stringify(signed.body)).toBe(200)
      expect((signed.body as { url: string }).url).toMatch(/[?&]/)
    })

    it('is not queued as a prediction, and costs nothing', async () => {
      const owner = await suite.client.signup()
      const organisationId = owner.organisation._id
      await storeTestFile(suite.server, organisationId, 'big.png', await readFile(SAMPLE))
      const { repo } = suite.server.services.context
      const before = (await repo.findOrganisationById(organisationId))?.credits
      const refused = await suite.call(
        'POST',
        `${PREDICTIONS}/${organisationId}/predictions/sr_upscale`,
        { cookie: owner.cookie, body: { image: 'big.png' } },
      )
      expect(refused.status, JSON.stringify(refused.body)).toBe(422)
      expect(refused.body).toMatchObject({ code: 'image_too_large' })
      expect((await repo.findOrganisationById(organisationId))?.credits).toBe(before)
      const { rows } = (await suite.server.services.context.database.db.execute(
        sql`select count(*)::int as n from jobs where organisation_id = ${organisationId}`,
      )) as unknown as { rows: { n: number }[] }
      expect(rows[0]?.n).toBe(0)
      // A prediction that fits is still queued.
      const crop = await suite.call(
        'POST',
        `${PREDICTIONS}/${organisationId}/predictions/ic_crop`,
        {
          cookie: owner.cookie,
          body: { image: 'big.png', requiredWidth: 64, requiredHeight: 48, gravityTowards: 'face' },
        },
      )
      expect(crop.status, JSON.stringify(crop.body)).toBe(202)
    })
  },
)
