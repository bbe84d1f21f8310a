// The S3-compatible store going away under a running server: requests that need it get 503 with
// Retry-After (not 500), the process stays up, and it serves again when the store is back.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultTestDatabase, startTestServer, type TestServer } from '../test-server.ts'

describe('storage out of reach', () => {
  let workDir: string
  let s3rver: S3rver | undefined
  let port: number
  let server: TestServer

  const startS3 = async () => {
    s3rver = new S3rver({
      port,
      address: '127.0.0.1',
      directory: join(workDir, 's3rver'),
      silent: true,
      configureBuckets: [{ name: 'images' }],
    })
    port = (await s3rver.run()).port
  }

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'tessera-s3-outage-'))
    port = 0
    await startS3()
    server = await startTestServer(defaultTestDatabase(), {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'images',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      HOT_CACHE_MB: '0',
    })
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await s3rver?.close()
    await rm(workDir, { recursive: true, force: true })
  })

  it('answers 503 with Retry-After while the store is down, and serves again once it is back', async () => {
    const original = `${server.url}/v2/demo/original/samples/horse.png`
    expect((await fetch(original)).status).toBe(200)
    await s3rver?.close()
    s3rver = undefined

    const refused = await fetch(original)
    expect(refused.status).toBe(503)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ code: 'storage_unavailable' })
    const render = await fetch(`${server.url}/v2/demo/t.resize(w:33)/samples/horse.png`)
    expect(render.status).toBe(503)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    const ready = await fetch(`${server.url}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ storage: 'unavailable', database: 'ok' })

    await startS3()
    expect((await fetch(original)).status).toBe(200)
    expect((await fetch(`${server.url}/v2/demo/t.resize(w:33)/samples/horse.png`)).status).toBe(200)
  }, 60_000)
})
