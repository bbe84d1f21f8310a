// The console's calls for running a team (issue 24): custom domains, the activity log and usage
// over time. Through the shared signed client, like `console-api.ts`.

import { ASSETS, ORGANIZATION, type Paged, withReplayRetry } from './console-api.ts'
import type { HttpClient } from './http-client.ts'
import { joinUrl, type RuntimeConfig } from './runtime-config.ts'

export interface CustomDomain {
  _id: string
  host: string
  status: 'pending' | 'verified' | 'failed'
  createdAt: string
  checkedAt: string | null
  verifiedAt: string | null
  lastError: string | null
  challenge: {
    dns: { type: 'TXT'; name: string; value: string }
    http: { url: string; body: string }
  } | null
  deliveryBase: string
  method?: 'dns' | 'http'
}

export interface ActivityItem {
  _id: string
  kind: string
  actor: string
  actorUserId: string | null
  target: string
  details: Record<string, unknown>
  createdAt: string
}

export interface ActivityFilters {
  kind?: string
  member?: string
  search?: string
  from?: string
  to?: string
  pageNo: number
  pageSize: number
}

export interface UsageDay {
  day: string
  requests: number
  bytes: number
  renders: number
  aiRuns: number
  credits: number
}

export interface UsageSeries {
  from: string
  to: string
  days: UsageDay[]
  totals: Omit<UsageDay, 'day'>
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value))
  }
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

/** Every team call for one organisation. */
export function teamApi(signedClient: HttpClient, config: RuntimeConfig, orgId: string) {
  const client = withReplayRetry(signedClient)
  const id = encodeURIComponent(orgId)
  const org = (path: string) => joinUrl(config.apiUrl, `${ORGANIZATION}/${id}${path}`)
  const assets = (path: string) => joinUrl(config.apiUrl, `${ASSETS}/org/${id}${path}`)
  return {
    domains: () => client.request<CustomDomain[]>(org('/domains')),
    addDomain: (host: string) =>
      client.request<CustomDomain>(org('/domains'), { method: 'POST', body: { host } }),
    checkDomain: (domainId: string) =>
      client.request<CustomDomain>(org(`/domains/${encodeURIComponent(domainId)}/check`), {
        method: 'POST',
        body: {},
      }),
    removeDomain: (domainId: string) =>
      client.request<null>(org(`/domains/${encodeURIComponent(domainId)}`), { method: 'DELETE' }),
    /** Delivery's CORS setting (the organisation's settings call, docs/delivery.md "CORS"). */
    cors: () => client.request<{ corsOrigins: string[] }>(org('/settings')),
    updateCors: (corsOrigins: string[]) =>
      client.request<{ corsOrigins: string[] }>(org('/settings'), {
        method: 'PATCH',
        body: { corsOrigins },
      }),
    activity: (filters: ActivityFilters) =>
      client.request<Paged<ActivityItem> & { kinds: string[] }>(
        org(`/activity${query({ ...filters })}`),
      ),
    usageDaily: (from: string, to: string) =>
      client.request<UsageSeries>(assets(`/usage/daily${query({ from, to })}`)),
  }
}

export type TeamApi = ReturnType<typeof teamApi>
