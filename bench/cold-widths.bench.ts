// New widths of a 1000 px JPEG, every request a new render: our delivery (cache misses, over
// HTTP), sharp called in-process (the limit), nginx's image_filter (libgd, Debian's module; when
// installed) and ipx, in alternating turns so that a busy machine's drift falls on all alike.
// Every request asks a width from 200 to 999 px (`widthOf`), JPEG q80 baseline everywhere.
// BENCH_SECONDS (default 8) per run after a 2 s warm-up, BENCH_COLD_TURNS turns (default 3).
// `ours, reuse off` is the same server with ENGINE_DECODED_CACHE_MB=0 (decision 023).
// BENCH_COLD_WORKLOAD=many asks new widths of SOURCES distinct 1000 px JPEGs instead of one, each
// twice in a row (BENCH_COLD_ASKS), so that decoded sources cannot be reused: what keeping them
// costs where it cannot help (they outnumber the hot originals, so each comes back a new Buffer).
// The process sizes libuv's pool as `npm start` does (thread-pool.ts; UV_THREADPOOL_SIZE wins).
// Run: `npm run bench:cold-widths -w @tessera/bench`.
import '../apps/server/src/platform/thread-pool.ts'
import { createHash } from 'node:crypto'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { loadConfig, startServer } from '@tessera/server'
import { createIPX, createIPXNodeServer, type IPXOptions, ipxFSStorage } from 'ipx'
import { type ClientJob, runClient, type Sources, sourceOf, widthOf } from './delivery-client.ts'
import { nginxAvailable, startNginx } from './nginx-peer.ts'
import { printTable } from './table.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const TURNS = Number(process.env.BENCH_COLD_TURNS ?? 3)
const WARMUP_SECONDS = 2
const CONCURRENCY = 4
const MANY = process.env.BENCH_COLD_WORKLOAD === 'many'
const SOURCES: Sources = MANY
  ? {
      count: Number(process.env.BENCH_COLD_SOURCES ?? 400),
      asks: Number(process.env.BENCH_COLD_ASKS ?? 2),
    }
  : { count: 1, asks: 1 }
const FILE_PATH = MANY ? 'many/{src}.jpg' : 'bench/small.jpg'
const SAMPLE = new URL('../apps/server/demo/samples/hubble_deep_field.jpg', import.meta.url)
const sharp = createRequire(import.meta.resolve('@tessera/engine'))(
  'sharp',
) as typeof import('sharp').default

type Variant = 'sharp' | 'ours' | 'off' | 'nginx' | 'ipx'
const LABELS: Record<Variant, string> = {
  sharp: 'direct sharp (in-process)',
  ours: 'ours cold (HTTP)',
  off: 'ours cold, reuse off (HTTP)',
  nginx: 'nginx image_filter (HTTP)',
  ipx: 'ipx (HTTP, baseline JPEG)',
}

let nextId = 1

async function inProcess(sources: Buffer[]): Promise<{ ok: number; seconds: number }> {
  const run = async (seconds: number) => {
    const deadline = performance.now() + seconds * 1000
    let ok = 0
    const loop = async () => {
      while (performance.now() < deadline) {
        const id = nextId++
        await sharp(sources[sourceOf(id, SOURCES)] as Buffer, { autoOrient: true, failOn: 'error' })
          .resize({ width: widthOf(id) })
          .jpeg({ quality: 80, mozjpeg: false })
          .toBuffer()
        if (performance.now() <= deadline) ok++
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, loop))
    return { ok, seconds }
  }
  await run(WARMUP_SECONDS)
  return run(SECONDS)
}

async function overHttp(origin: string, path: string): Promise<{ ok: number; seconds: number }> {
  const job: ClientJob = {
    origin,
    path,
    connections: CONCURRENCY,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    firstId: nextId,
    sources: SOURCES,
  }
  const result = await runClient(job)
  nextId += result.idsUsed
  if (result.failed > 0 || result.errors > 0) {
    throw new Error(`${origin}${path}: ${JSON.stringify(result.statuses)}, ${result.errors} errors`)
  }
  return { ok: result.ok, seconds: result.seconds }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address !== 'object') throw new Error('no address')
  return `http://127.0.0.1:${address.port}`
}

