// The console's webhook calls (decision 016): an organisation's endpoints, the ping and the
// delivery log, under `…/organization/v1.0/org/{orgId}/webhooks`.
import { ORG_SEGMENT } from '@tessera/url'
import { ORGANIZATION, type Paged, withReplayRetry } from './console-api.ts'
import type { HttpClient } from './http-client.ts'
import { joinUrl } from './runtime-config.ts'

/** The events an endpoint can listen to, with what each means. */
export const WEBHOOK_EVENTS: readonly [string, string][] = [
  ['file.created', 'A file was uploaded or replaced'],
  ['file.deleted', 'A file was deleted'],
  ['folder.created', 'A folder was made'],
  ['prediction.finished', 'A prediction succeeded or failed'],
]

export interface Webhook {
  _id: string
  url: string
  events: string[]
  description: string
  active: boolean
  secretHint: string
  createdAt: string
  updatedAt: string
  /** Only in the answer that created it. */
  secret?: string
}

export interface WebhookDelivery {
  _id: string
  webhookId: string | null
  url: string
  event: string
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  responseStatus: number | null
  error: string | null
  createdAt: string
  deliveredAt: string | null
}

export function webhooksApi(signedClient: HttpClient, apiUrl: string, orgId: string) {
  const client = withReplayRetry(signedClient)
  const base = (path: string) =>
    joinUrl(apiUrl, `${ORGANIZATION}/${ORG_SEGMENT}/${encodeURIComponent(orgId)}/webhooks${path}`)
  return {
    list: () => client.request<Webhook[]>(base('')),
    create: (body: { url: string; events: string[]; description: string }) =>
      client.request<Webhook>(base(''), { method: 'POST', body }),
    update: (id: string, body: { active?: boolean; events?: string[] }) =>
      client.request<Webhook>(base(`/${encodeURIComponent(id)}`), { method: 'PATCH', body }),
    remove: (id: string) =>
      client.request<{ deleted: boolean }>(base(`/${encodeURIComponent(id)}`), {
        method: 'DELETE',
      }),
    ping: (id: string) =>
      client.request<{ delivered: boolean; delivery: WebhookDelivery }>(
        base(`/${encodeURIComponent(id)}/ping`),
        { method: 'POST', body: {} },
      ),
    deliveries: (pageNo: number, pageSize: number) =>
      client.request<Paged<WebhookDelivery>>(
        base(`/deliveries?pageNo=${pageNo}&pageSize=${pageSize}`),
      ),
  }
}
