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
// The settings, processes, Lighthouse runs and throughput runs are web-settings.ts,
// web-processes.ts, web-lighthouse.ts and web-throughput.ts.
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { printTable } from './table.ts'
import {
  inlineScriptBytes,
  type JsBytes,
  jsBytes,
  lighthouseRun,
  median,
  type Run,
  withRetry,
} from './web-lighthouse.ts'
import { children, startOurs, stop } from './web-processes.ts'
import {
  CATEGORIES,
  type Category,
  PAGES,
  PRESETS,
  ROOT,
  RUNS,
  TARGETS,
  THROUGHPUT_ONLY,
} from './web-settings.ts'
import { BASELINE_ROOT, kb, throughputRuns } from './web-throughput.ts'

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
