// A local stand-in for Stripe's API in tests: answers the calls the Stripe provider makes
// (Checkout Sessions, subscription updates, billing portal sessions) with the shapes Stripe
// documents, over real HTTP on loopback, and keeps what it was asked. The `stripe` library is
// pointed at it with STRIPE_API_URL.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface StandInRequest {
  method: string
  path: string
  /** The form-encoded body, decoded (`line_items[0][price]` keys kept as written). */
  form: Record<string, string>
  authorization: string | undefined
  idempotencyKey: string | undefined
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Starts the stand-in on a free loopback port. */
export async function startStripeStandIn() {
  const requests: StandInRequest[] = []
  const sessions = new Map<string, Record<string, unknown>>()
  /** Paths to answer with Stripe's 500 `api_error`, and how many more times. */
  const failing = new Map<string, number>()
  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') })
      response.end(JSON.stringify(body))
    }
    readBody(request)
      .then((text) => {
        const form = Object.fromEntries(new URLSearchParams(text))
        const path = (request.url ?? '/').split('?')[0] ?? '/'
        const idempotency = request.headers['idempotency-key']
        requests.push({
          method: request.method ?? 'GET',
          path,
          form,
          authorization: request.headers.authorization,
          idempotencyKey: typeof idempotency === 'string' ? idempotency : undefined,
        })
        const failures = failing.get(path) ?? 0
        if (failures > 0) {
          failing.set(path, failures - 1)
          return send(500, { error: { type: 'api_error', message: 'Stand-in outage' } })
        }
        if (request.method === 'POST' && path === '/v1/checkout/sessions') {
          // The same idempotency key answers the same session, as Stripe does.
          const known = [...sessions.values()].find(
            (session) => session.idempotencyKey === idempotency,
          )
          if (known !== undefined) return send(200, known.body)
          const sessionId = id('cs')
          const body = {
            id: sessionId,
            object: 'checkout.session',
            mode: form.mode,
            status: 'open',
            payment_status: 'unpaid',
            client_reference_id: form.client_reference_id ?? null,
            success_url: form.success_url,
            cancel_url: form.cancel_url,
            url: `https://checkout.stripe.com/c/pay/${sessionId}`,
            customer: null,
            subscription: null,
            metadata: {},
          }
          sessions.set(sessionId, { idempotencyKey: idempotency, body })
          return send(200, body)
        }
        const subscription = /^\/v1\/subscriptions\/([A-Za-z0-9_]+)$/.exec(path)
        if (request.method === 'POST' && subscription !== null) {
          return send(200, {
            id: subscription[1],
            object: 'subscription',
            status: 'active',
            cancel_at_period_end: form.cancel_at_period_end === 'true',
          })
        }
        if (request.method === 'POST' && path === '/v1/billing_portal/sessions') {
          return send(200, {
            id: id('bps'),
            object: 'billing_portal.session',
            customer: form.customer,
            return_url: form.return_url,
            url: `https://billing.stripe.com/p/session/${id('sess')}`,
          })
        }
        send(404, {
          error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` },
        })
      })
      .catch(() => send(400, { error: { type: 'invalid_request_error', message: 'bad body' } }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The next `times` calls to `path` fail as Stripe's outages do (500 `api_error`). */
    fail: (path: string, times: number) => failing.set(path, times),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
