// Test support for the webhook suites (webhooks-*.test.ts): a real server whose only allow-listed
// private address is 127.0.0.1, a local HTTP receiver that keeps what arrives and answers the
// statuses it is told to, and the signature check docs/api.md tells customers to make.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, expect } from 'vitest'
import { uploadDirect } from '../test-client.ts'
import { startLoopbackServer } from '../test-loopback.ts'
import type { TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

const SAMPLE = new URL('../../demo/samples/horse.png', import.meta.url)
const BASE = '/service/panel/organization/v1.0/org'
export const ASSETS = '/service/panel/assets/v1.0'

export interface Received {
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
  json: { id: string; event: string; organisationId: string; data: Record<string, unknown> }
}

/** A local endpoint that keeps what it receives and answers the statuses it is told to. */
async function startReceiver() {
  const received: Received[] = []
  const statuses: number[] = []
  const server = await startLoopbackServer((request, response) => {
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
  return {
    port: server.port,
    received,
    failNext: (status: number) => statuses.push(status),
    close: server.close,
  }
}

/** Verifies a delivery's signature the way docs/api.md tells customers to. */
export function verify(secret: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '')
  if (match === null) return false
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest()
  return timingSafeEqual(expected, Buffer.from(match[2] as string, 'hex'))
}

/**
 * Starts the receiver and a server (publicUrl its own address) before the suite's tests, with a
 * client and the sample image; stops them after.
 */
export function useWebhooksSuite(kind: TestDatabaseKind) {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let image: Buffer

  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
  })
  // Only 127.0.0.1 is allow-listed: `localhost` and every other private address stay refused.
  const suite = useTestServer(kind, { REMOTE_ALLOW_HOSTS: '127.0.0.1' }, { ownPublicUrl: true })
  beforeAll(async () => {
    image = await readFile(SAMPLE)
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
    const account = await suite.client.signup()
    const { token } = await suite.client.createToken(account)
    const webhooks = `${BASE}/${account.organisation._id}/webhooks`
    return { account, token, webhooks }
  }

  async function upload(orgToken: string, name: string) {
    const form = new FormData()
    form.set('path', 'hooks')
    form.set('name', name)
    form.set('file', new Blob([image]), 'horse.png')
    const response = await uploadDirect(suite.server.url, orgToken, form)
    expect(response.status).toBe(200)
    return (await response.json()) as { fileId: string; fullPath: string }
  }

  return {
    get server() {
      return suite.server
    },
    get receiver() {
      return receiver
    },
    get client() {
      return suite.client
    },
    get image() {
      return image
    },
    hookUrl,
    until,
    arrived,
    newOrganisation,
    upload,
  }
}
