// Summarises a V8 CPU profile (`node --cpu-prof`): self time by function and by where its code
// lives (node internals, a dependency, our packages), the top of each, as docs/benchmarks.md
// quotes it. Usage: `node bench/cpu-profile-summary.ts FILE.cpuprofile [TOP]`.
import { readFileSync } from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}

const [file, topArg] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: cpu-profile-summary.ts FILE [TOP]')
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const self = new Map<number, number>()
profile.samples.forEach((id, index) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0))
})
const total = [...self.values()].reduce((a, b) => a + b, 0)

function area(url: string, name: string): string {
  if (name === '(idle)') return 'idle'
  if (name === '(garbage collector)') return 'GC'
  if (name === '(program)') return 'program (native, not JS)'
  if (url === '') return 'native/builtin'
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (dependency) return dependency[1] as string
  const ours = /(apps|packages)\/([^/]+)\/src\/(.*)$/.exec(url)
  if (ours) return `${ours[1]}/${ours[2]}/${(ours[3] as string).split('/')[0]}`
  return url
}

const functions = new Map<string, number>()
const areas = new Map<string, number>()
for (const [id, time] of self) {
  const node = byId.get(id)
  if (node === undefined) continue
  const { functionName, url, lineNumber } = node.callFrame
  const name = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}`
  functions.set(name, (functions.get(name) ?? 0) + time)
  const where = area(url, functionName)
  areas.set(where, (areas.get(where) ?? 0) + time)
}
const top = Number(topArg ?? 25)
const print = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title}`)
  for (const [name, time] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((100 * time) / total).toFixed(1).padStart(5)}%  ${(time / 1000).toFixed(0).padStart(6)} ms  ${name}`,
    )
  }
}
console.log(`${(total / 1e6).toFixed(1)} s sampled`)
print('Self time by area', areas)
print('Self time by function', functions)
