// Test support for the storage suites (storage-*.test.ts): an s3rver for the file's tests, the
// two adapters (local files and S3), and bytes, keys and listings to check them with.
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { afterAll, beforeAll } from 'vitest'
import {
  createLocalStorage,
  createS3Storage,
  type S3StorageOptions,
  type Storage,
} from './index.ts'

export const BUCKET = 'tessera-test'
export const SECRET = 'S3RVER'

let workDir: string
let s3rver: S3rver | undefined
let port = 0
export let endpoint: string

/** Starts the stand-in on `port` (0 at first: a free one; then the same one again). */
async function startS3rver(): Promise<void> {
  s3rver = new S3rver({
    port,
    address: '127.0.0.1',
    directory: join(workDir, 's3rver'),
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  })
  port = (await s3rver.run()).port
  endpoint = `http://127.0.0.1:${port}`
}

/** The running stand-in of a test file, to take away and bring back under a server. */
export interface S3Stand {
  /** Stops it: the store goes away. */
  stop(): Promise<void>
  /** Starts it again on the same port, with what it held. */
  start(): Promise<void>
}

/**
 * The S3 stand-in (s3rver) for a test file: started before its tests, stopped after. Called by
 * each file, not at this module's top level: test files share modules within a worker
 * (vitest.workers.ts TEST_ISOLATE), so hooks here would run for the first file only.
 */
export function useS3rver(): S3Stand {
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'tessera-storage-'))
    port = 0
    await startS3rver()
  })

  afterAll(async () => {
    await s3rver?.close()
    await rm(workDir, { recursive: true, force: true })
  })

  return {
    async stop() {
      await s3rver?.close()
      s3rver = undefined
    },
    start: startS3rver,
  }
}

/**
 * The settings of a server that keeps its files in the stand-in, with no hot cache (every read
 * goes to the store); read them once `useS3rver`'s hook has started it.
 */
export function s3ServerEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    STORAGE_DRIVER: 's3',
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: SECRET,
    HOT_CACHE_MB: '0',
    ...extra,
  }
}

export function s3Options(overrides: Partial<S3StorageOptions> = {}): S3StorageOptions {
  return {
    bucket: BUCKET,
    endpoint,
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: SECRET,
    ...overrides,
  }
}

/** A port on 127.0.0.1 that was free a moment ago and that nobody listens on now. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  )
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** `length` bytes of a pattern that does not repeat every 256 bytes. */
export function bytes(length: number, seed = 0): Buffer {
  return Buffer.from(Array.from({ length }, (_, i) => (i * 7 + seed) % 251))
}

export function uniqueOrg(): string {
  return `orgs/${randomUUID()}`
}

export async function listAll(storage: Storage, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const key of storage.list(prefix)) keys.push(key)
  return keys
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the promise to reject')
}

export async function* chunksThenFail(chunks: Buffer[], error: Error): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk
  throw error
}

export const BAD_KEYS: { name: string; key: string }[] = [
  { name: '../x', key: '../x' },
  { name: 'a/../b', key: 'a/../b' },
  { name: '%2e%2e/x', key: '%2e%2e/x' },
  { name: 'a\\b', key: 'a\\b' },
  { name: '/abs', key: '/abs' },
  { name: 'a//b', key: 'a//b' },
  { name: 'a/./b', key: 'a/./b' },
  { name: 'a NUL byte', key: 'a\u0000b' },
  { name: 'the empty key', key: '' },
]

export const ADAPTERS = [
  { kind: 'local', create: () => createLocalStorage({ root: join(workDir, 'local') }) },
  { kind: 's3', create: () => createS3Storage(s3Options({ prefix: 'tenant' })) },
] as const

/** Creates the adapter's storage before the suite's tests. */
export function useAdapterSuite({ create }: (typeof ADAPTERS)[number]) {
  let storage: Storage

  beforeAll(() => {
    storage = create()
  })

  return {
    get storage() {
      return storage
    },
  }
}

export type AdapterSuite = ReturnType<typeof useAdapterSuite>
