// Jobs are database rows: a slow request enqueued by one server process is finished by the
// next one to start on the same database.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../test-server.ts'

describe('background jobs', () => {
  const cleanup: string[] = []
  afterAll(async () => {
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true })
  })

  it('survive a restart: a job queued before a stop is done after the next start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tessera-jobs-'))
    cleanup.push(dataDir)
    // The demo organisation has strict transformations: its AI operations run from presets.
    const path = '/v2/demo/p:square-crop/samples/chelsea.png'

    const first = await startTestServer(
      'pglite',
      {},
      { dataDir, persistDatabase: true, runJobs: false },
    )
    const { repo } = first.services.context
    const demo = await repo.findOrganisationByCloudName('demo')
    await repo.upsertPreset(demo?.id as string, {
      name: 'square-crop',
      transformation: 'ic.crop(w:64,h:64)',
    })
    const queued = await fetch(`${first.url}${path}`)
    expect(queued.status).toBe(202)
    const { jobId } = (await queued.json()) as { jobId: string }
    expect((await first.services.context.repo.getJob(jobId))?.status).toBe('queued')
    await first.stop()

    const second = await startTestServer(
      'pglite',
      {},
      { dataDir, persistDatabase: true, runJobs: false },
    )
    try {
      expect(await second.services.jobs.drain()).toBe(1)
      expect((await second.services.context.repo.getJob(jobId))?.status).toBe('done')
      const done = await fetch(`${second.url}${path}`)
      expect(done.status).toBe(200)
      expect(done.headers.get('content-type')).toBe('image/png')
    } finally {
      await second.stop()
    }
  }, 60_000)
})
