// An image larger than the AI models take (AI_MAX_INPUT_PIXELS) is refused before a job is
// queued or a credit is spent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test-server.ts'

describe('the AI input limit', () => {
  let server: TestServer

  beforeAll(async () => {
    // Read at boot with the server's other settings (config.ts).
    server = await startTestServer('pglite', { AI_MAX_INPUT_PIXELS: '1000' }, { runJobs: false })
  })

  afterAll(async () => {
    await server?.stop()
  })

  it('answers a 4xx for an AI chain on a larger image, with no job and no charge', async () => {
    const { repo } = server.services.context
    const demo = await repo.findOrganisationByCloudName('demo')
    if (demo === undefined) throw new Error('the demo organisation is missing')
    // The demo organisation is strict: its AI operations run from presets.
    await repo.upsertPreset(demo.id, { name: 'big-erase', transformation: 'erase.bg()' })
    const before = (await repo.findOrganisationByCloudName('demo'))?.credits
    const response = await fetch(`${server.url}/v2/demo/p:big-erase/samples/chelsea.png`)
    expect(response.status).toBe(422)
    expect(((await response.json()) as { code: string }).code).toBe('image_too_large')
    expect(await server.services.jobs.drain()).toBe(0)
    expect((await repo.findOrganisationByCloudName('demo'))?.credits).toBe(before)
  })
})
