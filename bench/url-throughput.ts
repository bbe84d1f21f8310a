// Throughput of @tessera/url against @pixelbin/core (url.bench.ts) with tinybench. One task
// iteration processes the whole input list, so per-call ops/s is (calls per iteration) ×
// (iterations per second).
import { objToUrl, parsePattern, parseTransformations, urlToObj } from '@tessera/url'
import { Bench, type Task } from 'tinybench'
import {
  CORPUS,
  consume,
  consumeText,
  OUR_OBJECTS,
  PATTERN_URLS,
  PATTERNS,
  PEER_OBJECTS,
  peer,
} from './url-corpus.ts'

export interface Row {
  operation: string
  oursTask: string
  peerTask: string
  calls: number
  peerFunction: string
}

export const ROWS: Row[] = [
  {
    operation: 'urlToObj',
    oursTask: 'ours urlToObj',
    peerTask: 'pixelbin urlToObj',
    calls: CORPUS.length,
    peerFunction: 'utils.urlToObj',
  },
  {
    operation: 'objToUrl',
    oursTask: 'ours objToUrl',
    peerTask: 'pixelbin objToUrl',
    calls: CORPUS.length,
    peerFunction: 'utils.objToUrl (result string read, both sides)',
  },
  {
    operation: 'parse pattern (syntax)',
    oursTask: 'ours parseTransformations',
    peerTask: 'pixelbin urlToObj(pattern URL)',
    calls: PATTERNS.length,
    peerFunction: 'utils.urlToObj(`…/v2/demo/<pattern>/a.jpg`).transformations',
  },
  {
    operation: 'parse pattern + catalogue',
    oursTask: 'ours parsePattern',
    peerTask: 'pixelbin urlToObj(pattern URL)',
    calls: PATTERNS.length,
    peerFunction: 'same as above (pixelbin has no catalogue validation)',
  },
]

export async function runThroughput(): Promise<Map<string, Task>> {
  const bench = new Bench({ name: 'url', time: 1500, warmupTime: 300 })
  bench
    .add('ours urlToObj', () => {
      for (const { url, isCustomDomain } of CORPUS) consume(urlToObj(url, { isCustomDomain }))
    })
    .add('pixelbin urlToObj', () => {
      for (const { url, isCustomDomain } of CORPUS) consume(peer.urlToObj(url, { isCustomDomain }))
    })
    .add('ours objToUrl', () => {
      for (const obj of OUR_OBJECTS) consumeText(objToUrl(obj))
    })
    .add('pixelbin objToUrl', () => {
      // Pixelbin writes into its input, but only values it derives from the input itself
      // (pattern, version, zone, values: []), so calling it again on the same object is fair.
      for (const obj of PEER_OBJECTS) consumeText(peer.objToUrl(obj))
    })
    .add('ours parseTransformations', () => {
      for (const pattern of PATTERNS) consume(parseTransformations(pattern))
    })
    .add('ours parsePattern', () => {
      for (const pattern of PATTERNS) consume(parsePattern(pattern))
    })
    .add('pixelbin urlToObj(pattern URL)', () => {
      for (const url of PATTERN_URLS) consume(peer.urlToObj(url).transformations)
    })
  const tasks = await bench.run()
  return new Map(tasks.map((task) => [task.name, task]))
}

export function opsPerSecond(task: Task | undefined, calls: number): { ops: number; rme: number } {
  const result = task?.result
  if (result === undefined || !('latency' in result)) {
    const reason = result?.state === 'errored' ? result.error.message : result?.state
    throw new Error(`task ${task?.name} did not complete: ${reason}`)
  }
  return { ops: (calls * 1000) / result.latency.mean, rme: result.latency.rme }
}

export const fmtOps = (n: number) => Math.round(n).toLocaleString('en-US')
export const fmtRme = (n: number) => `±${n.toFixed(1)}%`
