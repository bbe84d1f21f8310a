import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createLocalStorage,
  createS3Storage,
  type S3StorageOptions,
  type Storage,
  StorageError,
} from './index.ts'

const BUCKET = 'tessera-test'
const SECRET = 'S3RVER'

let workDir: string
let s3rver: S3rver
let endpoint: string

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

function s3Options(overrides: Partial<S3StorageOptions> = {}): S3StorageOptions {
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
async function closedPort(): Promise<number> {
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
function bytes(length: number, seed = 0): Buffer {
  return Buffer.from(Array.from({ length }, (_, i) => (i * 7 + seed) % 251))
}

function uniqueOrg(): string {
  return `orgs/${randomUUID()}`
}

async function listAll(storage: Storage, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const key of storage.list(prefix)) keys.push(key)
  return keys
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the promise to reject')
}

async function* chunksThenFail(chunks: Buffer[], error: Error): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk
  throw error
}

const BAD_KEYS: { name: string; key: string }[] = [
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

const ADAPTERS = [
  { kind: 'local', create: () => createLocalStorage({ root: join(workDir, 'local') }) },
  { kind: 's3', create: () => createS3Storage(s3Options({ prefix: 'tenant' })) },
] as const

describe.each(ADAPTERS)('$kind storage', ({ kind, create }) => {
  let storage: Storage

  beforeAll(() => {
    storage = create()
  })

  it('says which kind it is', () => {
    expect(storage.kind).toBe(kind)
  })

  it('passes its readiness check', async () => {
    await expect(storage.check()).resolves.toBeUndefined()
  })

  describe('put, get and stat', () => {
    it('round-trips a Buffer and reports its size', async () => {
      const key = `${uniqueOrg()}/originals/samples/astronaut.png`
      const data = bytes(5000)
      await expect(storage.put(key, data, { contentType: 'image/png' })).resolves.toEqual({
        size: 5000,
      })
      expect(await storage.get(key)).toEqual(data)
      const stat = await storage.stat(key)
      expect(stat?.size).toBe(5000)
      expect(stat?.modified).toBeInstanceOf(Date)
      expect(Number.isNaN(stat?.modified.getTime())).toBe(false)
    })

    it('round-trips a Uint8Array view with an offset into a larger buffer', async () => {
      const key = `${uniqueOrg()}/originals/view.bin`
      const whole = bytes(100)
      const view = new Uint8Array(whole.buffer, whole.byteOffset + 10, 20)
      await expect(storage.put(key, view)).resolves.toEqual({ size: 20 })
      expect(await storage.get(key)).toEqual(whole.subarray(10, 30))
    })

    it('round-trips a Node stream', async () => {
      const key = `${uniqueOrg()}/originals/stream.bin`
      const data = bytes(200_000)
      const source = Readable.from([data.subarray(0, 70_000), data.subarray(70_000)])
      await expect(storage.put(key, source)).resolves.toEqual({ size: 200_000 })
      expect(await storage.get(key)).toEqual(data)
    })

    it('round-trips an async iterable of chunks', async () => {
      const key = `${uniqueOrg()}/originals/iterable.bin`
      async function* chunks() {
        yield bytes(10, 1)
        yield new Uint8Array()
        yield bytes(15, 2)
      }
      await expect(storage.put(key, chunks())).resolves.toEqual({ size: 25 })
      expect(await storage.get(key)).toEqual(Buffer.concat([bytes(10, 1), bytes(15, 2)]))
    })

    it('round-trips an empty object', async () => {
      const key = `${uniqueOrg()}/originals/empty`
      await expect(storage.put(key, Buffer.alloc(0))).resolves.toEqual({ size: 0 })
      expect(await storage.get(key)).toEqual(Buffer.alloc(0))
      expect((await storage.stat(key))?.size).toBe(0)
    })

    it('keeps spaces, accents and emoji in keys', async () => {
      const key = `${uniqueOrg()}/originals/my photo été 😀 (1).png`
      await storage.put(key, bytes(30))
      expect(await storage.get(key)).toEqual(bytes(30))
      expect(await listAll(storage, key)).toEqual([key])
    })

    it('replaces an object when putting the same key again', async () => {
      const key = `${uniqueOrg()}/derived/abc.webp`
      await storage.put(key, bytes(300, 1))
      await storage.put(key, bytes(120, 2))
      expect(await storage.get(key)).toEqual(bytes(120, 2))
      expect((await storage.stat(key))?.size).toBe(120)
      expect(await listAll(storage, key)).toEqual([key])
    })

    it('keeps serving the old object while a new one is being written', async () => {
      const key = `${uniqueOrg()}/derived/in-flight.webp`
      await storage.put(key, bytes(100, 1))
      let release = () => {}
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      let reached = () => {}
      const halfway = new Promise<void>((resolve) => {
        reached = resolve
      })
      async function* slowSource() {
        yield bytes(50, 2)
        reached()
        await gate
        yield bytes(50, 3)
      }
      const writing = storage.put(key, slowSource())
      await halfway
      expect(await storage.get(key)).toEqual(bytes(100, 1))
      expect(await listAll(storage, key)).toEqual([key])
      release()
      await expect(writing).resolves.toEqual({ size: 100 })
      expect(await storage.get(key)).toEqual(Buffer.concat([bytes(50, 2), bytes(50, 3)]))
    })
  })

  describe('missing objects', () => {
    it('answers undefined from get, stream and stat for a key never written', async () => {
      const key = `${uniqueOrg()}/originals/never.png`
      expect(await storage.get(key)).toBeUndefined()
      expect(await storage.stream(key)).toBeUndefined()
      expect(await storage.stream(key, { start: 0, end: 0 })).toBeUndefined()
      expect(await storage.stat(key)).toBeUndefined()
    })

    it('answers undefined for a key below an existing object', async () => {
      const org = uniqueOrg()
      await storage.put(`${org}/file`, bytes(5))
      expect(await storage.get(`${org}/file/below`)).toBeUndefined()
      expect(await storage.stat(`${org}/file/below`)).toBeUndefined()
    })

    it('answers undefined for a key that is only a folder of other keys', async () => {
      const org = uniqueOrg()
      await storage.put(`${org}/originals/a.png`, bytes(5))
      expect(await storage.get(`${org}/originals`)).toBeUndefined()
      expect(await storage.stat(`${org}/originals`)).toBeUndefined()
      expect(await storage.stream(`${org}/originals`)).toBeUndefined()
    })
  })

  describe('stream', () => {
    const data = bytes(1000)
    let key: string

    beforeAll(async () => {
      key = `${uniqueOrg()}/originals/ranged.bin`
      await storage.put(key, data)
    })

    it('streams the whole object without a range', async () => {
      const result = await storage.stream(key)
      expect(result?.size).toBe(1000)
      expect(await buffer(result?.body ?? Readable.from([]))).toEqual(data)
    })

    it.each([
      { name: 'the first bytes', start: 0, end: 9 },
      { name: 'the middle', start: 400, end: 649 },
      { name: 'the last byte', start: 999, end: 999 },
      { name: 'everything as a range', start: 0, end: 999 },
    ])('streams $name of a range and reports the full size', async ({ start, end }) => {
      const result = await storage.stream(key, { start, end })
      expect(result?.size).toBe(1000)
      expect(await buffer(result?.body ?? Readable.from([]))).toEqual(data.subarray(start, end + 1))
    })
  })

  describe('delete', () => {
    it('removes an object from get, stat and list', async () => {
      const org = uniqueOrg()
      const key = `${org}/originals/gone.png`
      await storage.put(key, bytes(10))
      await storage.put(`${org}/originals/kept.png`, bytes(10))
      await storage.delete(key)
      expect(await storage.get(key)).toBeUndefined()
      expect(await storage.stat(key)).toBeUndefined()
      expect(await listAll(storage, `${org}/`)).toEqual([`${org}/originals/kept.png`])
    })

    it('accepts a key that does not exist', async () => {
      await expect(storage.delete(`${uniqueOrg()}/originals/never.png`)).resolves.toBeUndefined()
    })
  })

  describe('list', () => {
    const org = uniqueOrg()
    const keys = [
      `${org}/derived/c.webp`,
      `${org}/originals/a.png`,
      `${org}/originals/samples/b.png`,
      `${org}/originals-old/d.png`,
    ]

    beforeAll(async () => {
      for (const key of keys) await storage.put(key, bytes(8))
      await storage.put(`${uniqueOrg()}/originals/other-org.png`, bytes(8))
    })

    it('lists every key under a folder prefix, nested ones included', async () => {
      expect((await listAll(storage, `${org}/`)).sort()).toEqual([...keys].sort())
    })

    it('lists only the keys under a deeper folder', async () => {
      expect((await listAll(storage, `${org}/originals/`)).sort()).toEqual([
        `${org}/originals/a.png`,
        `${org}/originals/samples/b.png`,
      ])
    })

    it('treats the prefix as a plain string prefix, as S3 does', async () => {
      expect((await listAll(storage, `${org}/orig`)).sort()).toEqual([
        `${org}/originals-old/d.png`,
        `${org}/originals/a.png`,
        `${org}/originals/samples/b.png`,
      ])
    })

    it('lists nothing under a prefix without keys', async () => {
      expect(await listAll(storage, `${uniqueOrg()}/`)).toEqual([])
    })

    it('lists keys of every organisation under the empty prefix', async () => {
      const all = await listAll(storage, '')
      expect(all).toEqual(expect.arrayContaining(keys))
      expect(all.some((key) => key.endsWith('/other-org.png'))).toBe(true)
    })
  })

  describe('bad keys', () => {
    it.each(BAD_KEYS)('refuses $name in every method', async ({ key }) => {
      const calls: [string, () => Promise<unknown>][] = [
        ['put', () => storage.put(key, bytes(4))],
        ['put a stream', () => storage.put(key, Readable.from([bytes(4)]))],
        ['get', () => storage.get(key)],
        ['stream', () => storage.stream(key)],
        ['stat', () => storage.stat(key)],
        ['delete', () => storage.delete(key)],
      ]
      for (const [method, call] of calls) {
        const error = await rejection(call())
        expect(error, method).toBeInstanceOf(StorageError)
        expect(error, method).toMatchObject({ code: 'invalid_key' })
      }
    })

    it.each(['/', '../', 'a//', 'a/../'])('refuses to list under %j', async (prefix) => {
      const error = await rejection(listAll(storage, prefix))
      expect(error).toMatchObject({ code: 'invalid_key' })
    })

    it('writes nothing for a refused key', async () => {
      const org = uniqueOrg()
      await rejection(storage.put(`${org}/a/../b`, bytes(4)))
      await rejection(storage.put(`${org}//b`, bytes(4)))
      expect(await listAll(storage, `${org}/`)).toEqual([])
    })
  })

  describe('maxBytes', () => {
    it('accepts data of exactly maxBytes', async () => {
      const key = `${uniqueOrg()}/originals/exact.bin`
      await expect(storage.put(key, bytes(10), { maxBytes: 10 })).resolves.toEqual({ size: 10 })
      await expect(storage.put(key, Readable.from([bytes(10)]), { maxBytes: 10 })).resolves.toEqual(
        { size: 10 },
      )
    })

    it('refuses a Buffer over maxBytes with too_large and stores nothing', async () => {
      const org = uniqueOrg()
      const error = await rejection(storage.put(`${org}/big.bin`, bytes(11), { maxBytes: 10 }))
      expect(error).toBeInstanceOf(StorageError)
      expect(error).toMatchObject({ code: 'too_large' })
      expect(await storage.get(`${org}/big.bin`)).toBeUndefined()
      expect(await listAll(storage, `${org}/`)).toEqual([])
    })

    it('stops reading a source one byte past maxBytes', async () => {
      const org = uniqueOrg()
      let pulled = 0
      async function* oneByteAtATime() {
        for (let i = 0; i < 1000; i++) {
          pulled++
          yield Buffer.from([i % 256])
        }
      }
      const error = await rejection(
        storage.put(`${org}/big.bin`, oneByteAtATime(), { maxBytes: 10 }),
      )
      expect(error).toMatchObject({ code: 'too_large' })
      expect(pulled).toBe(11)
      expect(await storage.stat(`${org}/big.bin`)).toBeUndefined()
      expect(await listAll(storage, `${org}/`)).toEqual([])
    })

    it('destroys a Node stream that goes over maxBytes', async () => {
      const org = uniqueOrg()
      const source = Readable.from([bytes(64), bytes(64), bytes(64)])
      const error = await rejection(storage.put(`${org}/big.bin`, source, { maxBytes: 100 }))
      expect(error).toMatchObject({ code: 'too_large' })
      expect(source.destroyed).toBe(true)
      expect(await listAll(storage, `${org}/`)).toEqual([])
    })

    it('keeps the old object when a replacement is too large', async () => {
      const key = `${uniqueOrg()}/originals/kept.bin`
      await storage.put(key, bytes(8, 1))
      await rejection(storage.put(key, bytes(20, 2), { maxBytes: 10 }))
      await rejection(storage.put(key, Readable.from([bytes(20, 3)]), { maxBytes: 10 }))
      expect(await storage.get(key)).toEqual(bytes(8, 1))
    })
  })

  describe('a source that fails mid-way', () => {
    it('rejects with the source error and stores nothing', async () => {
      const org = uniqueOrg()
      const failure = new Error('client went away')
      const error = await rejection(
        storage.put(`${org}/partial.bin`, chunksThenFail([bytes(4096), bytes(4096)], failure)),
      )
      expect(error).toBe(failure)
      expect(await storage.get(`${org}/partial.bin`)).toBeUndefined()
      expect(await listAll(storage, `${org}/`)).toEqual([])
    })

    it('rejects when a Node stream is destroyed with an error after some data', async () => {
      const org = uniqueOrg()
      const failure = new Error('upload aborted')
      const source = new Readable({ read() {} })
      source.push(bytes(1000))
      setImmediate(() => source.destroy(failure))
      const error = await rejection(storage.put(`${org}/partial.bin`, source))
      expect(error).toBe(failure)
      expect(await listAll(storage, `${org}/`)).toEqual([])
    })

    it('rejects when a Node stream fails before put starts reading it', async () => {
      const org = uniqueOrg()
      const failure = new Error('request closed')
      const source = new Readable({ read() {} })
      const writing = storage.put(`${org}/early.bin`, source)
      source.destroy(failure)
      expect(await rejection(writing)).toBe(failure)
      expect(await listAll(storage, `${org}/`)).toEqual([])
    })

    it('keeps the old object when overwriting', async () => {
      const key = `${uniqueOrg()}/originals/kept.bin`
      await storage.put(key, bytes(50, 1))
      const failure = new Error('client went away')
      await expect(storage.put(key, chunksThenFail([bytes(70, 2)], failure))).rejects.toBe(failure)
      expect(await storage.get(key)).toEqual(bytes(50, 1))
      expect((await storage.stat(key))?.size).toBe(50)
      expect(await listAll(storage, key)).toEqual([key])
    })
  })
})

describe('S3 storage only', () => {
  let raw: S3Client

  beforeAll(() => {
    raw = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: SECRET },
    })
  })

  afterAll(() => {
    raw.destroy()
  })

  it('stores objects under its prefix with their content type', async () => {
    const storage = createS3Storage(s3Options({ prefix: 'tessera/' }))
    const key = `${uniqueOrg()}/originals/a.png`
    await storage.put(key, bytes(10), { contentType: 'image/png' })
    const head = await raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `tessera/${key}` }))
    expect(head.ContentType).toBe('image/png')
    expect(head.ContentLength).toBe(10)
  })

  it('keeps two prefixes in one bucket apart', async () => {
    const first = createS3Storage(s3Options({ prefix: 'first' }))
    const second = createS3Storage(s3Options({ prefix: 'second' }))
    const org = uniqueOrg()
    await first.put(`${org}/a.png`, bytes(4))
    expect(await second.get(`${org}/a.png`)).toBeUndefined()
    expect(await listAll(second, `${org}/`)).toEqual([])
    expect(await listAll(first, `${org}/`)).toEqual([`${org}/a.png`])
  })

  it('reports the entity tag in stat', async () => {
    const storage = createS3Storage(s3Options())
    const key = `${uniqueOrg()}/a.png`
    await storage.put(key, bytes(4))
    expect((await storage.stat(key))?.etag).toMatch(/^"[0-9a-f]{32}"$/)
  })

  it('skips objects other tools left whose names are not valid keys', async () => {
    const storage = createS3Storage(s3Options({ prefix: 'tenant' }))
    const org = uniqueOrg()
    await storage.put(`${org}/a.png`, bytes(4))
    for (const name of ['folder/', 'back\\slash', 'a%2fb', '.a.png.0123456789abcdef.tmp']) {
      await raw.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: `tenant/${org}/${name}`, Body: bytes(1) }),
      )
    }
    expect(await listAll(storage, `${org}/`)).toEqual([`${org}/a.png`])
  })

  it('follows continuation tokens until the last page', async () => {
    // s3rver cannot page (its tokens use DES, which Node's OpenSSL 3 refuses), so a minimal
    // ListObjectsV2 endpoint over real HTTP serves three pages here.
    const pages = [
      { keys: ['p/orgs/x/1', 'p/orgs/x/2'], next: 'page-2' },
      { keys: ['p/orgs/x/3', 'p/orgs/x/4'], next: 'page-3' },
      { keys: ['p/orgs/x/5'], next: undefined },
    ]
    const tokens: (string | null)[] = []
    const server = createHttpServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1')
      const token = url.searchParams.get('continuation-token')
      tokens.push(token)
      const page = pages[token === null ? 0 : Number(token.slice(5)) - 1]
      if (page === undefined || url.searchParams.get('prefix') !== 'p/orgs/x/') {
        response.writeHead(400).end()
        return
      }
      const contents = page.keys.map(
        (key) => `<Contents><Key>${key}</Key><Size>1</Size></Contents>`,
      )
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          '<?xml version="1.0" encoding="UTF-8"?>' +
            '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
            `<Name>${BUCKET}</Name><Prefix>p/orgs/x/</Prefix><KeyCount>${page.keys.length}</KeyCount>` +
            `<IsTruncated>${page.next !== undefined}</IsTruncated>${contents.join('')}` +
            (page.next === undefined
              ? ''
              : `<NextContinuationToken>${page.next}</NextContinuationToken>`) +
            '</ListBucketResult>',
        )
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const address = server.address()
      if (address === null || typeof address === 'string') throw new Error('no port')
      const storage = createS3Storage(
        s3Options({ endpoint: `http://127.0.0.1:${address.port}`, prefix: 'p' }),
      )
      expect(await listAll(storage, 'orgs/x/')).toEqual([
        'orgs/x/1',
        'orgs/x/2',
        'orgs/x/3',
        'orgs/x/4',
        'orgs/x/5',
      ])
      expect(tokens).toEqual([null, 'page-2', 'page-3'])
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('fails its check with not_reachable when nobody listens on the endpoint', async () => {
    const port = await closedPort()
    const storage = createS3Storage(
      s3Options({ endpoint: `http://127.0.0.1:${port}`, secretAccessKey: 'never-in-messages' }),
    )
    const error = await rejection(storage.check())
    expect(error).toBeInstanceOf(StorageError)
    expect(error).toMatchObject({ code: 'not_reachable' })
    expect((error as Error).cause).toBeDefined()
    expect((error as Error).message).not.toContain('never-in-messages')
    const getError = await rejection(storage.get('orgs/x/a.png'))
    expect(getError).toMatchObject({ code: 'not_reachable' })
  })

  it('fails its check with not_reachable when the bucket does not exist', async () => {
    const storage = createS3Storage(s3Options({ bucket: 'no-such-bucket' }))
    await expect(storage.check()).rejects.toMatchObject({ code: 'not_reachable' })
    await expect(storage.get('orgs/x/a.png')).rejects.toMatchObject({ code: 'not_reachable' })
  })

  it('maps refused credentials to not_reachable without echoing them', async () => {
    const storage = createS3Storage(
      s3Options({ accessKeyId: 'UNKNOWN-KEY-ID', secretAccessKey: 'wrong-secret-value' }),
    )
    const checkError = await rejection(storage.check())
    const putError = await rejection(storage.put('orgs/x/a.png', bytes(4)))
    const getError = await rejection(storage.get('orgs/x/a.png'))
    for (const error of [checkError, putError, getError]) {
      expect(error).toBeInstanceOf(StorageError)
      expect(error).toMatchObject({ code: 'not_reachable' })
      expect((error as Error).message).not.toContain('wrong-secret-value')
      expect((error as Error).message).not.toContain('UNKNOWN-KEY-ID')
    }
  })

  it('refuses half a pair of credentials and an empty bucket at creation', () => {
    expect(() => createS3Storage({ bucket: BUCKET, accessKeyId: 'S3RVER' })).toThrow(TypeError)
    expect(() => createS3Storage({ bucket: '' })).toThrow(TypeError)
  })

  it('refuses a prefix that is not a valid key', () => {
    expect(() => createS3Storage(s3Options({ prefix: 'a/../b' }))).toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    )
  })
})
