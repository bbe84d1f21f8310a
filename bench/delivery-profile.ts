// Profile of a cache miss: our server in this process, every request a new render (workload A of
// delivery.bench.ts), driven by autocannon in a worker thread for PROFILE_SECONDS (default 10).
// The main thread is profiled during the measured run only (start-up and migrations left out),
// into PROFILE_OUT (default delivery-miss.cpuprofile in the temporary folder); summarise it with
// `node bench/cpu-profile-summary.ts FILE`. While it runs, it samples libvips'
// queue (`sharp.counters()`: tasks waiting for and running on libuv's pool) every 10 ms, and
// prints how often the pool had work waiting, the figures docs/benchmarks.md quotes.
// PROFILE_COUNT=1: no profile; counts per answer what a miss does beside the render instead
// (database statements, file operations, garbage collections: delivery-count.ts).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { createRequire } from 'node:module'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ClientJob, runClient } from './delivery-client.ts'
import { storeJpegSource } from './store-source.ts'

// PROFILE_SERVER: another copy of apps/server/src/index.ts (an older commit, to compare).
const SERVER = process.env.PROFILE_SERVER || '@tessera/server'
const COUNT = process.env.PROFILE_COUNT === '1'
const counter = COUNT ? await import('./delivery-count.ts') : undefined
await counter?.installCounters(
  process.env.PROFILE_SERVER || new URL(import.meta.resolve('@tessera/server')).pathname,
)
const { loadConfig, startServer } = (await import(SERVER)) as typeof import('@tessera/server')
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10)
// PROFILE_WORKLOAD=widths: cold-widths.bench.ts's work instead (new widths of a 1000 px JPEG);
// PROFILE_WORKLOAD=many: the same on 400 distinct 1000 px JPEGs, each asked twice in a row
// (cold-widths.bench.ts with BENCH_COLD_WORKLOAD=many: a miss on a source not seen for a while).
const MANY = process.env.PROFILE_WORKLOAD === 'many'
const WIDTHS = MANY || process.env.PROFILE_WORKLOAD === 'widths'
const SOURCES = MANY ? { count: 400, asks: 2 } : { count: 1, asks: 1 }
const FILE_PATH = MANY ? 'many/{src}.jpg' : 'bench/big.jpg'
const SAMPLE = new URL('../apps/server/demo/samples/hubble_deep_field.jpg', import.meta.url)
const requireFromEngine = createRequire(import.meta.resolve('@tessera/engine'))
const sharp = requireFromEngine('sharp') as typeof import('sharp').default

