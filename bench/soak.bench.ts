// Soak benchmark: the cluster of `npm run cluster` (3 Tessera processes on a private PostgreSQL
// and s3rver, behind HAProxy) under a mixed load for minutes: cached and uncached delivery,
// uploads, API calls and pages, at 64 connections. Prints errors per kind (deliberate 429s of
// the render limit counted apart), p50/p99 latency per kind, and the RSS of each Tessera process
// over time, with its growth after warm-up. Run with `npm run bench:soak -w @tessera/bench`
// (also part of `npm run bench`); not part of `npm test`.
//
// Settings (environment): SOAK_SECONDS (measured seconds, default 300), SOAK_CONNECTIONS
// (default 64), SOAK_WARMUP_SECONDS (RSS growth is measured from here, default 60),
// SOAK_SAMPLE_SECONDS (RSS sampling period, default 15), BENCH_WEB_BUILD=0 (use the web build as
// it is).
import { execFile, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { signRequest } from '@tessera/url'
import sharp from 'sharp'
import { startCluster } from '../scripts/cluster/cluster.ts'
import { printTable } from './table.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)

function whole(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}`)
  }
  return value
}

const SECONDS = whole('SOAK_SECONDS', 300, 10, 3600)
const CONNECTIONS = whole('SOAK_CONNECTIONS', 64, 1, 1024)
const WARMUP_SECONDS = whole('SOAK_WARMUP_SECONDS', 60, 0, 3600)
const SAMPLE_SECONDS = whole('SOAK_SAMPLE_SECONDS', 15, 1, 600)
const PANEL_KEY = 'tessera-panel-signing-key-v1'

type Kind = 'cached' | 'uncached' | 'upload' | 'api' | 'page'
/** Out of 100 requests: mostly cached delivery, as a CDN-less image service sees. */
const MIX: [Kind, number][] = [
  ['cached', 60],
  ['uncached', 10],
  ['upload', 5],
  ['api', 15],
  ['page', 10],
]

interface Stats {
  latencies: number[]
  ok: number
  limited: number
  errors: Map<string, number>
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number)

async function rss(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined
  try {
    const { stdout } = await run('ps', ['-o', 'rss=', '-p', String(pid)])
    return Number(stdout.trim()) * 1024
  } catch {
    return undefined
  }
}

async function signedJson(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const text = body === undefined ? undefined : JSON.stringify(body)
  const signed = await signRequest({ method, url, body: text }, PANEL_KEY, { now: Date.now() })
  return fetch(url, {
    method,
    headers: {
      ...headers,
      ...signed,
      ...(text === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(text === undefined ? {} : { body: text }),
  })
}

async function main(): Promise<void> {
  if (process.env.BENCH_WEB_BUILD !== '0' || !existsSync(join(ROOT, 'apps/web/build'))) {
    console.log('Building the website (the page requests need it)…')
    const built = spawnSync('npm', ['run', 'build', '-w', '@tessera/web'], {
      cwd: ROOT,
      stdio: 'inherit',
    })
    if (built.status !== 0) throw new Error('the web build failed')
  }
  console.log('Starting the cluster (3 processes, PostgreSQL, s3rver, HAProxy)…')
  const cluster = await startCluster({ size: 3, env: { LOG_LEVEL: 'warn' } })
  try {
    // An account and a token, through the proxy, as a user would get them.
    const email = `soak.${Date.now().toString(36)}@example.com`
    const signup = await signedJson(`${cluster.url}/service/panel/users/v1.0/auth/signup`, 'POST', {
      email,
      password: 'correct horse battery',
      firstName: 'Soak',
      lastName: 'Bench',
    })
    if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status}`)
    const cookie = /bg\.session=([^;]+)/.exec(signup.headers.get('set-cookie') ?? '')?.[1] ?? ''
    const organisations = (await (
      await signedJson(`${cluster.url}/service/panel/organization/v1.0/all`, 'GET', undefined, {
        cookie: `bg.session=${cookie}`,
      })
    ).json()) as { _id: string; cloudName: string }[]
    const organisation = organisations[0]
    if (organisation === undefined) throw new Error('sign-up made no organisation')
    const tokenAnswer = await signedJson(
      `${cluster.url}/service/panel/organization/v1.0/${organisation._id}/tokens`,
      'POST',
      { name: 'soak' },
      { cookie: `bg.session=${cookie}` },
    )
    const { token } = (await tokenAnswer.json()) as { token: string }

    const samples = ['horse.png', 'chelsea.png', 'coffee.png', 'camera.png', 'rocket.jpg']
    const cachedWidths = [64, 128, 256]
    for (const sample of samples) {
      for (const width of cachedWidths) {
        await (
          await fetch(`${cluster.url}/v2/demo/t.resize(w:${width})/samples/${sample}`)
        ).arrayBuffer()
      }
    }
    const uploadBytes = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        sharp({
          create: {
            width: 64 + i,
            height: 48,
            channels: 3,
            background: `#${(i * 997).toString(16).padStart(6, '0').slice(-6)}`,
          },
        })
          .png()
          .toBuffer(),
      ),
    )
    const pages = ['/', '/pricing', '/docs']
    const stats = new Map<Kind, Stats>(
      MIX.map(([kind]) => [kind, { latencies: [], ok: 0, limited: 0, errors: new Map() }]),
    )
    // The mix in a fixed shuffled order, so every worker meets every kind from the start.
    const wheel = MIX.flatMap(([kind, weight]) => Array<Kind>(weight).fill(kind))
    let seed = 20_261_123
    for (let i = wheel.length - 1; i > 0; i--) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      const j = seed % (i + 1)
      ;[wheel[i], wheel[j]] = [wheel[j] as Kind, wheel[i] as Kind]
    }
    let n = 0
    let uncached = 0

    async function one(kind: Kind): Promise<Response> {
      const i = n++
      switch (kind) {
        case 'cached':
          return fetch(
            `${cluster.url}/v2/demo/t.resize(w:${cachedWidths[i % 3]})/samples/${samples[i % samples.length]}`,
          )
        case 'uncached': {
          const width = 300 + (uncached++ % 5000)
          return fetch(
            `${cluster.url}/v2/demo/t.resize(w:${width})/samples/${samples[i % samples.length]}`,
          )
        }
        case 'upload': {
          const body = new FormData()
          body.set('file', new Blob([uploadBytes[i % uploadBytes.length] as Buffer]), 'soak.png')
          body.set('name', `soak-${i}`)
          return fetch(`${cluster.url}/service/panel/assets/v1.0/upload/direct`, {
            method: 'POST',
            body,
            headers: { authorization: `Bearer ${token}` },
          })
        }
        case 'api':
          return fetch(
            `${cluster.url}/service/panel/assets/v1.0/org/${organisation?._id}/files?pageSize=20`,
            { headers: { authorization: `Bearer ${token}` } },
          )
        case 'page':
          return fetch(`${cluster.url}${pages[i % pages.length]}`)
      }
    }

    const memory: { at: number; rss: (number | undefined)[] }[] = []
    const started = Date.now()
    const end = started + SECONDS * 1000
    const sampler = setInterval(() => {
      void Promise.all(cluster.tessera.map((p) => rss(p.pid()))).then((values) =>
        memory.push({ at: Math.round((Date.now() - started) / 1000), rss: values }),
      )
    }, SAMPLE_SECONDS * 1000)
    memory.push({
      at: 0,
      rss: await Promise.all(cluster.tessera.map((p) => rss(p.pid()))),
    })
    console.log(`Soaking for ${SECONDS} s at ${CONNECTIONS} connections…`)
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, worker) => {
        let turn = worker * 37
        while (Date.now() < end) {
          const kind = wheel[turn++ % wheel.length] as Kind
          const entry = stats.get(kind) as Stats
          const t0 = performance.now()
          try {
            const answer = await one(kind)
            await answer.arrayBuffer()
            entry.latencies.push(performance.now() - t0)
            if (answer.status < 400) entry.ok++
            else if (answer.status === 429) entry.limited++
            else
              entry.errors.set(
                String(answer.status),
                (entry.errors.get(String(answer.status)) ?? 0) + 1,
              )
          } catch (error) {
            const key = error instanceof Error ? error.message : String(error)
            entry.errors.set(key, (entry.errors.get(key) ?? 0) + 1)
          }
        }
      }),
    )
    clearInterval(sampler)
    memory.push({
      at: Math.round((Date.now() - started) / 1000),
      rss: await Promise.all(cluster.tessera.map((p) => rss(p.pid()))),
    })

    // Results.
    const cpu = cpus()[0]?.model ?? 'unknown CPU'
    console.log(
      `\nMachine: ${cpus().length} CPUs (${cpu}), ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, load average at the end ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    )
    console.log(`Soak: ${SECONDS} s, ${CONNECTIONS} connections, 3 processes behind HAProxy\n`)
    const rows = [...stats].map(([kind, s]) => {
      const sorted = [...s.latencies].sort((a, b) => a - b)
      const errors = [...s.errors.values()].reduce((sum, count) => sum + count, 0)
      return [
        kind,
        String(s.ok + s.limited + errors),
        String(s.ok),
        String(s.limited),
        String(errors),
        percentile(sorted, 50).toFixed(1),
        percentile(sorted, 99).toFixed(1),
        (s.ok / SECONDS).toFixed(1),
      ]
    })
    printTable(['kind', 'requests', 'ok', '429', 'errors', 'p50 ms', 'p99 ms', 'ok/s'], rows, [
      false,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    for (const [kind, s] of stats) {
      if (s.errors.size > 0) console.log(`errors of ${kind}:`, Object.fromEntries(s.errors))
    }
    console.log('\nRSS of each process (MiB) over time:')
    printTable(
      ['s', ...cluster.tessera.map((p) => p.name)],
      memory.map((m) => [
        String(m.at),
        ...m.rss.map((value) => (value === undefined ? '—' : (value / 1024 ** 2).toFixed(0))),
      ]),
      [true, ...cluster.tessera.map(() => true)],
    )
    const warm = memory.find((m) => m.at >= WARMUP_SECONDS) ?? memory[0]
    const last = memory[memory.length - 1]
    if (warm !== undefined && last !== undefined) {
      const growth = cluster.tessera.map((_process, i) => {
        const from = warm.rss[i]
        const to = last.rss[i]
        return from === undefined || to === undefined ? Number.NaN : (to / from - 1) * 100
      })
      const bounded = growth.every((g) => Number.isFinite(g) && g <= 10)
      console.log(
        `\nRSS growth from ${warm.at} s to ${last.at} s: ${growth.map((g) => `${g.toFixed(1)} %`).join(', ')} — target ≤ 10 %: ${bounded ? 'met' : 'NOT met'}`,
      )
      // RSS rises and falls with garbage collection and libvips' caches: the highest value of the
      // second half after warm-up against the highest of the first half says whether it climbs.
      const after = memory.filter((m) => m.at >= warm.at)
      const middle = warm.at + (last.at - warm.at) / 2
      const peak = (part: typeof memory, i: number) =>
        Math.max(...part.map((m) => m.rss[i] ?? Number.NaN))
      const peaks = cluster.tessera.map((_process, i) => {
        const first = peak(
          after.filter((m) => m.at < middle),
          i,
        )
        const second = peak(
          after.filter((m) => m.at >= middle),
          i,
        )
        return (second / first - 1) * 100
      })
      const flat = peaks.every((g) => Number.isFinite(g) && g <= 10)
      console.log(
        `Peak RSS, second half after warm-up against the first: ${peaks.map((g) => `${g.toFixed(1)} %`).join(', ')} — target ≤ 10 %: ${flat ? 'met' : 'NOT met'}`,
      )
    }
  } finally {
    await cluster.stop()
  }
}

await main()
