// Benchmarks @tessera/url against @pixelbin/core 6.1.0 on the same inputs in the same run:
// urlToObj, objToUrl and pattern parsing, then a scaling check of pattern parsing on 10 KB,
// 100 KB and 1 MB patterns. Run with `npm run bench` (from the repo root or bench/).
// Inputs, throughput, scaling and issue 14's targets: url-corpus.ts, url-throughput.ts,
// url-scaling.ts and url-targets.ts.
import { cpus } from 'node:os'
import { printTable } from './table.ts'
import { CORPUS, checkInputs, PATTERNS, peerVersion, sink, tinybenchVersion } from './url-corpus.ts'
import { runScaling } from './url-scaling.ts'
import { runCpuTimeRatios } from './url-targets.ts'
import { fmtOps, fmtRme, opsPerSecond, ROWS, runThroughput } from './url-throughput.ts'

async function main(): Promise<void> {
  console.log(
    `@tessera/url vs @pixelbin/core ${peerVersion} — Node ${process.version}, ` +
      `tinybench ${tinybenchVersion}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} CPUs)`,
  )
  console.log(
    `Inputs: ${CORPUS.length} delivery URLs (${PATTERNS.length} with a pattern), the same for both libraries.\n`,
  )
  const problems = checkInputs()
  for (const problem of problems) console.log(`WARNING: ${problem}`)
  // BENCH_URL_TARGETS_ONLY=1: only the issue 14 rounds; BENCH_URL_SCALING_ONLY=1: only the
  // scaling check. For quick turns while profiling.
  if (process.env.BENCH_URL_TARGETS_ONLY === '1') {
    runCpuTimeRatios()
    return
  }
  if (process.env.BENCH_URL_SCALING_ONLY === '1') {
    await runScaling()
    return
  }

  const tasks = await runThroughput()
  const results = ROWS.map((row) => {
    const ours = opsPerSecond(tasks.get(row.oursTask), row.calls)
    const theirs = opsPerSecond(tasks.get(row.peerTask), row.calls)
    return { row, ours, theirs, ratio: ours.ops / theirs.ops }
  })
  console.log('Throughput (calls per second; ± is the relative margin of error of the mean)\n')
  printTable(
    ['operation', 'ours ops/s', 'pixelbin ops/s', 'ratio (ours/pixelbin)'],
    results.map(({ row, ours, theirs, ratio }) => [
      row.operation,
      `${fmtOps(ours.ops)} ${fmtRme(ours.rme)}`,
      `${fmtOps(theirs.ops)} ${fmtRme(theirs.rme)}`,
      `${ratio.toFixed(2)}×`,
    ]),
    [false, true, true, true],
  )
  console.log('\nFunctions compared:')
  for (const { row } of results) {
    console.log(
      `  ${row.operation}: ours ${row.oursTask.replace('ours ', '')} — pixelbin ${row.peerFunction}`,
    )
  }
  console.log('')
  for (const { row, ratio } of results) {
    console.log(
      `${row.operation}: ours is ${ratio >= 3 ? '≥3× faster' : 'NOT ≥3× faster'} (${ratio.toFixed(2)}×)`,
    )
  }
  const all = results.every(({ ratio }) => ratio >= 3)
  console.log(
    `Overall: ours is ${all ? '≥3× faster on every operation' : 'NOT ≥3× faster on every operation'}.`,
  )

  runCpuTimeRatios()
  if (process.env.BENCH_URL_SKIP_SCALING !== '1') await runScaling()
  if (sink === -1) console.log(sink)
}

await main()
