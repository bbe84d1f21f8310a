// `npm run test:cluster`: the cluster of `npm run cluster` (3 Tessera processes on a private
// PostgreSQL and s3rver, behind HAProxy) under the faults a real deployment meets — a process
// killed with -9 under load, PostgreSQL restarted, a process told to stop. Not part of `npm test`
// (it takes minutes); .ci/run runs it after the main suite.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../apps/server/src/config.ts'
import { createTestClient } from '../../apps/server/src/test-client.ts'
import { type Cluster, startCluster, waitFor } from './cluster.ts'

const ASSETS = '/service/panel/assets/v1.0'
const ORG = '/service/panel/organization/v1.0'

async function png(width: number, seed = 0): Promise<Buffer> {
  const colour = `#${((seed * 2_654_435_761) >>> 8).toString(16).padStart(6, '0').slice(0, 6)}`
  return sharp({ create: { width, height: 7, channels: 3, background: colour } })
    .png()
    .toBuffer()
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

interface Tally {
  total: number
  failed: number
  statuses: Map<string, number>
}

/** Runs `workers` loops of `request` until `until()` is true; counts answers and failures. */
async function load(
  workers: number,
  until: () => boolean,
  request: (n: number) => Promise<boolean | string>,
): Promise<Tally> {
  const tally: Tally = { total: 0, failed: 0, statuses: new Map() }
  let n = 0
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!until()) {
        const outcome = await request(n++).catch((error: unknown) =>
          error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        )
        tally.total++
        if (outcome !== true) {
          tally.failed++
          const key = String(outcome)
          tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1)
        }
      }
    }),
  )
  return tally
}

