// Page throughput of the web benchmark (web.bench.ts): autocannon against our server, the static
// peer and optionally an older checkout's server, in alternating turns.
import { writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import autocannon, { type AutocannonResult } from 'autocannon'
import { printTable } from './table.ts'
import { startStaticPeer, stop } from './web-processes.ts'
import { CONNECTIONS, listSetting, SECONDS, WARMUP_SECONDS } from './web-settings.ts'

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

export interface Throughput {
  rps: number
  p50: number
  p99: number
  bytes: number
  errors: number
}

export function cannon(
  url: string,
  seconds: number,
  headers: Record<string, string>,
): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, headers }, (error, result) =>
      error === null ? resolve(result) : reject(error),
    )
  })
}

export function measured(result: AutocannonResult, seconds: number): Throughput {
  return {
    rps: result['2xx'] / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

/** Rounds in which ours and the static peer take turns (the machine's load drifts). */
export const TURNS = 3

/**
 * Servers in turns of SECONDS / TURNS each, after a warm-up of each: the machine is shared, and
 * its load drifts within a minute; turns give every server the same mix.
 */
export async function alternating(
  targets: ReadonlyArray<{ url: string; headers: Record<string, string> }>,
): Promise<Throughput[]> {
  for (const target of targets) await cannon(target.url, WARMUP_SECONDS, target.headers)
  const turn = Math.max(1, Math.round(SECONDS / TURNS))
  const runs: AutocannonResult[][] = targets.map(() => [])
  for (let i = 0; i < TURNS; i++) {
    for (const [index, target] of targets.entries()) {
      runs[index]?.push(await cannon(target.url, turn, target.headers))
    }
  }
  return runs.map((list) => {
    const parts = list.map((result) => measured(result, turn))
    const p = (key: 'p50' | 'p99') => Math.max(...parts.map((part) => part[key]))
    return {
      rps: parts.reduce((total, part) => total + part.rps, 0) / parts.length,
      p50: p('p50'),
      p99: p('p99'),
      bytes: parts[0]?.bytes ?? 0,
      errors: parts.reduce((total, part) => total + part.errors, 0),
    }
  })
}

/** Pages of the throughput runs: anonymous, then `/` signed in. */
export const THROUGHPUT_PAGES = listSetting('BENCH_WEB_THROUGHPUT_PAGES', [
  '/',
  '/pricing',
  '/ai-tools',
])
/**
 * A checkout of the code before issue 14 (`git worktree add --detach <dir> aab5078`, its
 * node_modules and web build in place): its server is measured on every page in the same run,
 * so the signed-in target (3× before) compares two servers under the same load.
 */
export const BASELINE_ROOT = process.env.BENCH_WEB_BASELINE_ROOT
/**
 * Without a baseline checkout: signed-in `/` as a ratio to its static peer before issue 14,
 * measured by this benchmark on this machine (docs/benchmarks.md); the target is 3× that.
 */
export const SIGNED_IN_BEFORE = Number(process.env.BENCH_WEB_SIGNED_IN_BEFORE ?? '0.0011')

/** Signs a new account up on our server; resolves with its `Cookie` header. */
export async function signUp(origin: string): Promise<string> {
  const response = await fetch(`${origin}/service/panel/users/v1.0/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery staple 42',
      firstName: 'Bench',
      lastName: 'Mark',
    }),
  })
  if (response.status !== 201)
    throw new Error(`sign-up: ${response.status} ${await response.text()}`)
  const cookie = response.headers.getSetCookie().map((line) => line.split(';')[0] ?? '')
  if (cookie.length === 0) throw new Error('sign-up set no cookie')
  return cookie.join('; ')
}

export interface PageRun {
  name: string
  ours: Throughput
  peer: Throughput
  ratio: number
  cache: string
  /** The same page on the baseline server, when there is one. */
  before?: Throughput
}

export interface Origins {
  ours: string
  baseline?: string
}

/** One page: ours, a static peer sending our HTML and the baseline's, taking turns. */
export async function pageRun(
  origins: Origins,
  temp: string,
  page: string,
  name: string,
  headers: { ours: Record<string, string>; baseline: Record<string, string> },
): Promise<PageRun> {
  const origin = origins.ours
  const response = await fetch(`${origin}${page}`, { headers: headers.ours })
  if (response.status !== 200) throw new Error(`${name}: ${response.status}`)
  const html = await response.text()
  const file = join(temp, `page-${Math.random().toString(36).slice(2)}.html`)
  await writeFile(file, html)
  const peer = await startStaticPeer(file)
  try {
    const targets = [
      { url: `${origin}${page}`, headers: headers.ours },
      { url: `${peer.origin}/`, headers: {} },
      ...(origins.baseline === undefined
        ? []
        : [{ url: `${origins.baseline}${page}`, headers: headers.baseline }]),
    ]
    const [ours, peerResult, before] = (await alternating(targets)) as [
      Throughput,
      Throughput,
      Throughput | undefined,
    ]
    const after = await fetch(`${origin}${page}`, { headers: headers.ours })
    await after.arrayBuffer()
    for (const [who, result] of [
      ['ours', ours],
      ['static', peerResult],
    ] as const) {
      // The baseline's errors (timeouts of the old, slow renders) are shown, not fatal.
      if (result.errors > 0) {
        throw new Error(`${name} ${who}: ${result.errors} errors in the run`)
      }
    }
    return {
      name,
      ours,
      peer: peerResult,
      ratio: ours.rps / peerResult.rps,
      cache: after.headers.get('x-page-cache') ?? '—',
      ...(before === undefined ? {} : { before }),
    }
  } finally {
    await stop(peer.child)
  }
}

export async function throughputRuns(origins: Origins, temp: string): Promise<void> {
  const runs: PageRun[] = []
  for (const page of THROUGHPUT_PAGES) {
    runs.push(await pageRun(origins, temp, page, `${page} anonymous`, { ours: {}, baseline: {} }))
  }
  const cookie = await signUp(origins.ours)
  const baselineCookie = origins.baseline === undefined ? '' : await signUp(origins.baseline)
  runs.push(
    await pageRun(origins, temp, '/', '/ signed in', {
      ours: { cookie },
      baseline: { cookie: baselineCookie },
    }),
  )
  console.log(
    `\nPage throughput: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up, then ${TURNS} turns ` +
      `of ours, the static peer and the baseline, ${SECONDS} s each in all (p50/p99: the worst turn's); ` +
      `load average now ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}\n`,
  )
  printTable(
    [
      'page',
      'ours req/s',
      'p50 ms',
      'p99 ms',
      'bytes',
      'page cache',
      'static req/s',
      'ours / static',
      'before req/s',
      'ours / before',
    ],
    runs.map((run) => [
      run.name,
      run.ours.rps.toFixed(0),
      run.ours.p50.toFixed(1),
      run.ours.p99.toFixed(1),
      kb(run.ours.bytes),
      run.cache,
      run.peer.rps.toFixed(0),
      `${run.ratio.toFixed(4)}×`,
      run.before === undefined
        ? '—'
        : `${run.before.rps.toFixed(1)}${run.before.errors > 0 ? ` (${run.before.errors} errors)` : ''}`,
      run.before === undefined ? '—' : `${(run.ours.rps / run.before.rps).toFixed(2)}×`,
    ]),
    [false, true, true, true, true, false, true, true, true, true],
  )
  console.log('\nTargets (ratios to the static peer of the same run)')
  for (const run of runs) {
    if (run.name.endsWith('anonymous')) {
      console.log(
        `  ${run.name} ≥ 0.5×: ${run.ratio >= 0.5 ? 'met' : 'NOT met'} (${run.ratio.toFixed(3)}×)`,
      )
    } else if (run.before !== undefined) {
      const gain = run.ours.rps / run.before.rps
      console.log(
        `  ${run.name} ≥ 3× the code before issue 14 (same run): ${gain >= 3 ? 'met' : 'NOT met'} (${gain.toFixed(2)}×: ${run.ours.rps.toFixed(1)} against ${run.before.rps.toFixed(1)} req/s)`,
      )
    } else {
      const target = SIGNED_IN_BEFORE * 3
      console.log(
        `  ${run.name} ≥ 3 × ${SIGNED_IN_BEFORE}× = ${target.toFixed(4)}×: ${run.ratio >= target ? 'met' : 'NOT met'} (${run.ratio.toFixed(4)}×, ${(run.ratio / SIGNED_IN_BEFORE).toFixed(2)}× before)`,
      )
    }
  }
}
