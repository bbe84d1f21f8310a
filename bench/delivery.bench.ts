// Delivery benchmark: our delivery endpoint over HTTP, cold (every request renders) and warm
// (every request is a derived-image cache hit), against sharp called directly in-process (the
// limit) and against ipx serving the same file over HTTP, in one run, at the same concurrency, on
// two workloads over a 2725 × 2225 JPEG. Run with `npm run bench:delivery -w @tessera/bench`
// (or `npm run bench`, which runs the URL benchmark first). BENCH_SECONDS sets the measured
// seconds of each run (default 10, 1–60); each run has a 3 s warm-up first. BENCH_ONLY=warm runs
// only the warm variant and its bare peer, BENCH_TURNS times in turns (default 3 then, else 1),
// so a busy machine's drift falls on both alike; BENCH_COLD_TURNS does the same for ours cold and
// ipx (default 1). Warm and bare rows also give the CPU time of the server's main thread per
// answer, which other processes' load does not inflate.
//
// Everything runs on this machine: the servers in this process, the load generator (autocannon)
// in a worker thread of it. Client and servers therefore share the same CPUs.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type RequestListener, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_OPTIONS, type Engine } from '@tessera/engine'
import { loadConfig, type RunningServer, startServer } from '@tessera/server'
import { parsePattern } from '@tessera/url'
import { createIPX, createIPXNodeServer, type IPXOptions, ipxFSStorage } from 'ipx'
import type { Sharp, SharpOptions } from 'sharp'
import { type ClientJob, ID_MARK, idColour, MAX_ID, runClient } from './delivery-client.ts'
import { printTable } from './table.ts'

// ---------------------------------------------------------------------------------------------
// Settings.

/**
 * Requests in flight at once, for every variant: 4 HTTP connections, or 4 concurrent in-process
 * calls. This machine has 2 cores: 4 keeps both busy while any one request waits on I/O (HTTP,
 * file read, database), equals libuv's default thread pool (4, where sharp runs), so all 4 direct
 * sharp calls really run at once, and stays small enough that latency is mostly work, not
 * queueing. (Our engine itself runs at most `ENGINE_CONCURRENCY` = cores = 2 pipelines at once
 * and queues the rest; that is part of what is measured.)
 */
const CONCURRENCY = 4
const SECONDS = readSeconds(process.env.BENCH_SECONDS)
/** Only the warm variant and the bare peer (`BENCH_ONLY=warm`). */
const ONLY_WARM = process.env.BENCH_ONLY === 'warm'
/** Turns of warm then bare, per workload. */
const TURNS = readTurns(process.env.BENCH_TURNS, ONLY_WARM ? 3 : 1)
// Turns of ours cold and ipx (each measured BENCH_SECONDS), alternating; their means are reported.
const COLD_TURNS = readTurns(process.env.BENCH_COLD_TURNS, 1)
const WARMUP_SECONDS = 3

const SOURCE_WIDTH = 2725
const SOURCE_HEIGHT = 2225
const OUTPUT_WIDTH = 720
const OUTPUT_HEIGHT = 588
/** The engine's default JPEG settings (packages/engine/src/engine.ts, configureOutput). */
const JPEG = { quality: 80, mozjpeg: false } as const
/** The catalogue's default `t.sharpen` sigma. */
const SHARPEN_SIGMA = 1.5

const TARGETS = { coldVsSharp: 0.8, coldVsIpx: 1, warmRps: 5000, warmP99Ms: 20, warmVsBare: 0.8 }
/** Cores other processes may use during a run before its figures are flagged as disturbed. */
const OTHER_LOAD_LIMIT = 0.1

const CLOUD_NAME = 'demo'
const FILE_PATH = 'bench/big.jpg'
const SAMPLE = fileURLToPath(
  new URL('../apps/server/demo/samples/hubble_deep_field.jpg', import.meta.url),
)

function readTurns(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const turns = Number(value)
  if (!Number.isInteger(turns) || turns < 1 || turns > 20) {
    throw new RangeError(`BENCH_TURNS must be a whole number from 1 to 20, got '${value}'`)
  }
  return turns
}

function readSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return 10
  const seconds = Number(value)
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60) {
    throw new RangeError(`BENCH_SECONDS must be a whole number from 1 to 60, got '${value}'`)
  }
  return seconds
}

