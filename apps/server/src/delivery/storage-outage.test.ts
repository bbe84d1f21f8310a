// The S3-compatible store going away under a running server: requests that need it get 503 with
// Retry-After (not 500), the process stays up, and it serves again when the store is back.
import { describe, expect, it } from 'vitest'
import { s3ServerEnv, useS3rver } from '../storage/storage-suite.ts'
import { defaultTestDatabase } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

describe('storage out of reach', () => {
  const s3 = useS3rver()
  const suite = useTestServer(defaultTestDatabase(), () => s3ServerEnv())

  it('answers 503 with Retry-After while the store is down, and serves again once it is back', async () => {
    const original = `${suite.server.url}/v2/demo/original/samples/horse.png`
    expect((await fetch(original)).status).toBe(200)
    await s3.stop()

    const refused = await fetch(original)
    expect(refused.status).toBe(503)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ code: 'storage_unavailable' })
    const render = await fetch(`${suite.server.url}/v2/demo/t.resize(w:33)/samples/horse.png`)
    expect(render.status).toBe(503)
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
    const ready = await fetch(`${suite.server.url}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ storage: 'unavailable', database: 'ok' })

    await s3.start()
    expect((await fetch(original)).status).toBe(200)
    expect(
      (await fetch(`${suite.server.url}/v2/demo/t.resize(w:33)/samples/horse.png`)).status,
    ).toBe(200)
  }, 60_000)
})
