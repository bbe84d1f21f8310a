// Counts what a cache miss does beside the render, for `PROFILE_COUNT=1 node delivery-profile.ts`:
// every statement the embedded database runs (and the main thread's CPU inside PGlite's
// WebAssembly), every file operation of node:fs/promises (a libuv pool task and a promise each),
// and garbage collection. Installed before the server is imported, so the server's own bindings
// of node:fs/promises and its PGlite class are the wrapped ones.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import { PerformanceObserver } from 'node:perf_hooks'

export interface Counts {
  /** Statements by their first words (`SELECT … FROM "files"`, `INSERT INTO "derived_images"`). */
  statements: Map<string, number>
  /** Main-thread CPU inside PGlite's wire-protocol calls (its WebAssembly), in microseconds. */
  databaseCpuMicros: number
  /** Calls of each node:fs/promises function and FileHandle method. */
  files: Map<string, number>
  gcCount: number
  gcMs: number
  /** Pauses by kind (scavenge, mark-compact, incremental marking, weak callbacks). */
  gcKinds: Map<string, number>
}

const counts: Counts = {
  statements: new Map(),
  databaseCpuMicros: 0,
  files: new Map(),
  gcCount: 0,
  gcMs: 0,
  gcKinds: new Map(),
}
let counting = false

function add(map: Map<string, number>, key: string): void {
  if (counting) map.set(key, (map.get(key) ?? 0) + 1)
}

/** `SELECT … FROM "files"`: the statement's verb and the first table it names. */
function kindOf(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim()
  const verb = (/^\w+/.exec(text)?.[0] ?? '?').toUpperCase()
  const table = /\b(?:from|into|update)\s+("?[\w.]+"?)/i.exec(text)?.[1]
  return table === undefined ? text.slice(0, 40) : `${verb} … ${table}`
}

const GC_KINDS = new Map([
  [1, 'scavenge'],
  [2, 'mark-compact'],
  [4, 'incremental marking'],
  [8, 'weak callbacks'],
])

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown

function wrap(target: Record<string, unknown>, name: string, label: string): void {
  const original = target[name]
  if (typeof original !== 'function') return
  target[name] = function (this: unknown, ...args: unknown[]) {
    add(counts.files, label)
    return (original as AnyFunction).apply(this, args)
  }
}

/** Wraps PGlite (as resolved from `serverEntry`) and node:fs/promises. */
export async function installCounters(serverEntry: string): Promise<void> {
  const requireFromServer = createRequire(serverEntry)
  const pglitePath = requireFromServer
    .resolve('@electric-sql/pglite')
    .replace(/index\.cjs$/, 'index.js')
  const { PGlite } = (await import(pglitePath)) as typeof import('@electric-sql/pglite')
  const proto = PGlite.prototype as unknown as Record<string, AnyFunction>
  for (const method of ['query', 'exec'] as const) {
    const original = proto[method] as AnyFunction
    proto[method] = function (this: unknown, ...args: unknown[]) {
      add(counts.statements, kindOf(String(args[0])))
      return original.apply(this, args)
    }
  }
  const transaction = proto.transaction as AnyFunction
  proto.transaction = function (this: unknown, ...args: unknown[]) {
    add(counts.statements, 'transaction')
    return transaction.apply(this, args)
  }
  const raw = proto.execProtocolRawSync as AnyFunction
  proto.execProtocolRawSync = function (this: unknown, ...args: unknown[]) {
    const before = process.threadCpuUsage()
    try {
      return raw.apply(this, args)
    } finally {
      const used = process.threadCpuUsage(before)
      if (counting) counts.databaseCpuMicros += used.user + used.system
    }
  }

  const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs')
  const promises = fs.promises as unknown as Record<string, unknown>
  for (const name of Object.keys(promises)) wrap(promises, name, name)
  // FileHandle methods: the class of a handle, found by opening something.
  const handle = await fs.promises.open(import.meta.filename, 'r')
  const handleProto = Object.getPrototypeOf(handle) as Record<string, unknown>
  await handle.close()
  for (const name of ['sync', 'datasync', 'close', 'stat', 'readFile', 'writeFile', 'write']) {
    wrap(handleProto, name, `handle.${name}`)
  }
  syncBuiltinESMExports()

  new PerformanceObserver((list) => {
    if (!counting) return
    for (const entry of list.getEntries()) {
      counts.gcCount++
      counts.gcMs += entry.duration
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind
      const name = GC_KINDS.get(kind ?? 0) ?? `kind ${kind}`
      counts.gcKinds.set(name, (counts.gcKinds.get(name) ?? 0) + 1)
    }
  }).observe({ entryTypes: ['gc'] })
}