// The same sharp as the engine's (0.35, through @tessera/engine's own resolution), not the 0.34
// that ipx bundles. One module instance: the engine's process-wide settings apply to it too.
type SharpFactory = ((input: Buffer, options?: SharpOptions) => Sharp) & {
  versions: { sharp?: string; vips: string }
  concurrency(): number
}
const requireFromEngine = createRequire(import.meta.resolve('@tessera/engine'))
const sharp = requireFromEngine('sharp') as SharpFactory
const requireHere = createRequire(import.meta.url)
const ipxSharp = createRequire(requireHere.resolve('ipx'))('sharp') as SharpFactory

// The engine opens every source with these options (engine.ts, openSource).
const SOURCE_OPTIONS: SharpOptions = {
  autoOrient: true,
  failOn: 'error',
  limitInputPixels: DEFAULT_OPTIONS.maxInputPixels,
}

// ---------------------------------------------------------------------------------------------
// Workloads. `ID_MARK` is where a cold request writes its own id, as the background colour of
// the cover resize: every URL (and so every cache key of ours) is new, while the pixel work
// stays exactly that of the warm URL (a cover resize never paints its background). Direct sharp
// and ipx get the same colour per request, so all three do the same work.

interface Workload {
  id: 'A' | 'B'
  description: string
  /** Our pattern, with `ID_MARK` (cold). */
  pattern: string
  /** Our pattern of the warm runs: the same without the colour. */
  warmPattern: string
  /** The ipx path, with `ID_MARK`. */
  ipx: string
  /** The direct-sharp equivalent, on an image opened with `SOURCE_OPTIONS`. */
  direct: (image: Sharp, background: string) => Sharp
}

const WORKLOADS: readonly Workload[] = [
  {
    id: 'A',
    description: `resize ${SOURCE_WIDTH}×${SOURCE_HEIGHT} → ${OUTPUT_WIDTH}×${OUTPUT_HEIGHT} (cover), JPEG q80`,
    pattern: `t.resize(w:720,h:588,b:${ID_MARK})`,
    warmPattern: 't.resize(w:720,h:588)',
    ipx: `/s_720x588,fit_cover,b_${ID_MARK},q_80/${FILE_PATH}`,
    direct: (image, background) =>
      image.resize({ width: OUTPUT_WIDTH, height: OUTPUT_HEIGHT, fit: 'cover', background }),
  },
  {
    id: 'B',
    description: `resize ${OUTPUT_WIDTH}×${OUTPUT_HEIGHT} → sharpen (σ ${SHARPEN_SIGMA}) → flip, JPEG q80`,
    pattern: `t.resize(w:720,h:588,b:${ID_MARK})~t.sharpen(s:1.5)~t.flip()`,
    warmPattern: 't.resize(w:720,h:588)~t.sharpen(s:1.5)~t.flip()',
    ipx: `/s_720x588,fit_cover,b_${ID_MARK},sharpen_1.5,flip,q_80/${FILE_PATH}`,
    // One sharp pipeline (sharp applies flip before the resize in its fixed order; for a centred
    // cover crop the result is the same picture). Ours runs resize+sharpen, then the flip on the
    // rendered pixels, to keep the chain's order exact.
    direct: (image, background) =>
      image
        .resize({ width: OUTPUT_WIDTH, height: OUTPUT_HEIGHT, fit: 'cover', background })
        .sharpen({ sigma: SHARPEN_SIGMA })
        .flip(),
  },
]

const deliveryPath = (pattern: string) => `/v2/${CLOUD_NAME}/${pattern}/${FILE_PATH}`

type VariantKey = 'sharp' | 'engine' | 'oursCold' | 'oursWarm' | 'bare' | 'ipx' | 'ipxDefault'

const VARIANTS: Readonly<Record<VariantKey, string>> = {
  sharp: 'direct sharp (in-process)',
  engine: 'our engine (in-process, no HTTP)',
  oursCold: 'ours cold (HTTP)',
  oursWarm: 'ours warm (HTTP, cache hit)',
  bare: 'bare node:http, same bytes from memory',
  ipx: 'ipx (HTTP, baseline JPEG as ours)',
  ipxDefault: 'ipx (HTTP, its default: progressive)',
}

// ---------------------------------------------------------------------------------------------
// Measurement.

