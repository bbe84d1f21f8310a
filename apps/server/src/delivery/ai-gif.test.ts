// An AI step on an animated GIF sees its first frame: the delivery answer says so in a header,
// and the transformation context in the step's data (issue 20: both were silent).
import { readFile } from 'node:fs/promises'
import { createAi } from '@tessera/engine'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient } from '../test-client.ts'
import {
  defaultTestDatabase,
  startTestServer,
  storeTestFile,
  type TestServer,
} from '../test-server.ts'
import type { TransformationContextAnswer } from '../transformation/context.ts'
import { TRANSFORMATION_CONTEXT } from '../transformation/paths.ts'

const SAMPLES = new URL('../../demo/samples/', import.meta.url)
const ORG = '/service/panel/organization/v1.0'
const SLOW = 300_000

const ai = createAi()
afterAll(async () => {
  await ai.close()
})

// Two frames of the cat, the second upside down.
async function animation(): Promise<Buffer> {
  const cat = await sharp(await readFile(new URL('chelsea.png', SAMPLES)))
    .resize(96, 64)
    .removeAlpha()
    .raw()
    .toBuffer()
  const flipped = await sharp(cat, { raw: { width: 96, height: 64, channels: 3 } })
    .flip()
    .raw()
    .toBuffer()
  return await sharp(Buffer.concat([cat, flipped]), {
    raw: { width: 96, height: 128, channels: 3, pageHeight: 64 },
  })
    .gif()
    .toBuffer()
}

describe('an AI operation on an animated GIF, over HTTP', () => {
  let server: TestServer
  let client: ReturnType<typeof createTestClient>
  let cloudName: string
  let token: string

  beforeAll(async () => {
    server = await startTestServer(defaultTestDatabase(), { FREE_PLAN_CREDITS: '1000' }, { ai })
    client = createTestClient(server)
    const owner = await client.signup()
    cloudName = owner.organisation.cloudName
    const { repo, lookups } = server.services.context
    await repo.updateOrganisationSettings(owner.organisation._id, { strictTransformations: false })
    lookups.forgetOrganisation({ id: owner.organisation._id, cloudName })
    await storeTestFile(server, owner.organisation._id, 'in/cat.gif', await animation())
    const png = await sharp(await readFile(new URL('chelsea.png', SAMPLES)))
      .resize(96)
      .png()
    await storeTestFile(server, owner.organisation._id, 'in/cat.png', await png.toBuffer())
    const created = await client.call('POST', `${ORG}/${owner.organisation._id}/tokens`, {
      cookie: owner.cookie,
      body: { name: 'gif tests' },
    })
    token = (created.body as { token: string }).token
  })
  afterAll(async () => {
    await server?.stop()
  })

  async function deliver(path: string): Promise<Response> {
    const url = `${server.url}/v2/${cloudName}/qr.scan()/${path}`
    let response = await fetch(url)
    for (let attempt = 0; attempt < 3000 && response.status === 202; attempt++) {
      await response.arrayBuffer()
      await new Promise((resolve) => setTimeout(resolve, 100))
      response = await fetch(url)
    }
    expect(response.status).toBe(200)
    return response
  }

  it(
    'answers x-ai-frames: first, and the context says firstFrameOnly with the frame count',
    async () => {
      const response = await deliver('in/cat.gif')
      expect(response.headers.get('x-ai-frames')).toBe('first')
      await response.arrayBuffer()
      // Served again from the cache: the header stays.
      const again = await fetch(`${server.url}/v2/${cloudName}/qr.scan()/in/cat.gif`)
      expect(again.headers.get('x-ai-frames')).toBe('first')
      await again.arrayBuffer()
      const url = `/v2/${cloudName}/qr.scan()/in/cat.gif`
      const answer = await client.call(
        'GET',
        `${TRANSFORMATION_CONTEXT}?url=${encodeURIComponent(url)}`,
        { token },
      )
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      const [step] = (answer.body as TransformationContextAnswer).context.steps
      expect(step?.data).toMatchObject({ found: false, firstFrameOnly: true, frames: 2 })
    },
    SLOW,
  )

  it(
    'sends no such header for a PNG',
    async () => {
      const response = await deliver('in/cat.png')
      expect(response.headers.get('x-ai-frames')).toBeNull()
      await response.arrayBuffer()
    },
    SLOW,
  )
})
