// Web benchmark: the website (@tessera/web) as `npm start` serves it. Builds the production web
// app, starts the real server (apps/server/src/main.ts) in its own process on a temp DATA_DIR
// with the demo data, then measures
//   (a) Lighthouse 13 in Chromium (performance, accessibility, best practices, SEO), the median
//       of 3 runs per page, with Lighthouse's mobile defaults and with its desktop preset;
//   (b) the JavaScript each page loads (from Lighthouse's network log), raw and gzip;
//   (c) page throughput with autocannon (anonymous pages, answered by the page cache after the
//       first visit, and `/` signed in), each against a static peer: the same HTML bytes
//       answered from memory by a bare node:http process (the ceiling for any server), in the
//       same run; optionally against the server of an older checkout too.
// Run with `npm run bench:web -w @tessera/bench` (also part of `npm run bench`).
//
// Settings (environment): BENCH_SECONDS (measured seconds of each throughput run, 1–60,
// default 10), BENCH_WEB_PRESETS (`mobile,desktop` by default), BENCH_WEB_PAGES (comma-separated
// paths, default `/,/pricing,/ai-tools,/playground,/ai-tools/background-remover,
// /docs/getting-started`), BENCH_WEB_RUNS (Lighthouse runs per page, default 3),
// BENCH_WEB_BUILD=0 (use the existing build), BENCH_WEB_REPORTS=<dir> (keep every Lighthouse
// report as JSON), BENCH_WEB_SKIP_THROUGHPUT=1, BENCH_WEB_THROUGHPUT_ONLY=1 (no Lighthouse),
// BENCH_WEB_THROUGHPUT_PAGES (anonymous pages of the throughput runs, default
// `/,/pricing,/ai-tools`; signed-in `/` is always added), BENCH_WEB_BASELINE_ROOT (a checkout of
// older code whose server is measured on every page in the same run), CHROME_PATH (default
// /usr/bin/chromium).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import autocannon, { type AutocannonResult } from 'autocannon'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { desktopConfig, type Result } from 'lighthouse'
import { printTable } from './table.ts'

// ---------------------------------------------------------------------------------------------
// Settings.

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
/** As in shared/reference/stack-feasibility.md: headless, no sandbox (root in a container). */
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
type Category = (typeof CATEGORIES)[number]
/** `BENCH_WEB_THROUGHPUT_ONLY=1`: no Lighthouse, only the page throughput runs. */
const THROUGHPUT_ONLY = process.env.BENCH_WEB_THROUGHPUT_ONLY === '1'
const PRESETS = (
  THROUGHPUT_ONLY ? [] : listSetting('BENCH_WEB_PRESETS', ['mobile', 'desktop'])
) as Preset[]
type Preset = 'mobile' | 'desktop'
const PAGES = listSetting('BENCH_WEB_PAGES', [
  '/',
  '/pricing',
  '/ai-tools',
  '/playground',
  '/ai-tools/background-remover',
  '/docs/getting-started',
])
const RUNS = wholeSetting('BENCH_WEB_RUNS', 3, 1, 9)
const SECONDS = wholeSetting('BENCH_SECONDS', 10, 1, 60)
const WARMUP_SECONDS = 2
/** Connections of the throughput runs: enough to keep a 1-thread server busy. */
const CONNECTIONS = 10

const TARGETS = { score: 95, homeJsGzipKb: 150 }

function listSetting(name: string, fallback: string[]): string[] {
  const value = process.env[name]
  if (value === undefined || value.trim() === '') return fallback
  const list = value.split(',').map((item) => item.trim())
  if (
    name === 'BENCH_WEB_PRESETS' &&
    list.some((item) => item !== 'mobile' && item !== 'desktop')
  ) {
    throw new RangeError(`${name} takes mobile and/or desktop, got '${value}'`)
  }
  return list
}

function wholeSetting(name: string, fallback: number, min: number, max: number): number {
  const value = process.env[name]
  if (value === undefined || value === '') return fallback
  const number = Number(value)
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, got '${value}'`)
  }
  return number
}

// ---------------------------------------------------------------------------------------------
// Processes.

const children = new Set<ChildProcess>()

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address !== 'object') throw new Error('no port')
  return address.port
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts our server exactly as `npm start` does (after its build), on a temp data folder. */
async function startOurs(
  dataDir: string,
  root = ROOT,
): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: root,
    // PUBLIC_URL is the origin the pages are visited on, as with `npm start` on localhost: the
    // CMS's image URLs are then same-origin, as on a real deployment.
    env: {
      ...process.env,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    const ok = await fetch(`${origin}/robots.txt`).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) return { origin, child }
    await sleep(250)
  }
  throw new Error('the server did not answer within 120 s')
}

/** Starts the static baseline on `file`; resolves with its origin. */
async function startStaticPeer(file: string): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(ROOT, 'bench/web-static-peer.ts'), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the static peer exited with ${code}`)))
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()))
  })
  return { origin, child }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  await Promise.race([exited, sleep(10_000)])
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}