interface Measured {
  ok: number
  seconds: number
  latencies: Float64Array<ArrayBuffer>
  /** CPU time of the load generator's thread (HTTP runs). */
  cpuSeconds?: number
}

/** A disjoint range of ids for every run, so no URL is requested twice in the whole run. */
let nextId = 0

/** The next request id, as a colour (`idColour` refuses ids past `MAX_ID`). */
const newColour = () => idColour(nextId++)

/**
 * CPU seconds the whole machine has spent busy (Linux `/proc/stat`, in USER_HZ = 1/100 s), to
 * tell how much CPU other processes took during a run; undefined where there is no /proc.
 */
function machineBusySeconds(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? ''
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number)
    // Steal time counts too: on a virtual machine it is CPU other tenants took from this one.
    return (user + nice + system + irq + softirq + steal) / 100
  } catch {
    return undefined
  }
}

/** Runs `work` and measures the CPU other processes used meanwhile, in cores. */
async function withOtherLoad<T>(work: () => Promise<T>): Promise<{ value: T; other?: number }> {
  const machine = machineBusySeconds()
  const own = process.cpuUsage()
  const started = performance.now()
  const value = await work()
  const after = machineBusySeconds()
  if (machine === undefined || after === undefined) return { value }
  const used = process.cpuUsage(own)
  const seconds = (performance.now() - started) / 1000
  const other = (after - machine - (used.user + used.system) / 1e6) / seconds
  return { value, other: Math.max(0, other) }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The direct-sharp call of a workload, with a new colour. */
const directCall = (workload: Workload, input: Buffer) =>
  workload.direct(sharp(input, SOURCE_OPTIONS), `#${newColour()}`).jpeg(JPEG).toBuffer()

/** Our engine's call for a workload, as delivery makes it (pattern parsed per request). */
async function engineCall(workload: Workload, engine: Engine, input: Buffer): Promise<Buffer> {
  const pattern = workload.pattern.replace(ID_MARK, newColour())
  const { value, issues } = parsePattern(pattern, { format: 'jpeg' })
  if (issues.length > 0) throw new Error(`${pattern}: ${issues[0]?.message}`)
  return (await engine.transform({ input, operations: value, autoFormat: false, dpr: 1 })).data
}

/** `CONCURRENCY` async loops of an in-process call; calls ending after the deadline are dropped. */
async function measureInProcess(once: () => Promise<unknown>): Promise<Measured> {
  const run = async (seconds: number, latencies: number[] | undefined) => {
    const started = performance.now()
    const deadline = started + seconds * 1000
    const loop = async () => {
      while (performance.now() < deadline) {
        const start = performance.now()
        await once()
        const end = performance.now()
        if (end <= deadline) latencies?.push(end - start)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, loop))
    return (deadline - started) / 1000
  }
  await run(WARMUP_SECONDS, undefined)
  const latencies: number[] = []
  const seconds = await run(SECONDS, latencies)
  return { ok: latencies.length, seconds, latencies: Float64Array.from(latencies) }
}

/** Runs autocannon in a worker thread: a warm-up, then the measured run. */
async function measureHttp(origin: string, path: string): Promise<Measured> {
  const job: ClientJob = {
    origin,
    path,
    connections: CONCURRENCY,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    firstId: nextId,
  }
  const result = await runClient(job)
  nextId += result.idsUsed
  if (nextId > MAX_ID) throw new RangeError('ran out of request ids')
  if (result.failed > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${origin}${path}: ${result.failed} non-2xx (${JSON.stringify(result.statuses)}), ` +
        `${result.errors} errors, ${result.timeouts} timeouts`,
    )
  }
  return result
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

interface Row {
  workload: Workload
  variant: VariantKey
  rps: number
  p50: number
  p99: number
  count: number
  /** Share of one core used by the load generator (HTTP runs). */
  clientCpu: number | undefined
  /** Cores used by other processes of the machine during the run (warm-up included). */
  otherLoad: number | undefined
  /**
   * CPU time of this process's main thread (where the HTTP servers run) per answer, in ms,
   * warm-up included (warm and bare rows).
   */
  mainCpuMs?: number
}

function toRow(
  workload: Workload,
  variant: VariantKey,
  measured: Measured,
  otherLoad: number | undefined,
): Row {
  const sorted = measured.latencies.slice().sort()
  return {
    workload,
    variant,
    rps: measured.ok / measured.seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    count: measured.ok,
    clientCpu:
      measured.cpuSeconds === undefined ? undefined : measured.cpuSeconds / measured.seconds,
    otherLoad,
  }
}

// ---------------------------------------------------------------------------------------------
// Set-up: the source image, our server with the file stored, two ipx servers.

/** A package's version, read next to its entry point (`exports` may hide its package.json). */
function versionOf(pkg: string): string {
  let directory = dirname(requireHere.resolve(pkg))
  while (!directory.endsWith(join('node_modules', pkg))) {
    const parent = dirname(directory)
    if (parent === directory) throw new Error(`cannot find the folder of ${pkg}`)
    directory = parent
  }
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')).version
}

async function makeSource(): Promise<Buffer> {
  const sample = await readFile(SAMPLE)
  const data = await sharp(sample)
    .resize({ width: SOURCE_WIDTH, height: SOURCE_HEIGHT, fit: 'cover' })
    .jpeg({ quality: 90 })
    .toBuffer()
  const { width, height, format } = await sharp(data).metadata()
  if (width !== SOURCE_WIDTH || height !== SOURCE_HEIGHT || format !== 'jpeg') {
    throw new Error(`source is ${format} ${width}×${height}`)
  }
  return data
}

async function startOurs(dataDir: string, source: Buffer): Promise<RunningServer> {
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      // Cold runs are all cache misses from one address, by design.
      RENDER_LIMIT_PER_MINUTE: '0',
      // Pipelines at once (default: cores), to compare with ipx's own concurrency.
      ...(process.env.ENGINE_CONCURRENCY === undefined
        ? {}
        : { ENGINE_CONCURRENCY: process.env.ENGINE_CONCURRENCY }),
    }),
    port: 0,
  }
  const server = await startServer(config, { databaseDir: 'memory://' })
  try {
    const { repo, storage, engine } = server.services.context
    const organisation = await repo.createOrganisation({ cloudName: CLOUD_NAME, name: 'Bench' })
    const probe = await engine.probe(source)
    const hash = createHash('sha256').update(source).digest('hex')
    const storageKey = `orgs/${organisation.id}/originals/bench-${hash.slice(0, 16)}.jpg`
    await storage.put(storageKey, source, { contentType: 'image/jpeg' })
    await repo.upsertFile(organisation.id, {
      path: FILE_PATH,
      name: 'big.jpg',
      size: source.length,
      format: probe.format,
      contentType: 'image/jpeg',
      width: probe.width,
      height: probe.height,
      hash,
      storageKey,
    })
    return server
  } catch (error) {
    await server.close()
    throw error
  }
}

async function listen(listener: RequestListener): Promise<{ origin: string; server: Server }> {
  const server = createServer(listener)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  if (address === null || typeof address !== 'object') throw new Error('no address')
  return { origin: `http://127.0.0.1:${address.port}`, server }
}

async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

/** ipx over the folder, with its defaults or with baseline JPEG output (as ours writes). */
function startIpx(directory: string, baseline: boolean) {
  type IpxSharpOptions = NonNullable<IPXOptions['sharpOptions']>
  const options: IPXOptions = { storage: ipxFSStorage({ dir: directory }) }
  // ipx's default `sharpOptions` is `{ jpegProgressive: true }`; SharpOptions does not type it.
  if (baseline) options.sharpOptions = { jpegProgressive: false } as unknown as IpxSharpOptions
  return listen(createIPXNodeServer(createIPX(options)))
}

// Headers node:http writes itself (or that describe one connection, not the answer).
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/**
 * The warm peer: a bare node:http server answering every request with the bytes and headers of
 * our warm answer (read once: every header but the connection's own, the request id included),
 * from memory: no routing, no lookup, no cache. The ceiling of a cache hit on this machine.
 */
async function startBarePeer(url: string) {
  const response = await fetch(url)
  const body = Buffer.from(await response.arrayBuffer())
  const headers: Record<string, string> = {}
  for (const [name, value] of response.headers) {
    if (!CONNECTION_HEADERS.has(name)) headers[name] = value
  }
  headers['content-length'] = String(body.length)
  let answered = 0
  const peer = await listen((_request, answer) => {
    answered++
    answer.writeHead(200, headers)
    answer.end(body)
  })
  return { ...peer, answered: () => answered }
}

/** Ours: how many delivery requests were cache hits and misses so far. */
async function cacheCounts(server: RunningServer): Promise<{ hit: number; miss: number }> {
  const metric = await server.services.context.metrics.cache.get()
  const count = (result: string) =>
    metric.values.find((value) => value.labels.result === result)?.value ?? 0
  return { hit: count('hit'), miss: count('miss') }
}

/** One request of each variant: 200, a 720×588 JPEG; returns its size and whether progressive. */
async function sample(url: string): Promise<{ bytes: number; progressive: boolean }> {
  const response = await fetch(url)
  const data = Buffer.from(await response.arrayBuffer())
  return check(url, response.status, response.headers.get('content-type'), data)
}

async function check(
  what: string,
  status: number,
  contentType: string | null,
  data: Buffer,
): Promise<{ bytes: number; progressive: boolean }> {
  if (status !== 200 || contentType?.startsWith('image/jpeg') !== true) {
    throw new Error(`${what}: ${status} ${contentType} ${data.subarray(0, 200).toString()}`)
  }
  const metadata = await sharp(data).metadata()
  if (metadata.width !== OUTPUT_WIDTH || metadata.height !== OUTPUT_HEIGHT) {
    throw new Error(`${what}: ${metadata.width}×${metadata.height}, not 720×588`)
  }
  return { bytes: data.length, progressive: metadata.isProgressive === true }
}

// ---------------------------------------------------------------------------------------------
// Output.

const fmtRps = (n: number) =>
  n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 100 ? 0 : 1)
const fmtMs = (n: number) => n.toFixed(n >= 100 ? 0 : n >= 10 ? 1 : 2)
const fmtRatio = (n: number) => `${n.toFixed(2)}×`
const met = (ok: boolean) => (ok ? 'MET' : 'NOT MET')

function report(rows: readonly Row[], turnRatios: ReadonlyMap<string, number[]>): void {
  console.log(
    `\nResults (${CONCURRENCY} requests in flight for every variant; ${SECONDS} s measured after ` +
      `${WARMUP_SECONDS} s warm-up; latency in ms; client and servers share the same ` +
      `${availableParallelism()} cores` +
      (TURNS > 1 ? `; warm and bare: means of ${TURNS} turns each, in turns` : '') +
      ')\n',
  )
  printTable(
    [
      'workload',
      'variant',
      'req/s',
      'p50 ms',
      'p99 ms',
      'requests',
      'client CPU',
      'main thread CPU/answer',
      'other load',
    ],
    rows.map((row) => [
      row.workload.id,
      VARIANTS[row.variant],
      fmtRps(row.rps),
      fmtMs(row.p50),
      fmtMs(row.p99),
      row.count.toLocaleString('en-US'),
      row.clientCpu === undefined ? '—' : `${Math.round(row.clientCpu * 100)}%`,
      row.mainCpuMs === undefined ? '—' : `${(row.mainCpuMs * 1000).toFixed(0)} µs`,
      row.otherLoad === undefined ? '?' : row.otherLoad.toFixed(2),
    ]),
    [false, false, true, true, true, true, true, true, true],
  )
  console.log(
    '\nclient CPU: CPU time of the load generator thread over the run, in % of one core (taken ' +
      'from the same cores as the servers). main thread CPU/answer: CPU time of the thread the ' +
      'HTTP servers run on, per answer (warm-up included). other load: cores used by other ' +
      `processes of the machine meanwhile; above ${OTHER_LOAD_LIMIT.toFixed(2)} the row is ` +
      'disturbed.',
  )
  const disturbed = rows.filter((row) => (row.otherLoad ?? 0) > OTHER_LOAD_LIMIT)
  if (disturbed.length > 0) {
    console.log(
      `WARNING: other processes used CPU during ${disturbed.length} run(s) ` +
        `(${disturbed.map((row) => `${row.workload.id} ${row.variant}`).join(', ')}); ` +
        'their figures are low. Run again on a quiet machine.',
    )
  }
  const ratioRows: string[][] = []
  const verdicts: string[] = []
  for (const workload of WORKLOADS) {
    const find = (variant: VariantKey) =>
      rows.find((r) => r.workload === workload && r.variant === variant)
    // A verdict over a run that other processes disturbed says so: its figures are not this
    // machine's capacity.
    const caveat = (...compared: Row[]) =>
      compared.some((row) => (row.otherLoad ?? 0) > OTHER_LOAD_LIMIT)
        ? ' — UNRELIABLE: other processes used CPU during a run compared here'
        : ''
    const ratio = (a: Row | undefined, b: Row | undefined) =>
      a === undefined || b === undefined ? undefined : a.rps / b.rps
    const fmt = (value: number | undefined) => (value === undefined ? '—' : fmtRatio(value))
    const sharpRow = find('sharp')
    const ipxRow = find('ipx')
    const cold = find('oursCold')
    const warm = find('oursWarm')
    const bareRow = find('bare')
    const vsSharp = ratio(cold, sharpRow)
    const vsIpx = ratio(cold, ipxRow)
    const vsIpxDefault = ratio(cold, find('ipxDefault'))
    const vsBare = ratio(warm, bareRow)
    // Bare's CPU per answer over ours: how much of a bare server's speed ours would reach if the
    // main thread were the only limit.
    const cpuVsBare =
      warm?.mainCpuMs === undefined || bareRow?.mainCpuMs === undefined
        ? undefined
        : bareRow.mainCpuMs / warm.mainCpuMs
    ratioRows.push([
      workload.id,
      fmt(ratio(find('engine'), sharpRow)),
      fmt(vsSharp),
      fmt(vsIpx),
      fmt(vsIpxDefault),
      fmt(vsBare),
      fmt(cpuVsBare),
    ])
    if (cold !== undefined && sharpRow !== undefined && vsSharp !== undefined) {
      verdicts.push(
        `${workload.id}: ours cold ≥ ${TARGETS.coldVsSharp}× direct sharp: ` +
          `${met(vsSharp >= TARGETS.coldVsSharp)} (${fmtRatio(vsSharp)})${caveat(cold, sharpRow)}`,
      )
    }
    if (cold !== undefined && ipxRow !== undefined && vsIpx !== undefined) {
      verdicts.push(
        `${workload.id}: ours cold ≥ ${TARGETS.coldVsIpx}× ipx: ${met(vsIpx >= TARGETS.coldVsIpx)} ` +
          `(${fmtRatio(vsIpx)} against ipx with the same baseline JPEG output; ` +
          `${fmt(vsIpxDefault)} against ipx's progressive default)${caveat(cold, ipxRow)}`,
      )
    }
    if (warm !== undefined) {
      const warmMet = warm.rps >= TARGETS.warmRps && warm.p99 < TARGETS.warmP99Ms
      verdicts.push(
        `${workload.id}: ours warm ≥ ${TARGETS.warmRps.toLocaleString('en-US')} req/s with p99 < ` +
          `${TARGETS.warmP99Ms} ms: ${met(warmMet)} (${fmtRps(warm.rps)} req/s, ` +
          `p99 ${fmtMs(warm.p99)} ms)${caveat(warm)}`,
      )
    }
    if (warm !== undefined && bareRow !== undefined && vsBare !== undefined) {
      const turns = turnRatios.get(workload.id) ?? []
      verdicts.push(
        `${workload.id}: ours warm ≥ ${TARGETS.warmVsBare}× a bare node:http server sending the ` +
          `same bytes: ${met(vsBare >= TARGETS.warmVsBare)} (${fmtRatio(vsBare)}: ` +
          `${fmtRps(warm.rps)} against ${fmtRps(bareRow.rps)} req/s` +
          (turns.length > 1 ? `; per turn ${turns.map(fmtRatio).join(', ')}` : '') +
          (cpuVsBare === undefined
            ? ''
            : `; main-thread CPU per answer: bare / ours ${fmtRatio(cpuVsBare)}`) +
          `)${caveat(warm, bareRow)}`,
      )
    }
  }
  console.log('\nRatios of throughput\n')
  printTable(
    [
      'workload',
      'engine / direct sharp',
      'ours cold / direct sharp',
      'ours cold / ipx',
      'ours cold / ipx default',
      'ours warm / bare',
      'bare / ours warm, CPU per answer',
    ],
    ratioRows,
    [false, true, true, true, true, true, true],
  )
  console.log('\nTargets')
  for (const verdict of verdicts) console.log(`  ${verdict}`)
}

/** The turns of one variant as one row: means, and the most disturbed turn's other load. */
function pooled(turns: readonly Row[]): Row {
  const first = turns[0]
  if (first === undefined) throw new Error('no turns')
  const mean = (pick: (row: Row) => number | undefined) => {
    const values = turns.map(pick).filter((value): value is number => value !== undefined)
    return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length
  }
  const row: Row = {
    workload: first.workload,
    variant: first.variant,
    rps: mean((r) => r.rps) as number,
    p50: mean((r) => r.p50) as number,
    p99: mean((r) => r.p99) as number,
    count: turns.reduce((sum, r) => sum + r.count, 0),
    clientCpu: mean((r) => r.clientCpu),
    otherLoad: turns.some((r) => r.otherLoad === undefined)
      ? undefined
      : Math.max(...turns.map((r) => r.otherLoad as number)),
  }
  const cpu = mean((r) => r.mainCpuMs)
  if (cpu !== undefined) row.mainCpuMs = cpu
  return row
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  console.log(
    `Delivery benchmark — Node ${process.version}, ${availableParallelism()} CPUs (${cpu}), ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB`,
  )
  console.log(
    `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}, concurrency ${sharp.concurrency()}) ` +
      `for ours and direct; ipx ${versionOf('ipx')} with its own sharp ${ipxSharp.versions.sharp} ` +
      `(libvips ${ipxSharp.versions.vips}, concurrency ${ipxSharp.concurrency()}); ` +
      `autocannon ${versionOf('autocannon')}`,
  )
  console.log(
    `Load: ${CONCURRENCY} connections (HTTP) or ${CONCURRENCY} concurrent calls (in-process); ` +
      'the load generator runs in a worker thread of this process, so it shares the CPUs with the ' +
      'servers.',
  )

  const root = await mkdtemp(join(tmpdir(), 'tessera-delivery-bench-'))
  const servers: Array<() => Promise<void>> = []
  try {
    const source = await makeSource()
    const ipxRoot = join(root, 'ipx')
    await mkdir(join(ipxRoot, dirname(FILE_PATH)), { recursive: true })
    await writeFile(join(ipxRoot, FILE_PATH), source)
    console.log(
      `Source: ${SOURCE_WIDTH}×${SOURCE_HEIGHT} JPEG q90, ${(source.length / 1024).toFixed(0)} KiB ` +
        '(hubble_deep_field.jpg enlarged)\n',
    )

    const ours = await startOurs(join(root, 'data'), source)
    servers.push(() => ours.close())
    const ipx = await startIpx(ipxRoot, true)
    servers.push(() => closeServer(ipx.server))
    const ipxDefault = await startIpx(ipxRoot, false)
    servers.push(() => closeServer(ipxDefault.server))

    // Sanity: every variant answers a 720×588 JPEG; sizes show the outputs are alike.
    const outputs: string[][] = []
    for (const workload of WORKLOADS) {
      const direct = await directCall(workload, source)
      const viaEngine = await engineCall(workload, ours.services.context.engine, source)
      const cold = deliveryPath(workload.pattern)
      const checks: Array<[VariantKey, { bytes: number; progressive: boolean }]> = [
        ['sharp', await check('direct sharp', 200, 'image/jpeg', direct)],
        ['engine', await check('engine', 200, 'image/jpeg', viaEngine)],
        ['oursCold', await sample(ours.url + cold.replace(ID_MARK, newColour()))],
        ['oursWarm', await sample(ours.url + deliveryPath(workload.warmPattern))],
        ['ipx', await sample(ipx.origin + workload.ipx.replace(ID_MARK, newColour()))],
        [
          'ipxDefault',
          await sample(ipxDefault.origin + workload.ipx.replace(ID_MARK, newColour())),
        ],
      ]
      for (const [variant, output] of checks) {
        outputs.push([
          workload.id,
          VARIANTS[variant],
          output.bytes.toLocaleString('en-US'),
          output.progressive ? 'progressive' : 'baseline',
        ])
      }
    }
    console.log('Outputs (one request each; all 720×588 JPEG)\n')
    printTable(['workload', 'variant', 'bytes', 'JPEG'], outputs, [false, false, true, false])
    console.log(`\nURLs (${ID_MARK} = a new 6-hex-digit colour per request)`)
    for (const workload of WORKLOADS) {
      console.log(`  ${workload.id}: ${workload.description}`)
      console.log(`     ours cold  ${deliveryPath(workload.pattern)}`)
      console.log(`     ours warm  ${deliveryPath(workload.warmPattern)}`)
      console.log(`     ipx        ${workload.ipx}`)
    }
    console.log('')

    const rows: Row[] = []
    const turnRatios = new Map<string, number[]>()
    for (const workload of WORKLOADS) {
      /** Measures a variant; with `answered`, also the main thread's CPU per answer. */
      const step = async (
        variant: VariantKey,
        run: () => Promise<Measured>,
        answered?: () => Promise<number> | number,
      ): Promise<Row> => {
        process.stdout.write(`  ${workload.id} ${VARIANTS[variant]} … `)
        const answersBefore = answered === undefined ? 0 : await answered()
        const cpu = process.threadCpuUsage()
        const { value, other } = await withOtherLoad(run)
        const used = process.threadCpuUsage(cpu)
        const row = toRow(workload, variant, value, other)
        const answers = answered === undefined ? 0 : (await answered()) - answersBefore
        if (answers > 0) row.mainCpuMs = (used.user + used.system) / 1000 / answers
        console.log(
          `${fmtRps(row.rps)} req/s, p50 ${fmtMs(row.p50)} ms, p99 ${fmtMs(row.p99)} ms` +
            (row.mainCpuMs === undefined
              ? ''
              : `, main thread ${(row.mainCpuMs * 1000).toFixed(0)} µs CPU/answer`) +
            (other === undefined ? '' : `, other load ${other.toFixed(2)} cores`),
        )
        await sleep(500)
        return row
      }
      if (!ONLY_WARM) {
        const engine = ours.services.context.engine
        rows.push(await step('sharp', () => measureInProcess(() => directCall(workload, source))))
        rows.push(
          await step('engine', () => measureInProcess(() => engineCall(workload, engine, source))),
        )

        // Ours cold and ipx in turns (BENCH_COLD_TURNS), so drift of the machine falls on both.
        const coldTurns: Row[] = []
        const ipxTurns: Row[] = []
        const ipxDefaultTurns: Row[] = []
        for (let turn = 0; turn < COLD_TURNS; turn++) {
          const before = await cacheCounts(ours)
          const cold = await step('oursCold', () =>
            measureHttp(ours.url, deliveryPath(workload.pattern)),
          )
          const after = await cacheCounts(ours)
          if (after.hit !== before.hit || after.miss - before.miss < cold.count) {
            throw new Error(`cold run was not all misses: ${JSON.stringify({ before, after })}`)
          }
          console.log(`    (${after.miss - before.miss} cache misses, 0 hits, warm-up included)`)
          coldTurns.push(cold)
          ipxTurns.push(await step('ipx', () => measureHttp(ipx.origin, workload.ipx)))
          ipxDefaultTurns.push(
            await step('ipxDefault', () => measureHttp(ipxDefault.origin, workload.ipx)),
          )
        }
        rows.push(pooled(coldTurns), pooled(ipxTurns), pooled(ipxDefaultTurns))
      }

      // Warm and bare in turns: drift of the machine's load falls on both alike.
      const warmPath = deliveryPath(workload.warmPattern)
      const bare = await startBarePeer(ours.url + warmPath)
      const warmTurns: Row[] = []
      const bareTurns: Row[] = []
      for (let turn = 0; turn < TURNS; turn++) {
        const before = await cacheCounts(ours)
        const warm = await step(
          'oursWarm',
          () => measureHttp(ours.url, warmPath),
          async () => (await cacheCounts(ours)).hit,
        )
        const after = await cacheCounts(ours)
        if (after.miss !== before.miss) {
          throw new Error(`warm run had misses: ${JSON.stringify({ before, after })}`)
        }
        console.log(`    (${after.hit - before.hit} cache hits, 0 misses, warm-up included)`)
        const peer = await step(
          'bare',
          () => measureHttp(bare.origin, warmPath),
          () => bare.answered(),
        )
        warmTurns.push(warm)
        bareTurns.push(peer)
      }
      await closeServer(bare.server)
      turnRatios.set(
        workload.id,
        warmTurns.map((warm, turn) => warm.rps / (bareTurns[turn] as Row).rps),
      )
      rows.push(pooled(warmTurns), pooled(bareTurns))
    }
    report(rows, turnRatios)
  } finally {
    for (const close of servers.reverse()) await close()
    await rm(root, { recursive: true, force: true })
  }
}

await main()
