// AI steps are judged before a job is queued or a credit is spent, on PGlite and PostgreSQL:
// an image larger than the models take (AI_MAX_INPUT_PIXELS) is refused — the image the step
// itself receives, after the steps before it (issue 20) — and so is a step that cannot finish
// within AI_TIMEOUT_MS by its cost estimate (issue 19 finding 4). A model that runs out of time
// fails its job at once, without retries; a BMP larger than OUTPUT_MAX_BYTES is refused before
// it is rendered (finding 13).
import { describe, expect, it } from 'vitest'
import type { TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { DERIVE_VISITOR_JOB } from './job.ts'

describe.each<TestDatabaseKind>(['pglite', 'postgres'])('the AI input limits on %s', (kind) => {
  // Read at boot with the server's other settings (config.ts). chelsea.png is 451×300.
  const suite = useTestServer(
    kind,
    { AI_MAX_INPUT_PIXELS: '30000', AI_TIMEOUT_MS: '2000', OUTPUT_MAX_BYTES: '1000000' },
    { runJobs: false },
  )

  /** Delivers `pattern` on the demo's chelsea.png through a preset (the demo is strict). */
  async function deliver(name: string, pattern: string) {
    const { repo } = suite.server.services.context
    const demo = await repo.findOrganisationByCloudName('demo')
    if (demo === undefined) throw new Error('the demo organisation is missing')
    await repo.upsertPreset(demo.id, { name, transformation: pattern })
    const response = await fetch(`${suite.server.url}/v2/demo/p:${name}/samples/chelsea.png`)
    const body = response.headers.get('content-type')?.includes('json')
      ? ((await response.json()) as { code?: string; message?: string })
      : {}
    return { status: response.status, body }
  }
  const credits = async () =>
    (await suite.server.services.context.repo.findOrganisationByCloudName('demo'))?.credits

  it('answers a 4xx for an AI chain on a larger image, with no job and no charge', async () => {
    const before = await credits()
    const answer = await deliver('big-erase', 'erase.bg()')
    expect(answer.status).toBe(422)
    expect(answer.body.code).toBe('image_too_large')
    expect(await credits()).toBe(before)
  })

  it('queues an AI step whose own input fits, though the stored file does not', async () => {
    // 451×300 resized to 100×67 before the model: 6,700 pixels.
    const answer = await deliver('small-erase', 't.resize(w:100)~erase.bg()')
    expect(answer.status, JSON.stringify(answer.body)).toBe(202)
  })

  it('refuses at once an upscale that cannot finish within AI_TIMEOUT_MS, uncharged', async () => {
    const before = await credits()
    const answer = await deliver('slow-upscale', 't.resize(w:170,h:170)~sr.upscale(t:2x)')
    expect(answer.status).toBe(422)
    expect(answer.body.code).toBe('image_too_large')
    expect(answer.body.message).toMatch(/would take about \d+ s .*limit is 2 s \(AI_TIMEOUT_MS\)/)
    expect(await credits()).toBe(before)
    // The lighter model on a smaller image fits, and is queued in the visitors' lane.
    const light = await deliver('quick-upscale', 't.resize(w:60,h:60)~sr.upscale(t:2x,model:Flash)')
    expect(light.status, JSON.stringify(light.body)).toBe(202)
    const { repo } = suite.server.services.context
    const queued = await repo.claimJob('inspector', [DERIVE_VISITOR_JOB])
    expect(queued?.kind).toBe(DERIVE_VISITOR_JOB)
  })

  it('refuses a BMP over OUTPUT_MAX_BYTES before rendering it', async () => {
    const response = await fetch(
      `${suite.server.url}/v2/demo/t.resize(w:2000,h:2000)~t.toFormat(f:bmp)/samples/chelsea.png`,
    )
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      code: 'output_too_large',
      message: expect.stringMatching(/as bmp; the limit is 1000000 bytes/),
    })
    const small = await fetch(
      `${suite.server.url}/v2/demo/t.resize(w:200,h:200)~t.toFormat(f:bmp)/samples/chelsea.png`,
    )
    expect(small.status).toBe(200)
  })
})

describe.each<TestDatabaseKind>(['pglite', 'postgres'])('a model out of time on %s', (kind) => {
  // 100 ms: the cost estimate of a QR scan passes, but a cold model does not start in time.
  const suite = useTestServer(kind, { AI_TIMEOUT_MS: '100' }, { runJobs: false })

  it('fails its job at once, refunded, instead of trying it again', async () => {
    const { repo } = suite.server.services.context
    const demo = await repo.findOrganisationByCloudName('demo')
    if (demo === undefined) throw new Error('the demo organisation is missing')
    await repo.upsertPreset(demo.id, { name: 'scan', transformation: 'qr.scan()' })
    const before = demo.credits
    const url = `${suite.server.url}/v2/demo/p:scan/samples/chelsea.png`
    expect((await fetch(url)).status).toBe(202)
    expect(await suite.server.services.jobs.drain()).toBe(1)
    const failed = await fetch(url)
    expect(failed.status).toBe(422)
    expect(await failed.json()).toMatchObject({ code: 'transformation_failed' })
    expect(await suite.server.services.jobs.drain()).toBe(0)
    expect((await repo.findOrganisationByCloudName('demo'))?.credits).toBe(before)
  })
})
