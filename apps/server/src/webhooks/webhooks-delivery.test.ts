// Webhooks through the real server to a real local HTTP receiver, what arrives: an organisation
// registers an endpoint, its file and folder events and finished predictions arrive signed (HMAC,
// verified here as docs/api.md tells customers to), a failed delivery is retried through the jobs
// table with back-off, and the ping and the log answer. (Targets refused and who may see a
// webhook: webhooks-targets.test.ts.)
import { createRequire } from 'node:module'
import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../test-suite.ts'
import { ASSETS, useWebhooksSuite, verify } from './webhooks-suite.ts'

const sdk = createRequire(import.meta.url)('@pixelbin/admin') as {
  PixelbinConfig: new (options: { domain: string; apiSecret: string }) => unknown
  PixelbinClient: new (
    config: unknown,
  ) => {
    predictions: {
      createAndWait(options: Record<string, unknown>): Promise<{ _id: string; status: string }>
    }
  }
}

describeEachDatabase('server', 'webhooks on %s', useWebhooksSuite, (suite) => {
  const { hookUrl, until, arrived, newOrganisation, upload } = suite

  it('delivers file and folder events signed with the secret, and logs them', async () => {
    const { account, token, webhooks } = await newOrganisation()
    const made = await suite.client.call('POST', webhooks, {
      cookie: account.cookie,
      body: { url: hookUrl(), description: 'all events' },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const hook = made.body as { _id: string; secret: string; events: string[]; secretHint: string }
    expect(hook.secret).toMatch(/^whsec_/)
    expect(hook.events).toEqual([
      'file.created',
      'file.deleted',
      'folder.created',
      'prediction.finished',
    ])
    expect(hook.secretHint).toBe(`…${hook.secret.slice(-4)}`)

    const file = await upload(token, `signed-${account.organisation._id.slice(0, 8)}`)
    const created = await arrived('file.created', (item) => item.json.data.fileId === file.fileId)
    expect(created.headers['x-tessera-event']).toBe('file.created')
    expect(created.headers['x-tessera-delivery']).toBe(created.json.id)
    expect(created.json).toMatchObject({
      organisationId: account.organisation._id,
      data: { fullPath: file.fullPath, format: 'png', size: suite.image.length },
    })
    expect(
      verify(hook.secret, created.headers['x-tessera-signature'] as string, created.body),
    ).toBe(true)
    expect(
      verify(
        'another-secret-entirely',
        created.headers['x-tessera-signature'] as string,
        created.body,
      ),
    ).toBe(false)

    const folder = await suite.client.call(
      'POST',
      `${ASSETS}/org/${account.organisation._id}/folders`,
      {
        token,
        body: { name: 'fresh', path: 'hooks' },
      },
    )
    expect(folder.status, JSON.stringify(folder.body)).toBeLessThan(300)
    const folderEvent = await arrived(
      'folder.created',
      (item) => item.json.data.fullPath === 'hooks/fresh',
    )
    expect(
      verify(hook.secret, folderEvent.headers['x-tessera-signature'] as string, folderEvent.body),
    ).toBe(true)

    const removed = await suite.client.call(
      'DELETE',
      `${ASSETS}/org/${account.organisation._id}/files/${file.fileId}`,
      { token },
    )
    expect(removed.status).toBe(200)
    await arrived('file.deleted', (item) => item.json.data.fileId === file.fileId)

    const log = await until(async () => {
      const answer = await suite.client.call('GET', `${webhooks}/deliveries`, {
        cookie: account.cookie,
      })
      const { items } = answer.body as {
        items: { event: string; status: string; responseStatus: number }[]
      }
      return items.filter((item) => item.status === 'delivered').length >= 3 ? items : undefined
    })
    expect(log.map((item) => item.event)).toEqual(
      expect.arrayContaining(['file.created', 'folder.created', 'file.deleted']),
    )
    expect(log.every((item) => item.responseStatus === 200)).toBe(true)
  })

  it('retries a failed delivery with back-off through the jobs table', async () => {
    const { account, token, webhooks } = await newOrganisation()
    const made = await suite.client.call('POST', webhooks, {
      token,
      body: { url: hookUrl('retry'), events: ['folder.created'] },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    suite.receiver.failNext(500)
    const folder = await suite.client.call(
      'POST',
      `${ASSETS}/org/${account.organisation._id}/folders`,
      {
        token,
        body: { name: 'retried' },
      },
    )
    expect(folder.status).toBeLessThan(300)
    const first = await until(async () => {
      const answer = await suite.client.call('GET', `${webhooks}/deliveries`, { token })
      const [item] = (
        answer.body as {
          items: {
            _id: string
            attempts: number
            status: string
            responseStatus: number | null
            error: string
          }[]
        }
      ).items
      return item !== undefined && item.attempts === 1 ? item : undefined
    })
    expect(first).toMatchObject({ status: 'pending', responseStatus: 500 })
    expect(first.error).toContain('500')
    // The job waits out its back-off (30 s at first); brought forward here, it runs again.
    const { db } = suite.server.services.context.database
    const due = await db.execute(
      sql`select run_after > now() + interval '20 seconds' as later from jobs where payload->>'deliveryId' = ${first._id}`,
    )
    expect((due as unknown as { rows: { later: boolean }[] }).rows[0]?.later).toBe(true)
    await db.execute(
      sql`update jobs set run_after = now() where payload->>'deliveryId' = ${first._id}`,
    )
    suite.server.services.context.wakeJobs()
    const second = await until(async () => {
      const answer = await suite.client.call('GET', `${webhooks}/deliveries`, { token })
      const [item] = (answer.body as { items: { attempts: number; status: string }[] }).items
      return item?.status === 'delivered' ? item : undefined
    })
    expect(second.attempts).toBe(2)
    await arrived('folder.created', (item) => item.path === '/retry')
  })

  it('tells a finished prediction to its own webhook and to the registered endpoints', async () => {
    const { account, token, webhooks } = await newOrganisation()
    const made = await suite.client.call('POST', webhooks, {
      token,
      body: { url: hookUrl('predictions'), events: ['prediction.finished'] },
    })
    const hook = made.body as { secret: string }
    const pixelbin = new sdk.PixelbinClient(
      new sdk.PixelbinConfig({ domain: suite.server.url, apiSecret: token }),
    )
    const done = await pixelbin.predictions.createAndWait({
      name: 'ic_crop',
      input: { image: suite.image, requiredWidth: 20, requiredHeight: 20 },
      webhook: hookUrl('own'),
      options: { retryInterval: 1000 },
    })
    expect(done.status).toBe('SUCCESS')
    const own = await arrived('prediction.finished', (item) => item.path === '/own')
    expect(own.json.data).toMatchObject({ _id: done._id, status: 'SUCCESS' })
    expect(own.headers['x-tessera-signature']).toBeUndefined()
    const registered = await arrived('prediction.finished', (item) => item.path === '/predictions')
    expect(registered.json.data).toMatchObject({ _id: done._id, orgId: account.organisation._id })
    expect(
      verify(hook.secret, registered.headers['x-tessera-signature'] as string, registered.body),
    ).toBe(true)
  })

  it('pings an endpoint now and answers the outcome', async () => {
    const { account, webhooks } = await newOrganisation()
    const made = await suite.client.call('POST', webhooks, {
      cookie: account.cookie,
      body: { url: hookUrl('ping'), secret: 'a-secret-of-my-own-choosing' },
    })
    const hook = made.body as { _id: string }
    const ping = await suite.client.call('POST', `${webhooks}/${hook._id}/ping`, {
      cookie: account.cookie,
    })
    expect(ping.status, JSON.stringify(ping.body)).toBe(200)
    expect(ping.body).toMatchObject({
      delivered: true,
      delivery: { event: 'ping', status: 'delivered', attempts: 1 },
    })
    const arrivedPing = await arrived('ping', (item) => item.path === '/ping')
    expect(
      verify(
        'a-secret-of-my-own-choosing',
        arrivedPing.headers['x-tessera-signature'] as string,
        arrivedPing.body,
      ),
    ).toBe(true)
    suite.receiver.failNext(503)
    const failed = await suite.client.call('POST', `${webhooks}/${hook._id}/ping`, {
      cookie: account.cookie,
    })
    expect(failed.body).toMatchObject({
      delivered: false,
      delivery: { status: 'failed', responseStatus: 503 },
    })
  })
})
