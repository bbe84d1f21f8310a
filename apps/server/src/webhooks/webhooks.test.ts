// Webhooks through the real server to a real local HTTP receiver: an organisation registers an
// endpoint, its file and folder events and finished predictions arrive signed (HMAC, verified
// here as docs/api.md tells customers to), a failed delivery is retried through the jobs table
// with back-off, the ping and the log answer, and targets on private or loopback addresses are
// refused at registration and again at delivery unless allow-listed (REMOTE_ALLOW_HOSTS).
import { createHmac, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, expectError, multipart } from '../test-client.ts'
import {
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'

const SAMPLE = new URL('../../demo/samples/horse.png', import.meta.url)
const BASE = '/service/panel/organization/v1.0/org'
const ASSETS = '/service/panel/assets/v1.0'

interface Received {
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
  json: { id: string; event: string; organisationId: string; data: Record<string, unknown> }
}

/** A local endpoint that keeps what it receives and answers the statuses it is told to. */
async function startReceiver() {
  const received: Received[] = []
  const statuses: number[] = []
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const status = statuses.shift() ?? 200
      if (status < 300) {
        received.push({
          path: request.url ?? '',
          headers: request.headers,
          body,
          json: JSON.parse(body) as Received['json'],
        })
      }
      response.writeHead(status).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    port,
    received,
    failNext: (status: number) => statuses.push(status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Verifies a delivery's signature the way docs/api.md tells customers to. */
function verify(secret: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '')
  if (match === null) return false
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest()
  return timingSafeEqual(expected, Buffer.from(match[2] as string, 'hex'))
}

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

describe.each<TestDatabaseKind>(testDatabases('server'))('webhooks on %s', (kind) => {
  let server: TestServer
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let client: ReturnType<typeof createTestClient>
  let image: Buffer

  beforeAll(async () => {
    receiver = await startReceiver()
    // Only 127.0.0.1 is allow-listed: `localhost` and every other private address stay refused.
    server = await startTestServer(kind, { REMOTE_ALLOW_HOSTS: '127.0.0.1' })
    Object.assign(server.services.context.config, { publicUrl: server.url })
    client = createTestClient(server)
    image = await readFile(SAMPLE)
  })
  afterAll(async () => {
    await server?.stop()
    await receiver?.close()
  })

  const hookUrl = (path = 'hook') => `http://127.0.0.1:${receiver.port}/${path}`

  async function until<T>(find: () => T | undefined | Promise<T | undefined>): Promise<T> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const found = await find()
      if (found !== undefined) return found
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error('timed out waiting')
  }
  const arrived = (event: string, test: (item: Received) => boolean = () => true) =>
    until(() => receiver.received.find((item) => item.json.event === event && test(item)))

  async function newOrganisation() {
    const account = await client.signup()
    const { token } = await client.createToken(account)
    const webhooks = `${BASE}/${account.organisation._id}/webhooks`
    return { account, token, webhooks }
  }

  async function upload(orgToken: string, name: string) {
    const boundary = 'xxBOUNDARYxx'
    const response = await fetch(`${server.url}${ASSETS}/upload/direct`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${orgToken}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: multipart(boundary, [
        { name: 'path', data: 'hooks' },
        { name: 'name', data: name },
        { name: 'file', fileName: 'horse.png', data: image },
      ]),
    })
    expect(response.status).toBe(200)
    return (await response.json()) as { fileId: string; fullPath: string }
  }

  it('delivers file and folder events signed with the secret, and logs them', async () => {
    const { account, token, webhooks } = await newOrganisation()
    const made = await client.call('POST', webhooks, {
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
      data: { fullPath: file.fullPath, format: 'png', size: image.length },
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

    const folder = await client.call('POST', `${ASSETS}/org/${account.organisation._id}/folders`, {
      token,
      body: { name: 'fresh', path: 'hooks' },
    })
    expect(folder.status, JSON.stringify(folder.body)).toBeLessThan(300)
    const folderEvent = await arrived(
      'folder.created',
      (item) => item.json.data.fullPath === 'hooks/fresh',
    )
    expect(
      verify(hook.secret, folderEvent.headers['x-tessera-signature'] as string, folderEvent.body),
    ).toBe(true)

    const removed = await client.call(
      'DELETE',
      `${ASSETS}/org/${account.organisation._id}/files/${file.fileId}`,
      { token },
    )
    expect(removed.status).toBe(200)
    await arrived('file.deleted', (item) => item.json.data.fileId === file.fileId)

    const log = await until(async () => {
      const answer = await client.call('GET', `${webhooks}/deliveries`, { cookie: account.cookie })
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
    const made = await client.call('POST', webhooks, {
      token,
      body: { url: hookUrl('retry'), events: ['folder.created'] },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    receiver.failNext(500)
    const folder = await client.call('POST', `${ASSETS}/org/${account.organisation._id}/folders`, {
      token,
      body: { name: 'retried' },
    })
    expect(folder.status).toBeLessThan(300)
    const first = await until(async () => {
      const answer = await client.call('GET', `${webhooks}/deliveries`, { token })
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
    const { db } = server.services.context.database
    const due = await db.execute(
      sql`select run_after > now() + interval '20 seconds' as later from jobs where payload->>'deliveryId' = ${first._id}`,
    )
    expect((due as unknown as { rows: { later: boolean }[] }).rows[0]?.later).toBe(true)
    await db.execute(
      sql`update jobs set run_after = now() where payload->>'deliveryId' = ${first._id}`,
    )
    server.services.context.wakeJobs()
    const second = await until(async () => {
      const answer = await client.call('GET', `${webhooks}/deliveries`, { token })
      const [item] = (answer.body as { items: { attempts: number; status: string }[] }).items
      return item?.status === 'delivered' ? item : undefined
    })
    expect(second.attempts).toBe(2)
    await arrived('folder.created', (item) => item.path === '/retry')
  })

  it('tells a finished prediction to its own webhook and to the registered endpoints', async () => {
    const { account, token, webhooks } = await newOrganisation()
    const made = await client.call('POST', webhooks, {
      token,
      body: { url: hookUrl('predictions'), events: ['prediction.finished'] },
    })
    const hook = made.body as { secret: string }
    const pixelbin = new sdk.PixelbinClient(
      new sdk.PixelbinConfig({ domain: server.url, apiSecret: token }),
    )
    const done = await pixelbin.predictions.createAndWait({
      name: 'ic_crop',
      input: { image, requiredWidth: 20, requiredHeight: 20 },
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
    const made = await client.call('POST', webhooks, {
      cookie: account.cookie,
      body: { url: hookUrl('ping'), secret: 'a-secret-of-my-own-choosing' },
    })
    const hook = made.body as { _id: string }
    const ping = await client.call('POST', `${webhooks}/${hook._id}/ping`, {
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
    receiver.failNext(503)
    const failed = await client.call('POST', `${webhooks}/${hook._id}/ping`, {
      cookie: account.cookie,
    })
    expect(failed.body).toMatchObject({
      delivered: false,
      delivery: { status: 'failed', responseStatus: 503 },
    })
  })

  it('refuses private and loopback targets at registration unless allow-listed', async () => {
    const { account, webhooks } = await newOrganisation()
    for (const [url, code] of [
      [`http://localhost:${receiver.port}/x`, 'webhook_blocked_address'],
      ['https://10.0.0.1/x', 'webhook_blocked_address'],
      ['https://169.254.169.254/latest/meta-data', 'webhook_blocked_address'],
      ['https://[::1]/x', 'webhook_blocked_address'],
      ['http://example.com/x', 'invalid_webhook_url'],
      ['ftp://example.com/x', 'webhook_invalid_url'],
      ['https://user:pass@example.com/x', 'webhook_invalid_url'],
      ['not a url', 'webhook_invalid_url'],
    ] as const) {
      expectError(
        await client.call('POST', webhooks, { cookie: account.cookie, body: { url } }),
        400,
        code,
      )
    }
    expectError(
      await client.call('POST', webhooks, {
        cookie: account.cookie,
        body: { url: hookUrl(), events: ['file.exploded'] },
      }),
      400,
      'invalid_body',
    )
    expectError(
      await client.call('POST', webhooks, { cookie: account.cookie, body: {} }),
      400,
      'invalid_body',
    )
    const list = await client.call('GET', webhooks, { cookie: account.cookie })
    expect(list.body).toEqual([])
  })

  it('refuses a target at delivery once it is no longer allowed', async () => {
    const { account, token, webhooks } = await newOrganisation()
    const made = await client.call('POST', webhooks, {
      token,
      body: { url: hookUrl('later'), events: ['folder.created'] },
    })
    expect(made.status).toBe(201)
    const allowHosts = server.services.context.config.remote.allowHosts
    allowHosts.splice(allowHosts.indexOf('127.0.0.1'), 1)
    try {
      await client.call('POST', `${ASSETS}/org/${account.organisation._id}/folders`, {
        token,
        body: { name: 'blocked' },
      })
      const item = await until(async () => {
        const answer = await client.call('GET', `${webhooks}/deliveries`, { token })
        const [first] = (
          answer.body as { items: { status: string; error: string; attempts: number }[] }
        ).items
        return first?.status === 'failed' ? first : undefined
      })
      expect(item.error).toMatch(/private|local/)
      expect(item.attempts).toBe(1)
      expect(receiver.received.some((entry) => entry.path === '/later')).toBe(false)
    } finally {
      allowHosts.push('127.0.0.1')
    }
  })

  it('keeps webhooks to their organisation and to owners', async () => {
    const owner = await newOrganisation()
    const made = await client.call('POST', owner.webhooks, {
      token: owner.token,
      body: { url: hookUrl() },
    })
    const hook = made.body as { _id: string }
    const stranger = await newOrganisation()
    for (const [method, path] of [
      ['GET', `${stranger.webhooks}/${hook._id}`],
      ['PATCH', `${stranger.webhooks}/${hook._id}`],
      ['DELETE', `${stranger.webhooks}/${hook._id}`],
      ['POST', `${stranger.webhooks}/${hook._id}/ping`],
    ] as const) {
      expectError(
        await client.call(method, path, {
          cookie: stranger.account.cookie,
          ...(method === 'PATCH' ? { body: { active: false } } : {}),
        }),
        404,
        'webhook_not_found',
      )
    }
    expectError(
      await client.call('GET', owner.webhooks, { token: stranger.token }),
      404,
      'organisation_not_found',
    )
    const { member } = await client.join(owner.account)
    expect((await client.call('GET', owner.webhooks, { cookie: member.cookie })).status).toBe(200)
    expectError(
      await client.call('POST', owner.webhooks, {
        cookie: member.cookie,
        body: { url: hookUrl() },
      }),
      403,
      'forbidden',
    )
    const paused = await client.call('PATCH', `${owner.webhooks}/${hook._id}`, {
      token: owner.token,
      body: { active: false },
    })
    expect(paused.body).toMatchObject({ active: false })
    expect(
      (await client.call('DELETE', `${owner.webhooks}/${hook._id}`, { token: owner.token })).status,
    ).toBe(200)
    expectError(
      await client.call('GET', `${owner.webhooks}/${hook._id}`, { token: owner.token }),
      404,
      'webhook_not_found',
    )
  })
})