const root = await mkdtemp(join(tmpdir(), 'tessera-delivery-profile-'))
const server = await startServer(
  {
    ...loadConfig({
      DATA_DIR: join(root, 'data'),
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      RENDER_LIMIT_PER_MINUTE: '0',
      // The engine's and the lookups' settings, when given, as `npm start` would read them.
      ...Object.fromEntries(
        [
          'ENGINE_CONCURRENCY',
          'ENGINE_DECODED_CACHE_MB',
          'HOT_CACHE_MB',
          'LOOKUP_TTL_MS',
          'DERIVED_STORE_MAX_BYTES',
        ].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])),
      ),
    }),
    port: 0,
  },
  { databaseDir: 'memory://' },
)
try {
  const sample = await readFile(SAMPLE)
  const { width: sampleWidth = 0, height: sampleHeight = 0 } = await sharp(sample).metadata()
  const { repo } = server.services.context
  const organisation = await repo.createOrganisation({ cloudName: 'demo', name: 'Profile' })
  for (let index = 0; index < SOURCES.count; index++) {
    // Many sources: crops of the sample at their own offsets, as cold-widths.bench.ts makes them.
    const [width, height] = [Math.floor(sampleWidth * 0.9), Math.floor(sampleHeight * 0.9)]
    const left = index % (sampleWidth - width)
    const top = Math.floor(index / (sampleWidth - width)) % (sampleHeight - height)
    const image = MANY ? sharp(sample).extract({ left, top, width, height }) : sharp(sample)
    const source = await image
      .resize(WIDTHS ? { width: 1000 } : { width: 2725, height: 2225, fit: 'cover' })
      .jpeg({ quality: 90 })
      .toBuffer()
    await storeJpegSource(
      server.services.context,
      organisation.id,
      {
        path: FILE_PATH.replace('{src}', String(index)),
        name: `${index}.jpg`,
        storageKey: `orgs/${organisation.id}/originals/profile-${index}.jpg`,
      },
      source,
    )
  }

  let samples = 0
  let waiting = 0
  let running = 0
  const sampler = setInterval(() => {
    const counters = sharp.counters()
    samples++
    running += counters.process
    if (counters.queue > 0) waiting++
  }, 10)
  const job: ClientJob = {
    origin: server.url,
    path: WIDTHS
      ? `/v2/demo/t.resize(w:{w},b:{id})~t.toFormat(f:jpeg,q:80)/${FILE_PATH}`
      : `/v2/demo/t.resize(w:720,h:588,b:{id})/${FILE_PATH}`,
    connections: 4,
    warmupSeconds: 2,
    seconds: SECONDS,
    firstId: 1,
    sources: SOURCES,
  }
  const inspector = new Session()
  inspector.connect()
  await inspector.post('Profiler.enable')
  let profiling = false
  // CPU from the end of the warm-up (as the profile): of the main thread, and of the whole
  // process (libvips' and libuv's threads, and the client's worker, included).
  let cpu = process.threadCpuUsage()
  let processCpu = process.cpuUsage()
  let startProfile: NodeJS.Timeout | undefined
  // The client warms up first; the profile covers the measured seconds.
  const result = await runClient(job, () => {
    startProfile = setTimeout(() => {
      cpu = process.threadCpuUsage()
      processCpu = process.cpuUsage()
      if (counter !== undefined) {
        counter.startCounting()
        return
      }
      profiling = true
      void inspector.post('Profiler.start')
    }, job.warmupSeconds * 1000)
  })
  // The answered misses' writes and index rows run after their answers: they are part of what
  // a miss costs, so the CPU is read once they are done.
  await server.services.delivery.settle()
  const usedByProcess = process.cpuUsage(processCpu)
  const used = process.threadCpuUsage(cpu)
  clearTimeout(startProfile)
  clearInterval(sampler)
  const counted = counter?.stopCounting()
  if (profiling) {
    const { profile } = await inspector.post('Profiler.stop')
    const out = process.env.PROFILE_OUT ?? join(tmpdir(), 'delivery-miss.cpuprofile')
    await writeFile(out, JSON.stringify(profile))
    console.log(`profile of the main thread: ${out}`)
  }
  inspector.disconnect()
  const answers = result.ok
  console.log(
    `server ${process.env.PROFILE_SERVER || 'this worktree'}; ${availableParallelism()} CPUs, load ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}; UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}, ` +
      `sharp.concurrency ${sharp.concurrency()}`,
  )
  console.log(
    `${answers} misses in ${result.seconds.toFixed(1)} s (${(answers / result.seconds).toFixed(1)}/s), ` +
      `${result.failed} failed; CPU per answer: main thread ${((used.user + used.system) / 1000 / answers).toFixed(2)} ms, ` +
      `whole process ${((usedByProcess.user + usedByProcess.system) / 1000 / answers).toFixed(2)} ms ` +
      '(from the end of the warm-up until their writes and index rows are in)',
  )
  if (counted !== undefined) {
    for (const line of counter?.describeCounts(counted, answers) ?? []) console.log(line)
    for (const line of counter?.describeThreads(answers) ?? []) console.log(line)
  }
  console.log(
    `libvips tasks running on the pool: ${(running / samples).toFixed(2)} on average; ` +
      `tasks waiting for a pool thread in ${((100 * waiting) / samples).toFixed(0)}% of samples`,
  )
} finally {
  await server.close()
  await rm(root, { recursive: true, force: true })
}
