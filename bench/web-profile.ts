// Profiles a page render under load: starts the real server (as `npm start`, web build required)
// under `node --cpu-prof`, signs an account up when asked, loads one page with autocannon, stops
// the server and prints where its CPU time went (self time by function and by package/file).
// Usage: node web-profile.ts [path] [--signed-in] [--seconds N]   (profile kept in PROFILE_DIR)
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon, { type AutocannonResult } from 'autocannon'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const path = args.find((arg) => arg.startsWith('/')) ?? '/'
const signedIn = args.includes('--signed-in')
const seconds = Number(args[args.indexOf('--seconds') + 1] ?? '') || 15
const profileDir = process.env.PROFILE_DIR ?? (await mkdtemp(join(tmpdir(), 'tessera-prof-')))

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address !== 'object') throw new Error('no port')
  return address.port
}

const port = await freePort()
const origin = `http://127.0.0.1:${port}`
const dataDir = await mkdtemp(join(tmpdir(), 'tessera-prof-data-'))
const child = spawn(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, 'apps/server/src/main.ts'],
  {
    cwd: ROOT,
    env: {
      ...process.env,
      PUBLIC_URL: origin,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
)
const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
for (let i = 0; i < 480; i++) {
  const ok = await fetch(`${origin}/robots.txt`).then(
    (response) => response.ok,
    () => false,
  )
  if (ok) break
  await new Promise((resolve) => setTimeout(resolve, 250))
}
const headers: Record<string, string> = {}
if (signedIn) {
  const response = await fetch(`${origin}/service/panel/users/v1.0/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `profile-${Date.now()}@example.com`,
      password: 'correct horse battery staple 42',
      firstName: 'Profile',
      lastName: 'Run',
    }),
  })
  if (response.status !== 201) throw new Error(`sign-up: ${response.status}`)
  headers.cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
}
const first = await fetch(`${origin}${path}`, { headers })
console.log(
  `${path}${signedIn ? ' signed in' : ''}: ${first.status}, x-page-cache ${first.headers.get('x-page-cache')}`,
)
await first.arrayBuffer()
const result = await new Promise<AutocannonResult>((resolve, reject) => {
  autocannon(
    { url: `${origin}${path}`, connections: 10, duration: seconds, headers },
    (error, done) => (error === null ? resolve(done) : reject(error)),
  )
})
console.log(
  `${(result['2xx'] / seconds).toFixed(1)} req/s, ${result.non2xx} non-2xx, ${result.errors} errors`,
)
child.kill('SIGTERM')
await exited
await rm(dataDir, { recursive: true, force: true })

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
const files = (await readdir(profileDir)).filter((file) => file.endsWith('.cpuprofile'))
const newest = files.sort().at(-1)
if (newest === undefined) throw new Error('no profile written')
const profile = JSON.parse(await readFile(join(profileDir, newest), 'utf8')) as {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}
// Only the samples of the load (the last `seconds` before the server stopped), not its start.
const times: number[] = []
let clock = 0
for (const delta of profile.timeDeltas) {
  clock += delta
  times.push(clock)
}
const from = clock - (seconds + 0.5) * 1e6
const self = new Map<number, number>()
for (const [index, id] of profile.samples.entries()) {
  if ((times[index] ?? 0) < from) continue
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0))
}
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const total = [...self.values()].reduce((a, b) => a + b, 0)
const where = (url: string) => {
  if (url === '') return '(native/vm)'
  const modules = url.lastIndexOf('node_modules/')
  if (modules !== -1) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/')
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url)
  }
  if (url.startsWith('node:')) return url
  return url.replace(/^file:\/\//, '').replace(ROOT, '')
}
const byFunction = new Map<string, number>()
const byPlace = new Map<string, number>()
for (const [id, time] of self) {
  const node = byId.get(id)
  if (node === undefined) continue
  const { functionName, url, lineNumber } = node.callFrame
  const place = where(url)
  const name = `${functionName || '(anonymous)'} ${place}:${lineNumber + 1}`
  byFunction.set(name, (byFunction.get(name) ?? 0) + time)
  byPlace.set(place, (byPlace.get(place) ?? 0) + time)
}
const top = (map: Map<string, number>, count: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n')
console.log(`\nprofile ${join(profileDir, newest)}: ${(total / 1e6).toFixed(1)} s sampled`)
console.log(`\nself time by package or file\n${top(byPlace, 25)}`)
console.log(`\nself time by function\n${top(byFunction, 40)}`)