describe('a cluster of three processes behind HAProxy', () => {
  let cluster: Cluster
  let client: ReturnType<typeof createTestClient>
  let account: Awaited<ReturnType<ReturnType<typeof createTestClient>['signup']>>
  let token: string

  beforeAll(async () => {
    cluster = await startCluster({
      size: 3,
      env: {
        // Only the change feed may make a change show in another process.
        LOOKUP_TTL_MS: '3600000',
        // One test client on one address makes all the load; limits have their own tests.
        RENDER_LIMIT_PER_MINUTE: '0',
        SIGNUP_LIMIT_PER_HOUR: '1000000',
        LOG_LEVEL: 'warn',
      },
    })
    client = createTestClient({ url: cluster.url, config: loadConfig({}) })
    account = await client.signup()
    const answer = await client.call('POST', `${ORG}/${account.organisation._id}/tokens`, {
      cookie: account.cookie,
      body: { name: 'cluster test' },
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    token = (answer.body as { token: string }).token
  }, 300_000)
  afterAll(async () => {
    await cluster?.stop()
  }, 120_000)

  async function upload(
    base: string,
    name: string,
    bytes: Buffer,
    overwrite = false,
  ): Promise<Response> {
    const body = new FormData()
    body.set('file', new Blob([bytes]), `${name}.png`)
    body.set('name', name)
    if (overwrite) body.set('overwrite', 'true')
    return fetch(`${base}${ASSETS}/upload/direct`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}` },
    })
  }

  /** The processes that are not running, each with the end of its log (to say why). */
  async function deadProcesses(): Promise<string[]> {
    const dead = cluster.tessera.filter((process_) => !process_.running())
    return Promise.all(
      dead.map(async (process_) => {
        const log = await readFile(join(cluster.workDir, 'logs', `${process_.name}.log`), 'utf8')
        return `${process_.name}: ${log.slice(-1500)}`
      }),
    )
  }

  const original = (base: string, name: string) =>
    `${base}/v2/${account.organisation.cloudName}/original/${name}.png`

  it('answers delivery, upload and account flows through the proxy as one process does', async () => {
    expect(await (await fetch(`${cluster.url}/readyz`)).json()).toEqual({
      status: 'ok',
      database: 'ok',
      storage: 'ok',
    })
    const sample = await fetch(`${cluster.url}/v2/demo/t.resize(w:50)/samples/horse.png`)
    expect(sample.status).toBe(200)
    expect(sample.headers.get('content-type')).toBe('image/png')
    expect((await sharp(Buffer.from(await sample.arrayBuffer())).metadata()).width).toBe(50)

    const bytes = await png(21, 1)
    const uploaded = await upload(cluster.url, 'flow', bytes)
    expect(uploaded.status).toBe(200)
    expect(await uploaded.json()).toMatchObject({ width: 21, fullPath: 'flow.png' })
    // Each process delivers it: whichever took the upload, the bytes are in the shared store.
    for (const process_ of cluster.tessera) {
      const delivered = await fetch(original(process_.url, 'flow'))
      expect(sha(Buffer.from(await delivered.arrayBuffer()))).toBe(sha(bytes))
    }
    const listed = await client.call(
      'GET',
      `${ASSETS}/org/${account.organisation._id}/files?pageSize=100`,
      { token },
    )
    expect(listed.status).toBe(200)
    expect(JSON.stringify(listed.body)).toContain('flow.png')

    // A session made through one process is good on every other (sessions are rows).
    for (const process_ of cluster.tessera) {
      const direct = createTestClient({ url: process_.url, config: loadConfig({}) })
      const me = await direct.call('GET', `${ORG}/all`, { cookie: account.cookie })
      expect(me.status).toBe(200)
    }
    const login = await client.call('POST', '/service/panel/users/v1.0/auth/login', {
      body: { email: account.email, password: 'correct horse battery' },
    })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
  })

  it('never returns the old bytes of a file overwritten through another process', async () => {
    const [a, b, c] = cluster.tessera
    if (a === undefined || b === undefined || c === undefined) throw new Error('three processes')
    expect((await upload(a.url, 'swap', await png(10, 10))).status).toBe(200)
    // Every process remembers the first version.
    for (const process_ of [a, b, c]) {
      expect((await fetch(original(process_.url, 'swap'))).status).toBe(200)
    }
    for (let round = 1; round <= 12; round++) {
      const writer = cluster.tessera[round % 3] as (typeof cluster.tessera)[number]
      const bytes = await png(10 + round, round)
      const answer = await upload(writer.url, 'swap', bytes, true)
      expect(answer.status).toBe(200)
      for (const reader of [a, b, c]) {
        const delivered = Buffer.from(
          await (await fetch(original(reader.url, 'swap'))).arrayBuffer(),
        )
        expect(sha(delivered), `round ${round}, ${reader.name}`).toBe(sha(bytes))
        const resized = await fetch(
          `${reader.url}/v2/${account.organisation.cloudName}/t.flip()/swap.png`,
        )
        const { width } = await sharp(Buffer.from(await resized.arrayBuffer())).metadata()
        expect(width, `round ${round}, ${reader.name}`).toBe(10 + round)
      }
    }
  })

  it('fails under 1% of requests when a process is killed with -9 under 64 connections, and loses no acknowledged upload', async () => {
    const victim = cluster.tessera[1]
    if (victim === undefined) throw new Error('no second process')
    const acknowledged: { name: string; hash: string }[] = []
    const started = Date.now()
    let killed = false
    const killer = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 4000))
      await victim.stop('SIGKILL')
      killed = true
    })()
    const widths = [24, 32, 40, 48, 56, 64]
    const samples = ['horse.png', 'chelsea.png', 'coffee.png', 'camera.png']
    const tally = await load(
      64,
      () => Date.now() - started > 14_000,
      async (n) => {
        if (n % 8 === 0) {
          const name = `load-${n}`
          const bytes = await png(8 + (n % 50), n)
          const answer = await upload(cluster.url, name, bytes)
          if (answer.status !== 200) return `upload ${answer.status} ${await answer.text()}`
          await answer.arrayBuffer()
          acknowledged.push({ name, hash: sha(bytes) })
          return true
        }
        const width = widths[n % widths.length] as number
        const sample = samples[Math.floor(n / widths.length) % samples.length] as string
        const answer = await fetch(`${cluster.url}/v2/demo/t.resize(w:${width})/samples/${sample}`)
        await answer.arrayBuffer()
        return answer.status === 200 ? true : `delivery ${answer.status}`
      },
    )
    await killer
    expect(killed).toBe(true)
    console.log(
      `kill -9 under load: ${tally.total} requests, ${tally.failed} failed`,
      Object.fromEntries(tally.statuses),
    )
    expect(tally.total).toBeGreaterThan(200)
    expect(tally.failed / tally.total).toBeLessThan(0.01)
    expect(acknowledged.length).toBeGreaterThan(10)

    // Every acknowledged upload is there, byte for byte, whichever process answers.
    for (const { name, hash } of acknowledged) {
      const delivered = await fetch(original(cluster.url, name))
      expect(delivered.status, name).toBe(200)
      expect(sha(Buffer.from(await delivered.arrayBuffer())), name).toBe(hash)
    }
    await victim.start()
    expect(await deadProcesses()).toEqual([])
  }, 180_000)

  it('answers 503 with Retry-After while PostgreSQL restarts, never 500, and recovers by itself', async () => {
    const postgres = cluster.postgres
    if (postgres === undefined) throw new Error('the cluster has no private PostgreSQL')
    const files = `${cluster.url}${ASSETS}/org/${account.organisation._id}/files?pageSize=1`
    const ask = () => fetch(files, { headers: { authorization: `Bearer ${token}` } })
    expect((await ask()).status).toBe(200)

    await postgres.stop()
    let down = true
    try {
      const during: number[] = []
      for (let i = 0; i < 20; i++) {
        const answer = await ask()
        during.push(answer.status)
        if (answer.status === 503) {
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
          expect(await answer.json()).toMatchObject({ code: 'database_unavailable' })
        } else await answer.arrayBuffer()
      }
      expect(new Set(during)).toEqual(new Set([503]))
      // A render of something never seen needs the database too.
      expect((await fetch(`${cluster.url}/v2/demo/t.resize(w:77)/samples/rocket.jpg`)).status).toBe(
        503,
      )
      expect(await deadProcesses()).toEqual([])

      await postgres.start()
      down = false
    } finally {
      if (down) await postgres.start()
    }
    const until = Date.now() + 30_000
    let status = 0
    while (Date.now() < until) {
      const answer = await ask()
      status = answer.status
      await answer.arrayBuffer()
      if (status === 200) break
      expect(status).toBe(503)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(status).toBe(200)
    // Every process is back, and changes go round again.
    for (const process_ of cluster.tessera) await waitFor(`${process_.url}/readyz`, 30_000)
    const bytes = await png(31, 31)
    expect((await upload(cluster.url, 'after-restart', bytes)).status).toBe(200)
    for (const process_ of cluster.tessera) {
      const delivered = await fetch(original(process_.url, 'after-restart'))
      expect(sha(Buffer.from(await delivered.arrayBuffer()))).toBe(sha(bytes))
    }
  }, 120_000)

  it('drains on SIGTERM: requests in flight are answered, the proxy sends the rest elsewhere', async () => {
    const leaving = cluster.tessera[2]
    if (leaving === undefined) throw new Error('no third process')
    // A render that takes a moment, sent to the leaving process itself.
    const slow = fetch(
      `${leaving.url}/v2/demo/t.resize(w:2400)~t.blur(s:8)/samples/rocket.jpg`,
    ).then(async (answer) => ({
      status: answer.status,
      body: Buffer.from(await answer.arrayBuffer()),
    }))
    const started = Date.now()
    let stopped: Promise<number | null> | undefined
    const tally = await load(
      16,
      () => Date.now() - started > 6000,
      async (n) => {
        if (stopped === undefined && Date.now() - started > 300) stopped = leaving.stop('SIGTERM')
        const answer = await fetch(
          `${cluster.url}/v2/demo/t.resize(w:${20 + (n % 5)})/samples/horse.png`,
        )
        await answer.arrayBuffer()
        return answer.status === 200 ? true : `delivery ${answer.status}`
      },
    )
    const inFlight = await slow
    expect(inFlight.status).toBe(200)
    expect((await sharp(inFlight.body).metadata()).width).toBe(2400)
    expect(await stopped).toBe(0)
    console.log(
      `SIGTERM under load: ${tally.total} requests, ${tally.failed} failed`,
      Object.fromEntries(tally.statuses),
    )
    expect(tally.failed).toBe(0)
    await expect(fetch(`${leaving.url}/healthz`)).rejects.toThrow()
    await leaving.start()
    expect((await fetch(`${leaving.url}/readyz`)).status).toBe(200)
  }, 120_000)
})
