// The whole server on S3-compatible storage (a real s3rver on loopback): demo data, delivery,
// the derived-image cache and uploads all go through the S3 adapter.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { s3ServerEnv, useS3rver } from '../storage/storage-suite.ts'
import { defaultTestDatabase } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

describe('delivery on S3-compatible storage', () => {
  useS3rver()
  const suite = useTestServer(defaultTestDatabase(), () => s3ServerEnv({ S3_PREFIX: 'tessera' }))

  it('reports S3 storage as ready', async () => {
    expect(await (await fetch(`${suite.server.url}/readyz`)).json()).toMatchObject({
      storage: 'ok',
    })
  })

  it('serves originals with ranges and transformed images from the cache', async () => {
    const original = await fetch(`${suite.server.url}/v2/demo/original/samples/horse.png`, {
      headers: { range: 'bytes=0-7' },
    })
    expect(original.status).toBe(206)
    expect(Buffer.from(await original.arrayBuffer()).toString('hex')).toBe('89504e470d0a1a0a')
    const path = `${suite.server.url}/v2/demo/t.resize(w:40)~t.grey()/samples/horse.png`
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
    const response = await fetch(`${suite.server.url}/service/panel/assets/v1.0/upload/direct`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${await suite.server.createToken()}` },
    })
    expect(response.status).toBe(200)
    const delivered = await fetch(`${suite.server.url}/v2/demo/original/green.png`)
    expect((await sharp(Buffer.from(await delivered.arrayBuffer())).metadata()).width).toBe(9)
  })
})
