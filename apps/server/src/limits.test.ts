// Every limit holds under concurrency (issue 19, finding 14), over real HTTP on PGlite and
// PostgreSQL: N requests sent at once from one address never pass more than the limit — failed
// logins (password checks), sign-ups, renders, visitor AI credits, visitor uploads and the
// server-wide visitor storage. Each test speaks from its own address (a trusted proxy's
// X-Forwarded-For), so the limits of one test do not reach another.
import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { LOGIN_LIMITS } from './accounts/identity.ts'
import { PUBLIC_PLAYGROUND } from './playground/paths.ts'
import { VISITOR_UPLOADS_FOLDER } from './playground/visitor-uploads.ts'
import { multipart } from './test-client.ts'
import type { TestDatabaseKind } from './test-server.ts'
import { useTestServer } from './test-suite.ts'

const USERS = '/service/panel/users/v1.0'
const SIGNUP_LIMIT = 3
const RENDER_LIMIT = 5
const AI_CREDITS = 4
const UPLOAD_LIMIT = 5
const STORAGE_BYTES = 40_000
const BOUNDARY = 'limitsBoundary19'

const statuses = (answers: readonly { status: number }[]) => {
  const counts: Record<number, number> = {}
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

describe.each<TestDatabaseKind>(['pglite', 'postgres'])(
  'limits under concurrency on %s',
  (kind) => {
    let noisyPng: Buffer
    let attacked = ''

    const suite = useTestServer(
      kind,
      {
        TRUSTED_PROXIES: '127.0.0.1,::1',
        SIGNUP_LIMIT_PER_HOUR: String(SIGNUP_LIMIT),
        RENDER_LIMIT_PER_MINUTE: String(RENDER_LIMIT),
        ANON_AI_RUNS_PER_DAY: String(AI_CREDITS),
        ANON_UPLOADS_PER_DAY: String(UPLOAD_LIMIT),
        ANON_UPLOADS_MAX_BYTES: String(STORAGE_BYTES),
      },
      // Queued AI renders stay queued: what is counted is the queueing.
      { runJobs: false },
    )

    beforeAll(async () => {
      noisyPng = await sharp({
        create: {
          width: 48,
          height: 48,
          channels: 3,
          background: '#888',
          noise: { type: 'gaussian', mean: 128, sigma: 60 },
        },
      })
        .png()
        .toBuffer()
    }, 120_000)

    const from = (address: string) => ({ 'x-forwarded-for': address })
    const visitorFiles = async () => {
      const { repo } = suite.server.services.context
      const demo = await repo.findOrganisationByCloudName('demo')
      const files = await repo.listFiles(demo?.id ?? '', { limit: 100_000 })
      return files.filter((file) => file.path.startsWith(`${VISITOR_UPLOADS_FOLDER}/`))
    }
    const upload = (address: string, data: Buffer) =>
      fetch(`${suite.server.url}${PUBLIC_PLAYGROUND}/uploads`, {
        method: 'POST',
        headers: {
          ...from(address),
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
        body: multipart(BOUNDARY, [{ name: 'file', fileName: 'noise.png', data }]),
      }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { code?: string },
      }))
    const signAi = async (path: string) => {
      const answer = await suite.call('POST', `${PUBLIC_PLAYGROUND}/sign`, { body: { url: path } })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      return (answer.body as { url: string }).url
    }

    it('runs at most the limit of password checks for 40 wrong passwords sent at once', async () => {
      const { email } = await suite.client.signup()
      attacked = email
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          suite.call('POST', `${USERS}/auth/login`, {
            body: { email, password: `wrong password ${i}` },
            headers: from('203.0.113.10'),
          }),
        ),
      )
      // Each 401 is one password checked; every other attempt is refused before the check.
      expect(statuses(answers)).toEqual({
        401: LOGIN_LIMITS.perAccountAndAddress,
        429: 40 - LOGIN_LIMITS.perAccountAndAddress,
      })
      const refused = answers.find((answer) => answer.status === 429)
      expect(refused?.body).toMatchObject({ code: 'too_many_attempts' })
      expect(Number(refused?.response.headers.get('retry-after'))).toBeGreaterThan(0)
    })

    it('gives a sign-in back: a right password does not use up the attempts', async () => {
      const { email } = await suite.client.signup()
      const login = (password: string) =>
        suite.call('POST', `${USERS}/auth/login`, {
          body: { email, password },
          headers: from('203.0.113.11'),
        })
      for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress + 2; i++) {
        expect((await login('correct horse battery')).status).toBe(200)
      }
      expect((await login('wrong')).status).toBe(401)
    })

    it('creates at most the hour’s sign-ups for 20 sent at once from one address', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          suite.call('POST', `${USERS}/auth/signup`, {
            body: {
              email: `burst.${kind}.${i}@example.com`,
              password: 'correct horse battery',
              firstName: 'Burst',
              lastName: 'Signup',
            },
            headers: from('203.0.113.20'),
          }),
        ),
      )
      expect(statuses(answers)).toEqual({ 201: SIGNUP_LIMIT, 429: 20 - SIGNUP_LIMIT })
      const db = suite.server.services.context.database.db
      const made = await db.execute(
        sql`select count(*)::int as made from users where email like ${`burst.${kind}.%`}`,
      )
      expect((made as unknown as { rows: { made: number }[] }).rows[0]?.made).toBe(SIGNUP_LIMIT)
    })

    it('gives a refused sign-up back: a taken email does not use up the hour', async () => {
      const { email } = await suite.client.signup()
      for (let i = 0; i < SIGNUP_LIMIT + 2; i++) {
        const answer = await suite.call('POST', `${USERS}/auth/signup`, {
          body: { email, password: 'correct horse battery', firstName: 'A', lastName: 'B' },
          headers: from('203.0.113.21'),
        })
        expect(answer.status).toBe(409)
      }
    })

    it('renders at most the minute’s limit for 30 new transformations sent at once', async () => {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          fetch(`${suite.server.url}/v2/demo/t.resize(w:${20 + i})/samples/horse.png`, {
            headers: from('203.0.113.30'),
          }).then(async (response) => {
            await response.arrayBuffer()
            return response
          }),
        ),
      )
      expect(statuses(answers)).toEqual({ 200: RENDER_LIMIT, 429: 30 - RENDER_LIMIT })
    })

    it('counts every address of one IPv6 /64 as one client', async () => {
      const renders = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          fetch(`${suite.server.url}/v2/demo/t.resize(w:${80 + i})/samples/horse.png`, {
            headers: from(`2001:db8:19:64::${i + 1}`),
          }).then(async (response) => {
            await response.arrayBuffer()
            return response
          }),
        ),
      )
      expect(statuses(renders)).toEqual({ 200: RENDER_LIMIT, 429: 12 - RENDER_LIMIT })
      // The account of the first test: its failures so far came from another address.
      const email = attacked
      const logins = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          suite.call('POST', `${USERS}/auth/login`, {
            body: { email, password: `wrong password ${i}` },
            headers: from(`2001:db8:19:65:${i + 1}::1`),
          }),
        ),
      )
      expect(statuses(logins)[401]).toBe(LOGIN_LIMITS.perAccountAndAddress)
    })

    it('queues at most the day’s AI credits for 12 new AI renders sent at once', async () => {
      const urls = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          signAi(`/v2/demo/ic.crop(w:${60 + i},h:60)/samples/horse.png`),
        ),
      )
      const answers = await Promise.all(
        urls.map((url) =>
          fetch(`${suite.server.url}${url}`, { headers: from('203.0.113.40') }).then(
            async (response) => {
              await response.arrayBuffer()
              return response
            },
          ),
        ),
      )
      expect(statuses(answers)).toEqual({ 202: AI_CREDITS, 429: 12 - AI_CREDITS })
    })

    it('stores at most the day’s uploads for 64 sent at once from one address', async () => {
      const before = (await visitorFiles()).length
      const answers = await Promise.all(
        Array.from({ length: 64 }, () => upload('203.0.113.50', noisyPng)),
      )
      expect(statuses(answers)).toEqual({ 201: UPLOAD_LIMIT, 429: 64 - UPLOAD_LIMIT })
      expect((await visitorFiles()).length - before).toBe(UPLOAD_LIMIT)
    })

    it('keeps all visitors’ uploads within ANON_UPLOADS_MAX_BYTES, answering 507 past it', async () => {
      // A fresh start: the uploads above (and their bytes) are forgotten.
      await suite.server.services.context.database.db.execute(
        sql`delete from rate_limit_events where key like 'playground:%'`,
      )
      const before = new Set((await visitorFiles()).map((file) => file.id))
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) => upload(`198.51.100.${i + 1}`, noisyPng)),
      )
      const stored = answers.filter((answer) => answer.status === 201).length
      expect(stored).toBeGreaterThan(0)
      expect(stored * noisyPng.length).toBeLessThanOrEqual(STORAGE_BYTES)
      expect(statuses(answers)[507]).toBe(24 - stored)
      expect(answers.find((answer) => answer.status === 507)?.body).toMatchObject({
        code: 'visitor_storage_full',
      })
      const added = (await visitorFiles()).filter((file) => !before.has(file.id))
      expect(added).toHaveLength(stored)
      expect(added.reduce((sum, file) => sum + file.size, 0)).toBeLessThanOrEqual(STORAGE_BYTES)
    })
  },
)
