// The URL benchmark's scaling check (url.bench.ts): ms per parse of a ~10 KB, ~100 KB and ~1 MB
// pattern. Linear time gives a 1MB/100KB ratio of about 10. A 1 MB pattern yields ~75,000
// operations, all alive until the parse returns, so the young-generation GC copies and promotes
// them and its cost grows faster than the input; the GC time inside each timed call is therefore
// measured too (PerformanceObserver 'gc' entries) and reported apart, so the parser's own cost
// can be judged on its own.
import { PerformanceObserver } from 'node:perf_hooks'
import { parsePattern, parseTransformations } from '@tessera/url'
import { Bench } from 'tinybench'
import { printTable } from './table.ts'
import { consume, peer } from './url-corpus.ts'

export function bigPattern(bytes: number): string {
  const unit = 't.resize(w:1)~'
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, -1)
}

export const SIZES = [
  { label: '10 KB', bytes: 10 * 1024 },
  { label: '100 KB', bytes: 100 * 1024 },
  { label: '1 MB', bytes: 1024 * 1024 },
]

export const SCALING_FUNCTIONS: ReadonlyArray<{
  name: string
  parse: (pattern: string) => unknown
}> = [
  { name: 'ours parseTransformations', parse: parseTransformations },
  { name: 'ours parsePattern', parse: parsePattern },
  {
    name: 'pixelbin urlToObj (reference)',
    parse: (pattern) => peer.urlToObj(`https://cdn.example.com/v2/demo/${pattern}/a.jpg`),
  },
]

export type Interval = [start: number, end: number]

export function overlap(intervals: readonly Interval[], windows: readonly Interval[]): number {
  let total = 0
  for (const [start, end] of intervals) {
    for (const [gcStart, gcEnd] of windows) {
      total += Math.max(0, Math.min(end, gcEnd) - Math.max(start, gcStart))
    }
  }
  return total
}

export async function runScaling(): Promise<boolean> {
  const patterns = SIZES.map((size) => ({ ...size, pattern: bigPattern(size.bytes) }))
  for (const { label, pattern } of patterns) {
    const operations = parseTransformations(pattern).length
    const kept = parsePattern(pattern).value.length
    if (kept !== operations) throw new Error(`parsePattern kept ${kept}/${operations} of ${label}`)
  }

  const gcWindows: Interval[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcWindows.push([entry.startTime, entry.startTime + entry.duration])
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  // The timed calls of each task's run phase (warmup calls are not kept).
  const calls = new Map<string, Interval[]>()

  const bench = new Bench({ name: 'scaling', time: 1000, iterations: 10, warmupIterations: 3 })
  for (const { name, parse } of SCALING_FUNCTIONS) {
    for (const { label, pattern } of patterns) {
      const task = `${name} ${label}`
      const intervals: Interval[] = []
      bench.add(
        task,
        () => {
          const start = performance.now()
          consume(parse(pattern))
          intervals.push([start, performance.now()])
        },
        {
          beforeAll: (mode) => {
            intervals.length = 0
            if (mode === 'run') calls.set(task, intervals)
          },
        },
      )
    }
  }
  const tasks = new Map((await bench.run()).map((task) => [task.name, task]))
  await new Promise((resolve) => setTimeout(resolve, 100)) // let the last GC entries arrive
  observer.disconnect()

  const measure = (task: string) => {
    const result = tasks.get(task)?.result
    if (result === undefined || !('latency' in result)) throw new Error(`${task} did not complete`)
    const intervals = calls.get(task) ?? []
    const wall = intervals.reduce((sum, [start, end]) => sum + end - start, 0)
    const gc = overlap(intervals, gcWindows)
    return {
      median: result.latency.p50,
      gcShare: gc / wall,
      withoutGc: (wall - gc) / intervals.length,
    }
  }
  const rows = SCALING_FUNCTIONS.map(({ name }) => {
    const [small, medium, large] = SIZES.map(({ label }) => measure(`${name} ${label}`))
    if (small === undefined || medium === undefined || large === undefined) throw new Error('sizes')
    return {
      name,
      cells: [
        name,
        small.median.toFixed(3),
        medium.median.toFixed(3),
        large.median.toFixed(3),
        (large.median / medium.median).toFixed(1),
        `${Math.round(large.gcShare * 100)}%`,
        (large.withoutGc / medium.withoutGc).toFixed(1),
      ],
      ratioWithoutGc: large.withoutGc / medium.withoutGc,
    }
  })

  const sizes = patterns
    .map(
      (p) =>
        `${p.label} = ${p.pattern.length.toLocaleString('en-US')} chars / ` +
        `${parseTransformations(p.pattern).length.toLocaleString('en-US')} operations`,
    )
    .join(', ')
  console.log(`\nScaling: 't.resize(w:1)~' repeated (${sizes})\n`)
  printTable(
    [
      'function',
      ...SIZES.map((s) => `${s.label} ms`),
      '1MB/100KB',
      'GC share at 1 MB',
      '1MB/100KB excl. GC',
    ],
    rows.map((row) => row.cells),
    [false, true, true, true, true, true, true],
  )
  console.log(
    '\nms = median ms per parse. The pixelbin row is its urlToObj on `…/v2/demo/<pattern>/a.jpg`, ' +
      'for reference only.',
  )
  const ours = rows.filter((row) => row.name.startsWith('ours'))
  const linear = ours.every((row) => row.ratioWithoutGc > 7 && row.ratioWithoutGc < 14)
  console.log(
    `Scaling of ours, GC time excluded: ${linear ? 'linear' : 'NOT linear'} ` +
      `(1MB/100KB ratio ${ours.map((row) => row.ratioWithoutGc.toFixed(1)).join(' and ')}; ≈10 expected).`,
  )
  return linear
}
