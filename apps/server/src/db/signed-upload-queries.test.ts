// Signed uploads' and webhooks' queries on both engines (their subject is SQL behaviour): parts
// sent at once never pass the total or record a number twice, one completion wins, stale uploads
// are found with their parts, and the webhooks' event filter and delivery log.
import { beforeAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../test-server.ts'
import { useTestRepository } from './repository-suite.ts'

describe.each(testDatabases('database'))('signed upload and webhook queries (%s)', (engine) => {
  const suite = useTestRepository(engine)
  let organisationId: string

  beforeAll(async () => {
    organisationId = (await suite.repo.createOrganisation({ cloudName: 'uploads-q', name: 'Q' })).id
  })

  const newUpload = (expiresInMs = 60_000) =>
    suite.repo.createSignedUpload({
      organisationId,
      version: 2,
      secretHash: 'x',
      fields: {
        path: '',
        name: undefined,
        format: undefined,
        overwrite: false,
        filenameOverride: false,
      },
      expiresAt: new Date(Date.now() + expiresInMs),
    })
  const part = (uploadId: string, partNumber: number, size: number, hash = `h${partNumber}`) => ({
    uploadId,
    partNumber,
    size,
    hash,
    storageKey: `k/${uploadId}/${partNumber}/${hash}`,
  })

  it('records 20 parts sent at once only up to the total, each number once', async () => {
    const upload = await newUpload()
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        suite.repo.addSignedUploadPart(part(upload.id, (i % 10) + 1, 100, `h${i}`), 550),
      ),
    )
    const stored = await suite.repo.listSignedUploadParts(upload.id)
    expect(stored.length).toBeLessThanOrEqual(5)
    expect(new Set(stored.map((p) => p.partNumber)).size).toBe(stored.length)
    expect(results.filter((r) => 'part' in r)).toHaveLength(stored.length)
    const now = await suite.repo.findSignedUpload(upload.id)
    expect(now?.receivedBytes).toBe(stored.length * 100)
  })

  it('lets one of two completions win, and takes no part after it', async () => {
    const upload = await newUpload()
    await suite.repo.addSignedUploadPart(part(upload.id, 1, 10), 1000)
    const moves = await Promise.all([
      suite.repo.moveSignedUpload(upload.id, 'open', 'completing'),
      suite.repo.moveSignedUpload(upload.id, 'open', 'completing'),
    ])
    expect(moves.filter((m) => m !== undefined)).toHaveLength(1)
    expect(await suite.repo.addSignedUploadPart(part(upload.id, 2, 10), 1000)).toMatchObject({
      refused: 'over_total',
    })
  })

  it('refuses to open an expired upload and finds it stale with its parts', async () => {
    const upload = await newUpload(-1000)
    expect(await suite.repo.moveSignedUpload(upload.id, 'open', 'completing')).toBeUndefined()
    const stale = await suite.repo.staleSignedUploads(100)
    expect(stale.map((s) => s.id)).toContain(upload.id)
    await suite.repo.deleteSignedUploads([upload.id])
    expect(await suite.repo.findSignedUpload(upload.id)).toBeUndefined()
  })

  it('finds the active webhooks of an event and keeps the delivery log per organisation', async () => {
    const all = await suite.repo.createWebhook(organisationId, {
      url: 'https://a.example/hook',
      secret: 's'.repeat(20),
      events: ['file.created', 'file.deleted'],
      description: '',
    })
    await suite.repo.createWebhook(organisationId, {
      url: 'https://b.example/hook',
      secret: 's'.repeat(20),
      events: ['folder.created'],
      description: '',
    })
    expect((await suite.repo.webhooksFor(organisationId, 'file.deleted')).map((h) => h.id)).toEqual(
      [all.id],
    )
    await suite.repo.updateWebhook(organisationId, all.id, { active: false })
    expect(await suite.repo.webhooksFor(organisationId, 'file.deleted')).toEqual([])
    const delivery = await suite.repo.createDelivery({
      organisationId,
      webhookId: all.id,
      url: all.url,
      event: 'file.created',
      payload: { event: 'file.created' },
    })
    await suite.repo.recordDeliveryAttempt(delivery.id, {
      status: 'pending',
      responseStatus: 500,
      error: 'x',
    })
    const done = await suite.repo.recordDeliveryAttempt(delivery.id, {
      status: 'delivered',
      responseStatus: 200,
      error: null,
    })
    expect(done).toMatchObject({ attempts: 2, status: 'delivered', responseStatus: 200 })
    expect(done?.deliveredAt).toBeInstanceOf(Date)
    const other = await suite.repo.createOrganisation({ cloudName: 'uploads-r', name: 'R' })
    expect(await suite.repo.listDeliveries(other.id, { limit: 10, offset: 0 })).toEqual([])
    expect(await suite.repo.findWebhook(other.id, all.id)).toBeUndefined()
    expect(await suite.repo.deleteWebhook(other.id, all.id)).toBe(false)
  })
})
