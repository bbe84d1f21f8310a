// The whole server on S3-compatible storage (a real s3rver on loopback): demo data, delivery,
// the derived-image cache and uploads all go through the S3 adapter.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultTestDatabase, startTestServer, type TestServer } from '../test-server.ts'

describe('delivery on S3-compatible storage', () => {
  let workDir: string
  let s3rver: S3rver
  let server: TestServer

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'tessera-s3-'))
    s3rver = new S3rver({
      port: 0,
      address: '127.0.0.1',
      directory: join(workDir, 's3rver'),
      silent: true,
      configureBuckets: [{ name: 'images' }],
    })
    const { port } = await s3rver.run()
    server = await startTestServer(defaultTestDatabase(), {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'images',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: 'tessera',
      HOT_CACHE_MB: '0',
    })
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await s3rver?.close()
    await rm(workDir, { recursive: true, force: true })
  })

  it('reports S3 storage as ready', async () => {
    expect(await (await fetch(`${server.url}/readyz`)).json()).toMatchObject({ storage: 'ok' })
  })

  it('serves originals with ranges and transformed images from the cache', async () => {
    const original = await fetch(`${server.url}/v2/demo/original/samples/horse.png`, {
      headers: { range: 'bytes=0-7' },
    })
    expect(original.status).toBe(206)
    expect(Buffer.from(await original.arrayBuffer()).toString('hex')).toBe('89504e470d0a1a0a')
    const path = `${server.url}/v2/demo/t.resize(w:40)~t.grey()/samples/horse.png`
    const first = await fetch(path)
    const second = await fetch(path)
    expect([first.status, second.status]).toEqual([200, 200])
    const image = await sharp(Buffer.from(await second.arrayBuffer())).metadata()
    expect(image.width).toBe(40)
  })

  it('stores uploads in the bucket', async () => {
    const body = new FormData()
    body.set(
      'file',
      new Blob([
        await sharp({ create: { width: 9, height: 7, channels: 3, background: '#0f0' } })
          .png()
          .toBuffer(),
      ]),
      'green.png',
    )
    const response = await fetch(`${server.url}/service/panel/assets/v1.0/upload/direct`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${await server.createToken()}` },
    })
    expect(response.status).toBe(200)
    const delivered = await fetch(`${server.url}/v2/demo/original/green.png`)
    expect((await sharp(Buffer.from(await delivered.arrayBuffer())).metadata()).width).toBe(9)
  })
})
