import { createServer as createHttpServer } from 'node:http'
import { Readable } from 'node:stream'
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createS3Storage, StorageError } from './index.ts'
import {
  ADAPTERS,
  BAD_KEYS,
  BUCKET,
  bytes,
  chunksThenFail,
  closedPort,
  endpoint,
  listAll,
  rejection,
  SECRET,
  s3Options,
  uniqueOrg,
  useAdapterSuite,
  useS3rver,
} from './storage-suite.ts'

useS3rver()

describe.each(ADAPTERS)('$kind storage', ({ kind, create }) => {
  const t = useAdapterSuite({ kind, create })

  describe('list', () => {
    const org = uniqueOrg()
    const keys = [
      `${org}/derived/c.webp`,
      `${org}/originals/a.png`,
      `${org}/originals/samples/b.png`,
      `${org}/originals-old/d.png`,
    ]

    beforeAll(async () => {
      for (const key of keys) await t.storage.put(key, bytes(8))
      await t.storage.put(`${uniqueOrg()}/originals/other-org.png`, bytes(8))
    })

    it('lists every key under a folder prefix, nested ones included', async () => {
      expect((await listAll(t.storage, `${org}/`)).sort()).toEqual([...keys].sort())
    })

    it('lists only the keys under a deeper folder', async () => {
      expect((await listAll(t.storage, `${org}/originals/`)).sort()).toEqual([
        `${org}/originals/a.png`,
        `${org}/originals/samples/b.png`,
      ])
    })

    it('treats the prefix as a plain string prefix, as S3 does', async () => {
      expect((await listAll(t.storage, `${org}/orig`)).sort()).toEqual([
        `${org}/originals-old/d.png`,
        `${org}/originals/a.png`,
        `${org}/originals/samples/b.png`,
      ])
    })

    it('lists nothing under a prefix without keys', async () => {
      expect(await listAll(t.storage, `${uniqueOrg()}/`)).toEqual([])
    })

    it('lists keys of every organisation under the empty prefix', async () => {
      const all = await listAll(t.storage, '')
      expect(all).toEqual(expect.arrayContaining(keys))
      expect(all.some((key) => key.endsWith('/other-org.png'))).toBe(true)
    })
  })

  describe('bad keys', () => {
    it.each(BAD_KEYS)('refuses $name in every method', async ({ key }) => {
      const calls: [string, () => Promise<unknown>][] = [
        ['put', () => t.storage.put(key, bytes(4))],
        ['put a stream', () => t.storage.put(key, Readable.from([bytes(4)]))],
        ['get', () => t.storage.get(key)],
        ['stream', () => t.storage.stream(key)],
        ['stat', () => t.storage.stat(key)],
        ['delete', () => t.storage.delete(key)],
      ]
      for (const [method, call] of calls) {
        const error = await rejection(call())
        expect(error, method).toBeInstanceOf(StorageError)
        expect(error, method).toMatchObject({ code: 'invalid_key' })
      }
    })

    it.each(['/', '../', 'a//', 'a/../'])('refuses to list under %j', async (prefix) => {
      const error = await rejection(listAll(t.storage, prefix))
      expect(error).toMatchObject({ code: 'invalid_key' })
    })

    it('writes nothing for a refused key', async () => {
      const org = uniqueOrg()
      await rejection(t.storage.put(`${org}/a/../b`, bytes(4)))
      await rejection(t.storage.put(`${org}//b`, bytes(4)))
      expect(await listAll(t.storage, `${org}/`)).toEqual([])
    })
  })

  describe('maxBytes', () => {
    it('accepts data of exactly maxBytes', async () => {
      const key = `${uniqueOrg()}/originals/exact.bin`
      await expect(t.storage.put(key, bytes(10), { maxBytes: 10 })).resolves.toEqual({ size: 10 })
      await expect(
        t.storage.put(key, Readable.from([bytes(10)]), { maxBytes: 10 }),
      ).resolves.toEqual({ size: 10 })
    })

    it('refuses a Buffer over maxBytes with too_large and stores nothing', async () => {
      const org = uniqueOrg()
      const error = await rejection(t.storage.put(`${org}/big.bin`, bytes(11), { maxBytes: 10 }))
      expect(error).toBeInstanceOf(StorageError)
      expect(error).toMatchObject({ code: 'too_large' })
      expect(await t.storage.get(`${org}/big.bin`)).toBeUndefined()
      expect(await listAll(t.storage, `${org}/`)).toEqual([])
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
        t.storage.put(`${org}/big.bin`, oneByteAtATime(), { maxBytes: 10 }),
      )
      expect(error).toMatchObject({ code: 'too_large' })
      expect(pulled).toBe(11)
      expect(await t.storage.stat(`${org}/big.bin`)).toBeUndefined()
      expect(await listAll(t.storage, `${org}/`)).toEqual([])
    })

    it('destroys a Node stream that goes over maxBytes', async () => {
      const org = uniqueOrg()
      const source = Readable.from([bytes(64), bytes(64), bytes(64)])
      const error = await rejection(t.storage.put(`${org}/big.bin`, source, { maxBytes: 100 }))
      expect(error).toMatchObject({ code: 'too_large' })
      expect(source.destroyed).toBe(true)
      expect(await listAll(t.storage, `${org}/`)).toEqual([])
    })

    it('keeps the old object when a replacement is too large', async () => {
      const key = `${uniqueOrg()}/originals/kept.bin`
      await t.storage.put(key, bytes(8, 1))
      await rejection(t.storage.put(key, bytes(20, 2), { maxBytes: 10 }))
      await rejection(t.storage.put(key, Readable.from([bytes(20, 3)]), { maxBytes: 10 }))
      expect(await t.storage.get(key)).toEqual(bytes(8, 1))
    })
  })

  describe('a source that fails mid-way', () => {
    it('rejects with the source error and stores nothing', async () => {
      const org = uniqueOrg()
      const failure = new Error('client went away')
      const error = await rejection(
        t.storage.put(`${org}/partial.bin`, chunksThenFail([bytes(4096), bytes(4096)], failure)),
      )
      expect(error).toBe(failure)
      expect(await t.storage.get(`${org}/partial.bin`)).toBeUndefined()
      expect(await listAll(t.storage, `${org}/`)).toEqual([])
    })

    it('rejects when a Node stream is destroyed with an error after some data', async () => {
      const org = uniqueOrg()
      const failure = new Error('upload aborted')
      const source = new Readable({ read() {} })
      source.push(bytes(1000))
      setImmediate(() => source.destroy(failure))
      const error = await rejection(t.storage.put(`${org}/partial.bin`, source))
      expect(error).toBe(failure)
      expect(await listAll(t.storage, `${org}/`)).toEqual([])
    })

    it('rejects when a Node stream fails before put starts reading it', async () => {
      const org = uniqueOrg()
      const failure = new Error('request closed')
      const source = new Readable({ read() {} })
      const writing = t.storage.put(`${org}/early.bin`, source)
      source.destroy(failure)
      expect(await rejection(writing)).toBe(failure)
      expect(await listAll(t.storage, `${org}/`)).toEqual([])
    })

    it('keeps the old object when overwriting', async () => {
      const key = `${uniqueOrg()}/originals/kept.bin`
      await t.storage.put(key, bytes(50, 1))
      const failure = new Error('client went away')
      await expect(t.storage.put(key, chunksThenFail([bytes(70, 2)], failure))).rejects.toBe(
        failure,
      )
      expect(await t.storage.get(key)).toEqual(bytes(50, 1))
      expect((await t.storage.stat(key))?.size).toBe(50)
      expect(await listAll(t.storage, key)).toEqual([key])
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
