// The visitor AI allowance counts what the demo pays (issue 19, findings 6, 7, 8), over real HTTP
// on PGlite and PostgreSQL, with jobs left queued (the queueing is what counts): a chain of AI
// steps takes its credits, not one run; a render whose result left the cache counts and is
// charged again; `dpr=auto` on a signed AI URL renders a few DPR steps, not one per hint.
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { PUBLIC_PLAYGROUND } from './paths.ts'

const CREDITS = 3

describe.each<TestDatabaseKind>(['pglite', 'postgres'])(
  'the visitor AI allowance on %s',
  (kind) => {
    const suite = useTestServer(kind, { ANON_AI_RUNS_PER_DAY: String(CREDITS) }, { runJobs: false })

    const fresh = async () => {
      await suite.server.services.context.database.db.execute(
        sql`delete from rate_limit_events where key like 'playground:%'`,
      )
    }
    const sign = async (path: string) => {
      const answer = await suite.call('POST', `${PUBLIC_PLAYGROUND}/sign`, { body: { url: path } })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      return answer.body as { url: string; remaining: { aiRuns: number } }
    }
    const left = async () => (await sign('/v2/demo/t.flip()/samples/horse.png')).remaining.aiRuns
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${suite.server.url}${url}`, { headers })
      await response.arrayBuffer()
      return response.status
    }
    const demoBalance = async () => {
      const { repo } = suite.server.services.context
      const demo = await repo.findOrganisationByCloudName('demo')
      return repo.sumCreditLedger(demo?.id ?? '')
    }

    it('takes a chain’s credits: two AI steps cost two of the day’s three', async () => {
      await fresh()
      const balance = await demoBalance()
      const two = await sign('/v2/demo/ic.crop(w:50,h:50)~erase.bg()/samples/horse.png')
      expect(await get(two.url)).toBe(202)
      expect(await left()).toBe(CREDITS - 2)
      expect(await demoBalance()).toBe(balance - 2)
      const another = await sign('/v2/demo/ic.crop(w:51,h:50)~erase.bg()/samples/horse.png')
      expect(await get(another.url)).toBe(429)
      // Nothing was charged for the refused one; a one-step chain still fits.
      expect(await demoBalance()).toBe(balance - 2)
      const one = await sign('/v2/demo/ic.crop(w:52,h:50)/samples/horse.png')
      expect(await get(one.url)).toBe(202)
      expect(await left()).toBe(0)
    })

    it('counts and charges a render again once its result has left the cache', async () => {
      await fresh()
      const { url } = await sign('/v2/demo/ic.crop(w:60,h:60)/samples/horse.png')
      expect(await get(url)).toBe(202)
      // Polling the queued render is not a new one.
      expect(await get(url)).toBe(202)
      expect(await left()).toBe(CREDITS - 1)
      const balance = await demoBalance()
      // The render finished and its image was evicted since: the job is done, no image is kept.
      await suite.server.services.context.database.db.execute(
        sql`update jobs set status = 'done', updated_at = now() where status = 'queued'`,
      )
      expect(await get(url)).toBe(202)
      expect(await left()).toBe(CREDITS - 2)
      expect(await demoBalance()).toBe(balance - 1)
    })

    it('renders a signed dpr=auto AI URL at a few DPR steps, each counted', async () => {
      await fresh()
      const { url } = await sign('/v2/demo/ic.crop(w:70,h:70)/samples/horse.png?dpr=auto')
      for (const hint of ['1.1', '1.2', '1.25', '1.33', '1.4', '1.5']) {
        expect(await get(url, { 'sec-ch-dpr': hint })).toBe(202)
      }
      // One render for every hint up to 1.5.
      expect(await left()).toBe(CREDITS - 1)
      expect(await get(url, { dpr: '1.75' })).toBe(202)
      expect(await left()).toBe(CREDITS - 2)
    })
  },
)