const root = await mkdtemp(join(tmpdir(), 'tessera-cold-widths-'))
// nginx's workers run as another user: they must be able to walk to the files.
await chmod(root, 0o755)
const stops: Array<() => Promise<unknown>> = []
try {
  const sample = await readFile(SAMPLE)
  const { width: sampleWidth = 0, height: sampleHeight = 0 } = await sharp(sample).metadata()
  // Many sources: crops of the sample (9/10 of it, each at its own offset), made 1000 px wide.
  const sources: Buffer[] = []
  for (let index = 0; index < SOURCES.count; index++) {
    const [width, height] = [Math.floor(sampleWidth * 0.9), Math.floor(sampleHeight * 0.9)]
    const left = index % (sampleWidth - width)
    const top = Math.floor(index / (sampleWidth - width)) % (sampleHeight - height)
    const image = MANY ? sharp(sample).extract({ left, top, width, height }) : sharp(sample)
    sources.push(await image.resize({ width: 1000 }).jpeg({ quality: 90 }).toBuffer())
  }
  const source = sources[0] as Buffer
  const files = join(root, 'files')
  const fileOf = (index: number) => FILE_PATH.replace('{src}', String(index))
  await mkdir(join(files, dirname(fileOf(0))), { recursive: true })
  for (const [index, data] of sources.entries()) await writeFile(join(files, fileOf(index)), data)

  const startOurs = async (name: string, decodedCacheMb: string) => {
    const server = await startServer(
      {
        ...loadConfig({
          DATA_DIR: join(root, name),
          LOG_LEVEL: 'silent',
          SEED_DEMO: 'false',
          RENDER_LIMIT_PER_MINUTE: '0',
          ENGINE_DECODED_CACHE_MB: decodedCacheMb,
          ...(process.env.ENGINE_CONCURRENCY === undefined
            ? {}
            : { ENGINE_CONCURRENCY: process.env.ENGINE_CONCURRENCY }),
        }),
        port: 0,
      },
      { databaseDir: 'memory://' },
    )
    stops.push(() => server.close())
    const { repo, storage, engine } = server.services.context
    const organisation = await repo.createOrganisation({ cloudName: 'demo', name: 'Bench' })
    for (const [index, data] of sources.entries()) {
      const probe = await engine.probe(data)
      const storageKey = `orgs/${organisation.id}/originals/${index}.jpg`
      await storage.put(storageKey, data, { contentType: 'image/jpeg' })
      await repo.upsertFile(organisation.id, {
        path: fileOf(index),
        name: `${index}.jpg`,
        size: data.length,
        format: probe.format,
        contentType: 'image/jpeg',
        width: probe.width,
        height: probe.height,
        hash: createHash('sha256').update(data).digest('hex'),
        storageKey,
      })
    }
    return server
  }
  const ours = await startOurs('data', process.env.ENGINE_DECODED_CACHE_MB ?? '64')
  const off = await startOurs('data-off', '0')

  type IpxSharpOptions = NonNullable<IPXOptions['sharpOptions']>
  const ipxServer = createServer(
    createIPXNodeServer(
      createIPX({
        storage: ipxFSStorage({ dir: files }),
        sharpOptions: { jpegProgressive: false } as unknown as IpxSharpOptions,
      }),
    ),
  )
  const ipxOrigin = await listen(ipxServer)
  stops.push(() => new Promise((resolve) => ipxServer.close(resolve)))

  const nginx = nginxAvailable()
    ? await startNginx(files, join(root, 'nginx'), {
        // One worker per connection, as our engine runs one pipeline per request (4 at once):
        // each worker renders one image at a time, and on a loaded machine the scheduler shares
        // CPU by thread, so fewer workers than our threads would understate nginx.
        workers: CONCURRENCY,
        quality: 80,
      })
    : undefined
  if (nginx !== undefined) stops.push(nginx.stop)

  // A new width per request, and a new colour (never painted by a plain resize) so no key repeats.
  const oursPath = `/v2/demo/t.resize(w:{w},b:{id})~t.toFormat(f:jpeg,q:80)/${FILE_PATH}`
  const paths: Record<Exclude<Variant, 'sharp'>, string | undefined> = {
    ours: `${ours.url}${oursPath}`,
    off: `${off.url}${oursPath}`,
    nginx: nginx === undefined ? undefined : `${nginx.origin}/w_{w}/${FILE_PATH}`,
    ipx: `${ipxOrigin}/w_{w},b_{id},q_80/${FILE_PATH}`,
  }
  console.log(
    `Cold new widths — ${availableParallelism()} CPUs; UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE}, ` +
      `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}, concurrency ${sharp.concurrency()}), ` +
      `nginx ${nginx?.version ?? 'not installed: skipped'}; source 1000 px JPEG q90, ` +
      `${(source.length / 1024).toFixed(0)} KiB; ${CONCURRENCY} at once; ${SECONDS} s per run; ` +
      (MANY ? `${SOURCES.count} sources, each asked ${SOURCES.asks} times in a row` : 'one source'),
  )
  // Sanity: each answers a JPEG of the asked width.
  for (const [variant, template] of Object.entries(paths)) {
    if (template === undefined) continue
    const url = template.replace('{w}', '640').replace('{id}', 'f00000').replace('{src}', '0')
    const response = await fetch(url)
    const data = Buffer.from(await response.arrayBuffer())
    const meta = response.ok ? await sharp(data).metadata() : undefined
    if (meta?.width !== 640 || meta.format !== 'jpeg') {
      throw new Error(`${variant}: ${response.status} ${meta?.format} ${meta?.width}`)
    }
    console.log(`  ${LABELS[variant as Variant]}: 640 px JPEG, ${data.length} bytes`)
  }

  const variants: Variant[] = [
    'sharp',
    'ours',
    'off',
    ...(nginx ? (['nginx'] as const) : []),
    'ipx',
  ]
  const rates = new Map<Variant, number[]>(variants.map((variant) => [variant, []]))
  const rows: string[][] = []
  for (let turn = 1; turn <= TURNS; turn++) {
    for (const variant of variants) {
      const load = loadavg()[0] as number
      const path = variant === 'sharp' ? undefined : paths[variant]
      const measured =
        path === undefined
          ? await inProcess(sources)
          : await overHttp(new URL(path).origin, path.slice(new URL(path).origin.length))
      const rate = measured.ok / measured.seconds
      rates.get(variant)?.push(rate)
      rows.push([String(turn), LABELS[variant], rate.toFixed(1), load.toFixed(1)])
      console.log(
        `  turn ${turn} ${LABELS[variant]}: ${rate.toFixed(1)}/s (load ${load.toFixed(1)})`,
      )
    }
  }
  printTable(['turn', 'variant', 'renders/s', 'load (1 min)'], rows, [true, false, true, true])
  for (const mine of ['ours', 'off'] as const) {
    const own = rates.get(mine) ?? []
    console.log(`\n${LABELS[mine]} against each, per turn (same turn) and mean of turns`)
    for (const peer of variants.filter((variant) => variant !== mine)) {
      const ratios = own.map((rate, turn) => rate / ((rates.get(peer) ?? [])[turn] ?? Number.NaN))
      const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length
      console.log(
        `  / ${LABELS[peer]}: ${ratios.map((r) => r.toFixed(2)).join(', ')} (mean ${mean.toFixed(2)}×)`,
      )
    }
  }
  console.log(
    `\nDecoded sources of ours: ${JSON.stringify(ours.services.context.engine.decodedStats())}`,
  )
} finally {
  for (const stop of stops.reverse()) await stop()
  await rm(root, { recursive: true, force: true })
}
