// New widths of a 1000 px JPEG, every request a new render: our delivery (cache misses, over
// HTTP), sharp called in-process (the limit), nginx's image_filter (libgd, Debian's module; when
// installed) and ipx, in alternating turns so that a busy machine's drift falls on all alike.
// Every request asks a width from 200 to 999 px (`widthOf`), JPEG q80 baseline everywhere.
// BENCH_SECONDS (default 8) per run after a 2 s warm-up, BENCH_COLD_TURNS turns (default 3).
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
import { type ClientJob, runClient, widthOf } from './delivery-client.ts'
import { nginxAvailable, startNginx } from './nginx-peer.ts'
import { printTable } from './table.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const TURNS = Number(process.env.BENCH_COLD_TURNS ?? 3)
const WARMUP_SECONDS = 2
const CONCURRENCY = 4
const FILE_PATH = 'bench/small.jpg'
const SAMPLE = new URL('../apps/server/demo/samples/hubble_deep_field.jpg', import.meta.url)
const sharp = createRequire(import.meta.resolve('@tessera/engine'))(
  'sharp',
) as typeof import('sharp').default

type Variant = 'sharp' | 'ours' | 'nginx' | 'ipx'
const LABELS: Record<Variant, string> = {
  sharp: 'direct sharp (in-process)',
  ours: 'ours cold (HTTP)',
  nginx: 'nginx image_filter (HTTP)',
  ipx: 'ipx (HTTP, baseline JPEG)',
}

let nextId = 1

async function inProcess(source: Buffer): Promise<{ ok: number; seconds: number }> {
  const run = async (seconds: number) => {
    const deadline = performance.now() + seconds * 1000
    let ok = 0
    const loop = async () => {
      while (performance.now() < deadline) {
        await sharp(source, { autoOrient: true, failOn: 'error' })
          .resize({ width: widthOf(nextId++) })
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
  const source = await sharp(await readFile(SAMPLE))
    .resize({ width: 1000 })
    .jpeg({ quality: 90 })
    .toBuffer()
  const files = join(root, 'files')
  await mkdir(join(files, dirname(FILE_PATH)), { recursive: true })
  await writeFile(join(files, FILE_PATH), source)

  const ours = await startServer(
    {
      ...loadConfig({
        DATA_DIR: join(root, 'data'),
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        RENDER_LIMIT_PER_MINUTE: '0',
        ...(process.env.ENGINE_CONCURRENCY === undefined
          ? {}
          : { ENGINE_CONCURRENCY: process.env.ENGINE_CONCURRENCY }),
      }),
      port: 0,
    },
    { databaseDir: 'memory://' },
  )
  stops.push(() => ours.close())
  const { repo, storage, engine } = ours.services.context
  const organisation = await repo.createOrganisation({ cloudName: 'demo', name: 'Bench' })
  const probe = await engine.probe(source)
  const storageKey = `orgs/${organisation.id}/originals/small.jpg`
  await storage.put(storageKey, source, { contentType: 'image/jpeg' })
  await repo.upsertFile(organisation.id, {
    path: FILE_PATH,
    name: 'small.jpg',
    size: source.length,
    format: probe.format,
    contentType: 'image/jpeg',
    width: probe.width,
    height: probe.height,
    hash: createHash('sha256').update(source).digest('hex'),
    storageKey,
  })

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

  const paths: Record<Exclude<Variant, 'sharp'>, string | undefined> = {
    // A new width per request, and a new colour (never painted by a plain resize) so no key repeats.
    ours: `${ours.url}/v2/demo/t.resize(w:{w},b:{id})~t.toFormat(f:jpeg,q:80)/${FILE_PATH}`,
    nginx: nginx === undefined ? undefined : `${nginx.origin}/w_{w}/${FILE_PATH}`,
    ipx: `${ipxOrigin}/w_{w},b_{id},q_80/${FILE_PATH}`,
  }
  console.log(
    `Cold new widths — ${availableParallelism()} CPUs; UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE}, ` +
      `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}, concurrency ${sharp.concurrency()}), ` +
      `nginx ${nginx?.version ?? 'not installed: skipped'}; source 1000 px JPEG q90, ` +
      `${(source.length / 1024).toFixed(0)} KiB; ${CONCURRENCY} at once; ${SECONDS} s per run`,
  )
  // Sanity: each answers a JPEG of the asked width.
  for (const [variant, template] of Object.entries(paths)) {
    if (template === undefined) continue
    const response = await fetch(template.replace('{w}', '640').replace('{id}', 'f00000'))
    const data = Buffer.from(await response.arrayBuffer())
    const meta = response.ok ? await sharp(data).metadata() : undefined
    if (meta?.width !== 640 || meta.format !== 'jpeg') {
      throw new Error(`${variant}: ${response.status} ${meta?.format} ${meta?.width}`)
    }
    console.log(`  ${LABELS[variant as Variant]}: 640 px JPEG, ${data.length} bytes`)
  }

  const variants: Variant[] = ['sharp', 'ours', ...(nginx ? (['nginx'] as const) : []), 'ipx']
  const rates = new Map<Variant, number[]>(variants.map((variant) => [variant, []]))
  const rows: string[][] = []
  for (let turn = 1; turn <= TURNS; turn++) {
    for (const variant of variants) {
      const load = loadavg()[0] as number
      const path = variant === 'sharp' ? undefined : paths[variant]
      const measured =
        path === undefined
          ? await inProcess(source)
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
  const ours_ = rates.get('ours') ?? []
  console.log('\nOurs cold against each, per turn (same turn) and mean of turns')
  for (const peer of variants.filter((variant) => variant !== 'ours')) {
    const ratios = ours_.map((rate, turn) => rate / ((rates.get(peer) ?? [])[turn] ?? Number.NaN))
    const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length
    console.log(
      `  ours / ${LABELS[peer]}: ${ratios.map((r) => r.toFixed(2)).join(', ')} (mean ${mean.toFixed(2)}×)`,
    )
  }
} finally {
  for (const stop of stops.reverse()) await stop()
  await rm(root, { recursive: true, force: true })
}
