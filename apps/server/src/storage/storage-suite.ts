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
let s3rver: S3rver
export let endpoint: string

/**
 * The S3 stand-in (s3rver) for a test file: started before its tests, stopped after. Called by
 * each file, not at this module's top level: test files share modules within a worker
 * (vitest.workers.ts TEST_ISOLATE), so hooks here would run for the first file only.
 */
export function useS3rver(): void {
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'tessera-storage-'))
    s3rver = new S3rver({
      port: 0,
      address: '127.0.0.1',
      directory: join(workDir, 's3rver'),
      silent: true,
      configureBuckets: [{ name: BUCKET }],
    })
    const { port } = await s3rver.run()
    endpoint = `http://127.0.0.1:${port}`
  })

  afterAll(async () => {
    await s3rver?.close()
    await rm(workDir, { recursive: true, force: true })
  })
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