/** CPU time of each thread of this process by its name, in clock ticks (Linux `/proc`). */
export function threadTicks(): Map<string, number> {
  const ticks = new Map<string, number>()
  let tasks: string[]
  try {
    tasks = readdirSync('/proc/self/task')
  } catch {
    return ticks
  }
  for (const task of tasks) {
    let stat: string
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8')
    } catch {
      continue // ended meanwhile
    }
    const close = stat.lastIndexOf(')')
    // The name, with a thread's number (`libuv-worker`, `V8 DefaultWorke`) cut off.
    const name = stat.slice(stat.indexOf('(') + 1, close).replace(/[\d-]+$/, '') || '?'
    const fields = stat.slice(close + 2).split(' ')
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name.
    const used = Number(fields[11]) + Number(fields[12])
    ticks.set(name, (ticks.get(name) ?? 0) + used)
  }
  return ticks
}

let ticksAtStart = new Map<string, number>()

/** Starts counting (after the warm-up). */
export function startCounting(): void {
  ticksAtStart = threadTicks()
  counting = true
}

/**
 * CPU per answer of each kind of thread since `startCounting`, in ms. A thread that has ended is
 * missed: the load generator's (its CPU is in the whole process's figure), not the write threads,
 * which outlive a run.
 */
export function describeThreads(answers: number): string[] {
  const ticks = threadTicks()
  const perTick = 1000 / 100 // ms per clock tick (USER_HZ is 100 on Linux)
  const lines = [...ticks]
    .map(
      ([name, used]) =>
        [name, ((used - (ticksAtStart.get(name) ?? 0)) * perTick) / answers] as const,
    )
    .filter(([, ms]) => ms >= 0.005)
    .sort((a, b) => b[1] - a[1])
  return [
    'CPU per answer by thread (ms):',
    ...lines.map(([name, ms]) => `  ${ms.toFixed(2).padStart(6)}  ${name}`),
  ]
}

/** Stops counting and returns what was counted. */
export function stopCounting(): Counts {
  counting = false
  return counts
}

/** The counts per answer, as lines to print. */
export function describeCounts(result: Counts, answers: number): string[] {
  const per = (value: number) => (value / answers).toFixed(2)
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1])
  const statements = [...result.statements.values()].reduce((a, b) => a + b, 0)
  const files = [...result.files.values()].reduce((a, b) => a + b, 0)
  return [
    `database statements per answer: ${per(statements)}; PGlite wasm CPU per answer ${(result.databaseCpuMicros / 1000 / answers).toFixed(3)} ms`,
    ...sorted(result.statements).map(([kind, n]) => `  ${per(n).padStart(6)}  ${kind}`),
    `file operations per answer: ${per(files)}`,
    ...sorted(result.files).map(([name, n]) => `  ${per(n).padStart(6)}  ${name}`),
    `garbage collections per answer: ${per(result.gcCount)} (${(result.gcMs / answers).toFixed(3)} ms of pauses per answer; ${[...result.gcKinds].map(([kind, n]) => `${n} ${kind}`).join(', ')})`,
  ]
}
