// Sending one webhook delivery (decision 016): the event as JSON, signed with the endpoint's
// secret (HMAC-SHA256 over `<timestamp>.<body>`, header `x-tessera-signature: t=…,v1=…`), POSTed
// under the remote rules checked at connect time (a name rebound to a private address since
// registration is refused now), no redirect followed, within a time limit. Every attempt is kept
// in the delivery log; a failed one is tried again by the jobs table's back-off until the last.
import { createHmac } from 'node:crypto'
import { guardedRequest, RemoteError } from '../assets/remote.ts'
import type { AppContext } from '../context.ts'
import type { Job, WebhookDelivery } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import type { JobHandler } from '../platform/jobs.ts'
import { checkTargetUrl } from './target.ts'

/** The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const SIGNATURE_HEADER = 'x-tessera-signature'
export const EVENT_HEADER = 'x-tessera-event'
export const DELIVERY_HEADER = 'x-tessera-delivery'
/** How long an endpoint has to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000
/** The most of an error answer kept in the log. */
const ERROR_TEXT = 300

/** The signature of `body` sent at `timestamp` (unix seconds) with `secret`, hex. */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}

/** A delivery that failed; `permanent` when no retry can mend it. */
export class DeliveryError extends Error {
  readonly permanent: boolean

  constructor(message: string, permanent: boolean) {
    super(message)
    this.name = 'DeliveryError'
    this.permanent = permanent
  }
}

async function post(
  url: URL,
  allowPrivate: boolean,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  const response = await guardedRequest(url, allowPrivate, {
    method: 'POST',
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    body,
  })
  // The answer's body is not needed: read and dropped so the socket is freed.
  response.on('error', () => undefined)
  response.resume()
  return response.statusCode ?? 0
}

export type WebhookSender = ReturnType<typeof createWebhookSender>

/** Sends deliveries and records their attempts; the job handler and the ping use it. */
export function createWebhookSender(app: Pick<AppContext, 'repo' | 'config'>) {
  const { repo, config } = app

  /** One attempt of `delivery`; `final` marks it failed for good when it does not arrive. */
  async function attempt(delivery: WebhookDelivery, final: boolean) {
    let secret: string | undefined
    try {
      if (delivery.webhookId !== null) {
        const hook = await repo.findWebhook(delivery.organisationId, delivery.webhookId)
        if (hook === undefined) throw new DeliveryError('The endpoint was deleted', true)
        if (!hook.active && delivery.event !== 'ping') {
          throw new DeliveryError('The endpoint is paused', true)
        }
        secret = hook.secret
      }
      let url: URL
      try {
        url = checkTargetUrl(delivery.url, config.remote.allowHosts)
      } catch (error) {
        throw new DeliveryError(error instanceof Error ? error.message : 'Bad URL', true)
      }
      const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
      const body = JSON.stringify({ id: delivery.id, ...delivery.payload })
      const timestamp = Math.floor(Date.now() / 1000)
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'Tessera-Webhooks/1.0',
        [EVENT_HEADER]: delivery.event,
        [DELIVERY_HEADER]: delivery.id,
        ...(secret === undefined
          ? {}
          : { [SIGNATURE_HEADER]: `t=${timestamp},v1=${signPayload(secret, timestamp, body)}` }),
      }
      let status: number
      try {
        status = await post(url, config.remote.allowHosts.includes(host), headers, body)
      } catch (error) {
        const cause = error instanceof RemoteError ? error : (error as { cause?: unknown }).cause
        if (cause instanceof RemoteError && cause.code === 'blocked_address') {
          throw new DeliveryError(cause.message, true)
        }
        const timedOut = (error as { name?: string }).name === 'TimeoutError'
        throw new DeliveryError(
          timedOut
            ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
            : `Could not reach ${url.host}: ${(error as Error).message}`.slice(0, ERROR_TEXT),
          false,
        )
      }
      if (status < 200 || status >= 300) {
        const recorded = await repo.recordDeliveryAttempt(delivery.id, {
          status: final ? 'failed' : 'pending',
          responseStatus: status,
          error:
            status >= 300 && status < 400
              ? `The endpoint answered ${status}; redirects are not followed`
              : `The endpoint answered ${status}`,
        })
        return { ok: false as const, delivery: recorded ?? delivery, permanent: false }
      }
      const recorded = await repo.recordDeliveryAttempt(delivery.id, {
        status: 'delivered',
        responseStatus: status,
        error: null,
      })
      return { ok: true as const, delivery: recorded ?? delivery, permanent: false }
    } catch (error) {
      if (!(error instanceof DeliveryError)) throw error
      const recorded = await repo.recordDeliveryAttempt(delivery.id, {
        status: final || error.permanent ? 'failed' : 'pending',
        responseStatus: null,
        error: error.message,
      })
      return { ok: false as const, delivery: recorded ?? delivery, permanent: error.permanent }
    }
  }

  /** The job handler of `WEBHOOK_JOB`: one attempt per run, retried by the jobs table. */
  function jobHandler(): JobHandler {
    return {
      async run(payload: unknown, job: Job) {
        const { deliveryId } = payload as { deliveryId: string }
        const delivery = await repo.findDelivery(deliveryId)
        if (delivery === undefined) return { skipped: 'deleted' }
        const outcome = await attempt(delivery, job.attempts >= job.maxAttempts)
        if (!outcome.ok) {
          throw new DeliveryError(outcome.delivery.error ?? 'Not delivered', outcome.permanent)
        }
        return { status: outcome.delivery.responseStatus }
      },
      isPermanent: (error) =>
        (error instanceof DeliveryError && error.permanent) ||
        (error instanceof HttpError && error.status < 500),
    }
  }

  return { attempt, jobHandler }
}
