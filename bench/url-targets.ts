// Issue 14's targets of the URL benchmark (url.bench.ts): urlToObj ≥ 5×, objToUrl ≥ 3× Pixelbin,
// measured so that a busy machine cannot bias them: ours and Pixelbin alternate in rounds of
// ~300 ms of this thread's CPU time (not wall-clock time, which other processes' turns on the
// cores inflate at random), and the median of the rounds' ratios is taken.
import { objToUrl, urlToObj } from '@tessera/url'
import { printTable } from './table.ts'
import { CORPUS, consume, consumeText, OUR_OBJECTS, PEER_OBJECTS, peer } from './url-corpus.ts'

export const TARGETS_14 = { urlToObj: 5, objToUrl: 3 }
export const ROUNDS = 9

export const threadCpuMs = () => {
  const usage = process.threadCpuUsage()
  return (usage.user + usage.system) / 1000
}

/** ns of thread CPU time per call of `task` (which makes `calls` calls). */
export function cpuNsPerCall(task: () => void, calls: number, ms = 300): number {
  let runs = 0
  const start = threadCpuMs()
  let spent = 0
  while (spent < ms) {
    for (let i = 0; i < 200; i++) task()
    runs += 200
    spent = threadCpuMs() - start
  }
  return (spent * 1e6) / (runs * calls)
}

export function runCpuTimeRatios(): void {
  const pairs = [
    {
      name: 'urlToObj',
      target: TARGETS_14.urlToObj,
      ours: () => {
        for (const { url, isCustomDomain } of CORPUS) consume(urlToObj(url, { isCustomDomain }))
      },
      theirs: () => {
        for (const { url, isCustomDomain } of CORPUS) {
          consume(peer.urlToObj(url, { isCustomDomain }))
        }
      },
    },
    {
      name: 'objToUrl',
      target: TARGETS_14.objToUrl,
      ours: () => {
        for (const obj of OUR_OBJECTS) consumeText(objToUrl(obj))
      },
      theirs: () => {
        for (const obj of PEER_OBJECTS) consumeText(peer.objToUrl(obj))
      },
    },
  ]
  for (const pair of pairs) {
    cpuNsPerCall(pair.ours, CORPUS.length, 200)
    cpuNsPerCall(pair.theirs, CORPUS.length, 200)
  }
  const rows: string[][] = []
  const verdicts: string[] = []
  for (const pair of pairs) {
    const ratios: number[] = []
    const ours: number[] = []
    const theirs: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const a = cpuNsPerCall(pair.ours, CORPUS.length)
      const b = cpuNsPerCall(pair.theirs, CORPUS.length)
      ours.push(a)
      theirs.push(b)
      ratios.push(b / a)
    }
    const median = (values: number[]) =>
      [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? Number.NaN
    const ratio = median(ratios)
    const sorted = [...ratios].sort((x, y) => x - y)
    rows.push([
      pair.name,
      `${median(ours).toFixed(0)}`,
      `${median(theirs).toFixed(0)}`,
      `${ratio.toFixed(2)}×`,
      `${sorted[0]?.toFixed(2)}–${sorted.at(-1)?.toFixed(2)}×`,
    ])
    verdicts.push(
      `${pair.name} ≥ ${pair.target}× Pixelbin: ${ratio >= pair.target ? 'met' : 'NOT met'} (${ratio.toFixed(2)}×)`,
    )
  }
  console.log(
    `\nIssue 14 targets: thread CPU time per call, ours and Pixelbin alternating, ${ROUNDS} rounds\n`,
  )
  printTable(['operation', 'ours ns', 'pixelbin ns', 'median ratio', 'range'], rows, [
    false,
    true,
    true,
    true,
    true,
  ])
  for (const verdict of verdicts) console.log(`  ${verdict}`)
}
