// The delivery benchmark's servers (delivery.bench.ts): the source image, ours with the file stored,
// ipx as configured and at its defaults, a bare node:http peer, and the checks that every variant
// answers the same image.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type RequestListener, type Server } from 'node:http'
import { dirname, join } from 'node:path'
import { loadConfig, type RunningServer, startServer } from '@tessera/server'
import { createIPX, createIPXNodeServer, type IPXOptions, ipxFSStorage } from 'ipx'
import {
  CLOUD_NAME,
  FILE_PATH,
  OUTPUT_HEIGHT,
  OUTPUT_WIDTH,
  requireHere,
  SAMPLE,
  SOURCE_HEIGHT,
  SOURCE_WIDTH,
  sharp,
} from './delivery-settings.ts'
import { storeJpegSource } from './store-source.ts'

// ---------------------------------------------------------------------------------------------
// Set-up: the source image, our server with the file stored, two ipx servers.

/** A package's version, read next to its entry point (`exports` may hide its package.json). */
export function versionOf(pkg: string): string {
  let directory = dirname(requireHere.resolve(pkg))
  while (!directory.endsWith(join('node_modules', pkg))) {
    const parent = dirname(directory)
    if (parent === directory) throw new Error(`cannot find the folder of ${pkg}`)
    directory = parent
  }
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')).version
}

export async function makeSource(): Promise<Buffer> {
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

export async function startOurs(dataDir: string, source: Buffer): Promise<RunningServer> {
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
    const { repo } = server.services.context
    const organisation = await repo.createOrganisation({ cloudName: CLOUD_NAME, name: 'Bench' })
    const hash = createHash('sha256').update(source).digest('hex')
    await storeJpegSource(
      server.services.context,
      organisation.id,
      {
        path: FILE_PATH,
        name: 'big.jpg',
        storageKey: `orgs/${organisation.id}/originals/bench-${hash.slice(0, 16)}.jpg`,
      },
      source,
    )
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

export async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

/** ipx over the folder, with its defaults or with baseline JPEG output (as ours writes). */
export function startIpx(directory: string, baseline: boolean) {
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
export async function startBarePeer(url: string) {
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
export async function cacheCounts(server: RunningServer): Promise<{ hit: number; miss: number }> {
  const metric = await server.services.context.metrics.cache.get()
  const count = (result: string) =>
    metric.values.find((value) => value.labels.result === result)?.value ?? 0
  return { hit: count('hit'), miss: count('miss') }
}

/** One request of each variant: 200, a 720×588 JPEG; returns its size and whether progressive. */
export async function sample(url: string): Promise<{ bytes: number; progressive: boolean }> {
  const response = await fetch(url)
  const data = Buffer.from(await response.arrayBuffer())
  return check(url, response.status, response.headers.get('content-type'), data)
}

export async function check(
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
