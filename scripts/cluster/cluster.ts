// The cluster of `npm run cluster` and `npm run test:cluster`: a private PostgreSQL, an
// S3-compatible server (s3rver), N Tessera processes and HAProxy in front, all on this machine.
// Everything it starts is a child process it can stop, kill or restart one by one.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createWriteStream, existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { hasPostgresBinaries, type PrivatePostgres, startPrivatePostgres } from './postgres.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const HAPROXY_CONFIG = join(ROOT, 'deploy', 'haproxy', 'haproxy.cfg')
const MAIN = join(ROOT, 'apps', 'server', 'src', 'main.ts')
const S3_SERVER = join(dirname(fileURLToPath(import.meta.url)), 's3-server.ts')
export const BUCKET = 'tessera'

export interface ClusterOptions {
  /** Tessera processes (default 3). */
  size?: number
  /** The proxy's port, the one address of the cluster (default: a free port). */
  port?: number
  /**
   * `private` (default when the PostgreSQL binaries are there): a PostgreSQL server of its own,
   * which the fault tests may restart. A `postgres://` admin URL: a new database on that server.
   */
  database?: 'private' | string
  /** Extra environment of every Tessera process. */
  env?: Record<string, string>
  /** Where each process's output goes besides its log file. */
  echo?: (name: string, line: string) => void
  /** Start a process again when it exits without being told to (default false). */
  supervise?: boolean
  /** Keep the work folder (logs, data) after `stop` (default false). */
  keep?: boolean
}

export interface ManagedProcess {
  name: string
  port: number
  /** Its own address, bypassing the proxy. */
  url: string
  pid(): number | undefined
  /** Whether it is running. */
  running(): boolean
  start(): Promise<void>
  /** Sends `signal` and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export interface Cluster {
  /** The proxy's address: the cluster as clients see it. */
  url: string
  workDir: string
  databaseUrl: string
  s3Endpoint: string
  tessera: ManagedProcess[]
  s3: ManagedProcess
  proxy: ManagedProcess
  /** The private PostgreSQL server, when the cluster has one. */
  postgres: PrivatePostgres | undefined
  /** Stops everything it started, in reverse order. */
  stop(): Promise<void>
}

/** A free TCP port on 127.0.0.1 (released before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** Waits until `url` answers with `status` (default 200). */
export async function waitFor(url: string, timeoutMs: number, status = 200): Promise<void> {
  const until = Date.now() + timeoutMs
  let last = 'no answer'
  while (Date.now() < until) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) })
      await response.arrayBuffer()
      if (response.status === status) return
      last = `status ${response.status}`
    } catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms (${last})`)
}

/** Where HAProxy is, installing Debian's package when it is missing and this runs as root. */
export function findHaproxy(): string {
  for (const path of ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy']) {
    if (existsSync(path)) return path
  }
  if (process.getuid?.() === 0) {
    console.log('HAProxy is missing: installing it (apt-get install -y haproxy)')
    spawnSync('apt-get', ['update'], { stdio: 'inherit' })
    const install = spawnSync('apt-get', ['install', '-y', 'haproxy'], { stdio: 'inherit' })
    if (install.status === 0 && existsSync('/usr/sbin/haproxy')) return '/usr/sbin/haproxy'
  }
  throw new Error('HAProxy is not installed: run `apt-get install -y haproxy` as root')
}

function managed(
  name: string,
  port: number,
  logDir: string,
  command: () => { file: string; args: string[]; env?: Record<string, string> },
  ready: () => Promise<void>,
  options: { echo?: ClusterOptions['echo']; supervise?: boolean },
): ManagedProcess {
  let child: ChildProcess | undefined
  let exited: Promise<number | null> = Promise.resolve(null)
  let wanted = false
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' })
  log.on('error', () => undefined)

  const process_: ManagedProcess = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    pid: () => child?.pid,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async start() {
      if (process_.running()) return
      const { file, args, env } = command()
      wanted = true
      const started = spawn(file, args, {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child = started
      exited = new Promise((resolve) => started.once('exit', (code) => resolve(code)))
      started.once('error', (error) => log.write(`could not start: ${error.message}\n`))
      for (const stream of [started.stdout, started.stderr]) {
        stream?.on('error', () => undefined)
        stream?.on('data', (chunk: Buffer) => {
          log.write(chunk)
          if (options.echo !== undefined) {
            for (const line of chunk.toString('utf8').split('\n')) {
              if (line.trim() !== '') options.echo(name, line)
            }
          }
        })
      }
      started.once('exit', (code, signal) => {
        if (!wanted || child !== started) return
        options.echo?.(name, `exited (${signal ?? code})`)
        if (options.supervise === true) {
          setTimeout(() => {
            if (wanted && child === started) {
              process_.start().catch((error: unknown) => options.echo?.(name, String(error)))
            }
          }, 1000)
        }
      })
      try {
        await ready()
      } catch (error) {
        if (process_.running()) started.kill('SIGKILL')
        throw new Error(`${name} did not start (log: ${join(logDir, `${name}.log`)})`, {
          cause: error,
        })
      }
    },
    async stop(signal = 'SIGTERM') {
      wanted = false
      const current = child
      if (current === undefined || !process_.running()) return current?.exitCode ?? null
      current.kill(signal)
      const timer = setTimeout(() => current.kill('SIGKILL'), 20_000)
      const code = await exited
      clearTimeout(timer)
      return code
    },
  }
  return process_
}

/** Creates a database `name` on the server at `adminUrl`; answers its URL. */
async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 })
  await client.connect()
  try {
    await client.query(`create database ${pg.escapeIdentifier(name)}`)
  } finally {
    await client.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 })
  await client.connect()
  try {
    await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`)
  } finally {
    await client.end()
  }
}