// ---------------------------------------------------------------------------------------------
// Lighthouse.

interface Run {
  scores: Record<Category, number>
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; si: number }
  scripts: { url: string; transferSize: number; resourceSize: number }[]
  /** Audits of the four categories that scored below 1 (`id` → score). */
  failing: Map<string, { title: string; score: number }>
}

interface NetworkItem {
  url: string
  resourceType?: string
  transferSize?: number
  resourceSize?: number
}

async function lighthouseRun(
  url: string,
  preset: Preset,
  reports: string | undefined,
  name: string,
) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS })
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
      preset === 'desktop' ? desktopConfig : undefined,
    )
    if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}`)
    const lhr = result.lhr
    if (lhr.runtimeError !== undefined) {
      throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
    }
    if (reports !== undefined) await writeFile(join(reports, `${name}.json`), JSON.stringify(lhr))
    return summarise(lhr)
  } finally {
    chrome.kill()
  }
}

/**
 * Runs a Lighthouse run again once when it fails outright (headless Chromium here now and then
 * reports CHROME_INTERSTITIAL_ERROR for a page that answers 200); the retry is printed.
 */
async function withRetry(run: () => Promise<Run>): Promise<Run> {
  try {
    return await run()
  } catch (error) {
    console.log(`  (retrying once after: ${(error as Error).message})`)
    return run()
  }
}

function summarise(lhr: Result): Run {
  const scores = {} as Record<Category, number>
  const failing = new Map<string, { title: string; score: number }>()
  for (const category of CATEGORIES) {
    const entry = lhr.categories[category]
    if (entry?.score === null || entry === undefined) throw new Error(`no ${category} score`)
    scores[category] = Math.round(entry.score * 100)
    for (const ref of entry.auditRefs) {
      const audit = lhr.audits[ref.id]
      if (audit === undefined || audit.score === null || audit.score >= 1) continue
      if (ref.weight === 0 && audit.scoreDisplayMode !== 'metricSavings') continue
      failing.set(ref.id, { title: audit.title, score: audit.score })
    }
  }
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
  const network = lhr.audits['network-requests']?.details
  const items = (network !== undefined && 'items' in network ? network.items : []) as NetworkItem[]
  const scripts = items
    .filter((item) => item.resourceType === 'Script')
    .map((item) => ({
      url: item.url,
      transferSize: item.transferSize ?? 0,
      resourceSize: item.resourceSize ?? 0,
    }))
  return {
    scores,
    metrics: {
      fcp: numeric('first-contentful-paint'),
      lcp: numeric('largest-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      si: numeric('speed-index'),
    },
    scripts,
    failing,
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

// ---------------------------------------------------------------------------------------------
// JavaScript per page.

interface JsBytes {
  files: number
  raw: number
  transferred: number
  gzip: number
}

/** Every script file the page loaded (Lighthouse's network log), fetched again and gzipped. */
async function jsBytes(scripts: Run['scripts']): Promise<JsBytes> {
  const unique = new Map(scripts.map((script) => [script.url, script]))
  let raw = 0
  let gzip = 0
  let transferred = 0
  for (const script of unique.values()) {
    const response = await fetch(script.url)
    if (!response.ok) throw new Error(`${script.url}: ${response.status}`)
    const data = Buffer.from(await response.arrayBuffer())
    raw += data.length
    gzip += gzipSync(data, { level: 6 }).length
    transferred += script.transferSize
  }
  return { files: unique.size, raw, transferred, gzip }
}

/** Inline `<script>` bytes of a page's HTML (runtime config, React Router's hydration data). */
function inlineScriptBytes(html: string): { raw: number; gzip: number } {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1] ?? '')
    .join('')
  return { raw: Buffer.byteLength(inline), gzip: gzipSync(inline, { level: 6 }).length }
}

// ---------------------------------------------------------------------------------------------
// Throughput.

interface Throughput {
  rps: number
  p50: number
  p99: number
  bytes: number
  errors: number
}

function cannon(
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

function measured(result: AutocannonResult, seconds: number): Throughput {
  return {
    rps: result['2xx'] / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

/** Rounds in which ours and the static peer take turns (the machine's load drifts). */
const TURNS = 3

/**
 * Servers in turns of SECONDS / TURNS each, after a warm-up of each: the machine is shared, and
 * its load drifts within a minute; turns give every server the same mix.
 */
async function alternating(
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
const THROUGHPUT_PAGES = listSetting('BENCH_WEB_THROUGHPUT_PAGES', ['/', '/pricing', '/ai-tools'])
/**
 * A checkout of the code before issue 14 (`git worktree add --detach <dir> aab5078`, its
 * node_modules and web build in place): its server is measured on every page in the same run,
 * so the signed-in target (3× before) compares two servers under the same load.
 */
const BASELINE_ROOT = process.env.BENCH_WEB_BASELINE_ROOT
/**
 * Without a baseline checkout: signed-in `/` as a ratio to its static peer before issue 14,
 * measured by this benchmark on this machine (docs/benchmarks.md); the target is 3× that.
 */
const SIGNED_IN_BEFORE = Number(process.env.BENCH_WEB_SIGNED_IN_BEFORE ?? '0.0011')

/** Signs a new account up on our server; resolves with its `Cookie` header. */
async function signUp(origin: string): Promise<string> {
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

interface PageRun {
  name: string
  ours: Throughput
  peer: Throughput
  ratio: number
  cache: string
  /** The same page on the baseline server, when there is one. */
  before?: Throughput
}

interface Origins {
  ours: string
  baseline?: string
}

/** One page: ours, a static peer sending our HTML and the baseline's, taking turns. */
async function pageRun(
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

async function throughputRuns(origins: Origins, temp: string): Promise<void> {
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

// ---------------------------------------------------------------------------------------------
// Main.

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/**
 * Warms what a page loads from our server before Lighthouse sees it: every delivery image of
 * the page (src and srcset; each is rendered once, then served from the derived-image cache, as
 * a deployment's visitors find it) and every static file it links (compressed copies read once).
 */
async function warmPage(origin: string, html: string): Promise<number> {
  const urls = new Set<string>()
  for (const match of html.matchAll(/\s(?:src|srcSet|srcset|href)="([^"]+)"/g)) {
    for (const candidate of (match[1] ?? '').split(',')) {
      const url = candidate.trim().split(/\s+/)[0]?.replaceAll('&amp;', '&') ?? ''
      const path = url.startsWith(origin) ? url.slice(origin.length) : url
      if (path.startsWith('/v2/') || path.startsWith('/static/')) urls.add(path)
    }
  }
  for (const url of urls) {
    const response = await fetch(new URL(url, origin), { headers: { 'accept-encoding': 'br' } })
    await response.arrayBuffer()
  }
  return urls.size
}

async function main() {
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  console.log(
    `Web benchmark — ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} CPUs (${cpu}), ` +
      `${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
  )
  if (process.env.BENCH_WEB_BUILD !== '0') {
    console.log('Building the web app (npm run build -w @tessera/web)…')
    const build = spawnSync('npm', ['run', 'build', '-w', '@tessera/web'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    if (build.status !== 0) throw new Error(`the web build failed (${build.status})`)
  }
  const temp = await mkdtemp(join(tmpdir(), 'tessera-web-bench-'))
  const reports = process.env.BENCH_WEB_REPORTS
  if (reports !== undefined) await mkdir(reports, { recursive: true })
  try {
    const ours = await startOurs(join(temp, 'data'))
    console.log(`Server on ${ours.origin}`)
    const html = new Map<string, string>()
    for (const page of PAGES) {
      const response = await fetch(`${ours.origin}${page}`)
      if (response.status !== 200) throw new Error(`${page}: ${response.status}`)
      const text = await response.text()
      html.set(page, text)
      await warmPage(ours.origin, text)
    }

    // (a) Lighthouse and (b) JavaScript.
    const scoreRows: string[][] = []
    const metricRows: string[][] = []
    const jsRows: string[][] = []
    const verdicts: string[] = []
    let homeJs: JsBytes | undefined
    for (const preset of PRESETS) {
      for (const page of PAGES) {
        const runs: Run[] = []
        for (let run = 1; run <= RUNS; run++) {
          const name = `${preset}${page === '/' ? '-home' : page.replaceAll('/', '-')}-${run}`
          runs.push(
            await withRetry(() => lighthouseRun(`${ours.origin}${page}`, preset, reports, name)),
          )
        }
        const medians = CATEGORIES.map((category) =>
          median(runs.map((run) => run.scores[category])),
        )
        scoreRows.push([
          page,
          preset,
          ...medians.map((value, index) => {
            const all = runs.map((run) => run.scores[CATEGORIES[index] as Category]).join('/')
            return `${value} (${all})`
          }),
        ])
        const metric = (key: keyof Run['metrics']) => median(runs.map((run) => run.metrics[key]))
        metricRows.push([
          page,
          preset,
          `${Math.round(metric('fcp'))}`,
          `${Math.round(metric('lcp'))}`,
          `${Math.round(metric('tbt'))}`,
          metric('cls').toFixed(3),
          `${Math.round(metric('si'))}`,
        ])
        for (const [index, value] of medians.entries()) {
          if (value < TARGETS.score) {
            verdicts.push(`${page} ${preset} ${CATEGORIES[index]} ${value} < ${TARGETS.score}`)
          }
        }
        const failing = new Map<string, { title: string; count: number; worst: number }>()
        for (const run of runs) {
          for (const [id, audit] of run.failing) {
            const seen = failing.get(id)
            failing.set(id, {
              title: audit.title,
              count: (seen?.count ?? 0) + 1,
              worst: Math.min(seen?.worst ?? 1, audit.score),
            })
          }
        }
        if (failing.size > 0) {
          console.log(`\n${page} (${preset}): audits below 1 (runs of ${RUNS}, worst score)`)
          for (const [id, audit] of failing) {
            console.log(`  ${id}: ${audit.title} — ${audit.count}×, ${audit.worst.toFixed(2)}`)
          }
        }
        if (preset === PRESETS[0]) {
          const js = await jsBytes(runs[0]?.scripts ?? [])
          const inline = inlineScriptBytes(html.get(page) ?? '')
          if (page === '/') homeJs = js
          jsRows.push([
            page,
            `${js.files}`,
            kb(js.raw),
            kb(js.transferred),
            kb(js.gzip),
            `${kb(inline.raw)} / ${kb(inline.gzip)}`,
          ])
        }
      }
    }
    if (!THROUGHPUT_ONLY) {
      console.log(
        `\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}: median of ${RUNS} runs (each run's score in brackets)\n`,
      )
      printTable(
        ['page', 'preset', 'performance', 'accessibility', 'best practices', 'SEO'],
        scoreRows,
        [false, false, true, true, true, true],
      )
      console.log('\nMetrics (medians, ms; CLS unitless)\n')
      printTable(['page', 'preset', 'FCP', 'LCP', 'TBT', 'CLS', 'Speed Index'], metricRows, [
        false,
        false,
        true,
        true,
        true,
        true,
        true,
      ])
      console.log('\nJavaScript loaded by each page (script files of the network log; gzip -6)\n')
      printTable(
        ['page', 'files', 'raw', 'transferred', 'gzip', 'inline scripts raw / gzip'],
        jsRows,
        [false, true, true, true, true, true],
      )
    }

    // (c) Throughput.
    if (process.env.BENCH_WEB_SKIP_THROUGHPUT !== '1') {
      const baseline =
        BASELINE_ROOT === undefined
          ? undefined
          : await startOurs(join(temp, 'baseline-data'), BASELINE_ROOT)
      await throughputRuns(
        baseline === undefined
          ? { ours: ours.origin }
          : { ours: ours.origin, baseline: baseline.origin },
        temp,
      )
      if (baseline !== undefined) await stop(baseline.child)
    }

    if (!THROUGHPUT_ONLY) {
      console.log('\nTargets')
      console.log(
        verdicts.length === 0
          ? `  every Lighthouse category ≥ ${TARGETS.score} (medians): met`
          : `  every Lighthouse category ≥ ${TARGETS.score} (medians): NOT met — ${verdicts.join('; ')}`,
      )
      if (homeJs !== undefined) {
        const gzipKb = homeJs.gzip / 1024
        console.log(
          `  home page JavaScript ≤ ${TARGETS.homeJsGzipKb} KB gzip: ${gzipKb <= TARGETS.homeJsGzipKb ? 'met' : 'NOT met'} (${gzipKb.toFixed(1)} KB)`,
        )
      }
    }
    await stop(ours.child)
  } finally {
    for (const child of children) await stop(child)
    await rm(temp, { recursive: true, force: true })
  }
}

await main()