/** Starts the whole cluster; on failure stops what it had started and throws. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const size = options.size ?? 3
  if (!Number.isInteger(size) || size < 1 || size > 32) {
    throw new Error('CLUSTER_SIZE must be a whole number from 1 to 32')
  }
  const haproxy = findHaproxy()
  const workDir = await mkdtemp(join(tmpdir(), 'tessera-cluster-'))
  // The private PostgreSQL may run as another user, which must reach its folder inside.
  await chmod(workDir, 0o711)
  const logDir = join(workDir, 'logs')
  await mkdir(logDir)
  const cleanups: (() => Promise<void>)[] = []
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
    cleanups.length = 0
    if (options.keep !== true) await rm(workDir, { recursive: true, force: true })
  }

  try {
    // The database.
    let postgres: PrivatePostgres | undefined
    let databaseUrl: string
    const wantsPrivate = (options.database ?? 'private') === 'private'
    if (wantsPrivate && hasPostgresBinaries()) {
      postgres = await startPrivatePostgres(join(workDir, 'postgres'), await freePort())
      const server = postgres
      cleanups.push(() => server.stop())
      databaseUrl = await createDatabase(postgres.url, 'tessera')
    } else {
      const adminUrl =
        options.database === undefined || options.database === 'private'
          ? 'postgres://postgres@127.0.0.1:5432/postgres'
          : options.database
      const name = `tessera_cluster_${process.pid}_${Date.now()}`
      databaseUrl = await createDatabase(adminUrl, name)
      cleanups.push(() => dropDatabase(adminUrl, name))
    }

    // The storage.
    const s3Port = await freePort()
    const s3Endpoint = `http://127.0.0.1:${s3Port}`
    const s3 = managed(
      's3rver',
      s3Port,
      logDir,
      () => ({
        file: process.execPath,
        args: [S3_SERVER, String(s3Port), join(workDir, 's3'), BUCKET],
      }),
      () => waitFor(`${s3Endpoint}/${BUCKET}`, 30_000),
      {},
    )
    await s3.start()
    cleanups.push(async () => {
      await s3.stop()
    })

    // The Tessera processes.
    const proxyPort = options.port ?? (await freePort())
    const url = `http://127.0.0.1:${proxyPort}`
    const ports: number[] = []
    for (let i = 0; i < size; i++) ports.push(await freePort())
    const tessera = ports.map((port, i) =>
      managed(
        `tessera-${i + 1}`,
        port,
        logDir,
        () => ({
          file: process.execPath,
          // V8's young generation capped as `npm start` caps it (decision 024).
          args: ['--max-semi-space-size=8', MAIN],
          env: {
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: join(workDir, `tessera-${i + 1}`),
            DATABASE_URL: databaseUrl,
            STORAGE_DRIVER: 's3',
            S3_BUCKET: BUCKET,
            S3_REGION: 'us-east-1',
            S3_ENDPOINT: s3Endpoint,
            S3_FORCE_PATH_STYLE: 'true',
            S3_ACCESS_KEY_ID: 'S3RVER',
            S3_SECRET_ACCESS_KEY: 'S3RVER',
            PUBLIC_URL: url,
            TRUSTED_PROXIES: '127.0.0.1',
            LOG_LEVEL: 'warn',
            // glibc's malloc keeps 8 arenas per core; libvips' threads fragment them and RSS
            // creeps up under load (the soak bench, docs/benchmarks.md). Two arenas keep it flat.
            MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
            ...options.env,
          },
        }),
        () => waitFor(`http://127.0.0.1:${port}/readyz`, 120_000),
        {
          ...(options.echo === undefined ? {} : { echo: options.echo }),
          supervise: options.supervise === true,
        },
      ),
    )
    // The first process migrates the database and seeds the demo data alone; the others then
    // start together.
    const [first, ...rest] = tessera
    if (first === undefined) throw new Error('no process')
    cleanups.push(async () => {
      await Promise.all(tessera.map((process_) => process_.stop()))
    })
    await first.start()
    await Promise.all(rest.map((process_) => process_.start()))

    // The proxy.
    const backendFile = join(workDir, 'backend.cfg')
    await writeFile(
      backendFile,
      [
        '# Generated by scripts/cluster/cluster.ts: the local Tessera processes.',
        'backend tessera',
        ...tessera.map((process_) => `  server ${process_.name} 127.0.0.1:${process_.port}`),
        '',
      ].join('\n'),
    )
    // The base config must parse before it is used (a clear error instead of a dead proxy).
    await readFile(HAPROXY_CONFIG, 'utf8')
    const proxy = managed(
      'haproxy',
      proxyPort,
      logDir,
      () => ({
        file: haproxy,
        args: ['-db', '-f', HAPROXY_CONFIG, '-f', backendFile],
        env: { TESSERA_PROXY_BIND: `127.0.0.1:${proxyPort}` },
      }),
      () => waitFor(`${url}/healthz`, 30_000),
      options.echo === undefined ? {} : { echo: options.echo },
    )
    await proxy.start()
    cleanups.push(async () => {
      await proxy.stop()
    })

    return {
      url,
      workDir,
      databaseUrl,
      s3Endpoint,
      tessera,
      s3,
      proxy,
      postgres,
      stop: stopAll,
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}
