// The console's calls (docs/api.md): files, folders, presets, credits, payments, members,
// invitations, API tokens and the organisation's settings. All go through the shared client, so
// every change is signed (SPEC §7.1) and 401/403 leads to the login page (SPEC §7.2).
import { ORG_SEGMENT, PANEL_API_PATHS } from '@tessera/url'
import type {
  ApiToken,
  Credits,
  FileChanges,
  FileItem,
  FolderItem,
  Invitation,
  LedgerEntry,
  LibraryItem,
  Member,
  OrganisationDetails,
  OrgSettings,
  Paged,
  Payment,
  Preset,
  PresetParam,
  SigningKey,
  Usage,
} from './console-types.ts'
import type { HttpClient, RequestOptions } from './http-client.ts'
import { HttpError } from './http-client.ts'
import { joinUrl, type RuntimeConfig } from './runtime-config.ts'

export const ASSETS = PANEL_API_PATHS.assets
export const ORGANIZATION = PANEL_API_PATHS.organization
export const BILLING = PANEL_API_PATHS.billing

// The types live in console-types.ts; the console's modules take them from here, with the calls.
export type * from './console-types.ts'

/** The message of a failed call, as the API gave it, for showing in place. */
export function problemOf(error: unknown): string {
  if (error instanceof HttpError) {
    const data = error.data as { message?: unknown } | null
    if (typeof data?.message === 'string' && data.message !== '') {
      return data.message.charAt(0).toUpperCase() + data.message.slice(1)
    }
    return `The server answered ${error.status}.`
  }
  if (error instanceof Error && error.name === 'AbortError') return 'Cancelled.'
  return 'We could not reach the server. Check your connection and try again.'
}

/** The API's stable error code of a failed call, if any. */
export function codeOf(error: unknown): string | undefined {
  if (!(error instanceof HttpError)) return undefined
  const data = error.data as { code?: unknown } | null
  return typeof data?.code === 'string' ? data.code : undefined
}

function query(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value))
  }
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

/**
 * A client that sends a change again, signed a second later, when the server took it for a
 * replay: signatures have one-second resolution, so the same change twice within a second (a
 * setting switched back and forth, a retry after a refusal) would otherwise be refused.
 */
export function withReplayRetry(
  client: HttpClient,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): HttpClient {
  return {
    async request<T>(url: string, options: RequestOptions = {}): Promise<T> {
      try {
        return await client.request<T>(url, options)
      } catch (error) {
        if ((options.method ?? 'GET') === 'GET' || codeOf(error) !== 'signature_replayed') {
          throw error
        }
        await wait(1100)
        return client.request<T>(url, options)
      }
    },
  }
}

/** Every console call for one organisation. */
export function consoleApi(signedClient: HttpClient, config: RuntimeConfig, orgId: string) {
  const client = withReplayRetry(signedClient)
  const id = encodeURIComponent(orgId)
  const assets = (path: string) => joinUrl(config.apiUrl, `${ASSETS}/${ORG_SEGMENT}/${id}${path}`)
  const org = (path: string) => joinUrl(config.apiUrl, `${ORGANIZATION}/${id}${path}`)
  const billing = (path: string) => joinUrl(config.apiUrl, `${BILLING}/${ORG_SEGMENT}/${id}${path}`)
  return {
    listFiles: (options: {
      path: string
      name?: string
      /** The order of the whole folder (the API's `sort`): name, -name, -updated, -size, type. */
      sort?: string
      pageNo: number
      pageSize: number
    }) => client.request<Paged<LibraryItem>>(assets(`/files${query(options)}`)),
    /** The library search (`…/listFiles`): every file under `path` matching name and tags. */
    searchFiles: (options: {
      path: string
      name?: string
      tags?: string[]
      sort?: string
      pageNo: number
      pageSize: number
    }) => {
      const { tags = [], ...rest } = options
      const base = query(rest)
      const tagText = tags.map((tag) => `tags=${encodeURIComponent(tag)}`).join('&')
      const joined = tagText === '' ? base : base === '' ? `?${tagText}` : `${base}&${tagText}`
      return client.request<Paged<LibraryItem>>(assets(`/listFiles${joined}`))
    },
    /** The tags on the organisation's files, most used first. */
    listTags: () => client.request<{ items: { tag: string; files: number }[] }>(assets('/tags')),
    recentFiles: (pageNo: number, pageSize: number) =>
      client.request<Paged<FileItem>>(assets(`/recent-files${query({ pageNo, pageSize })}`)),
    usage: () => client.request<Usage>(assets('/usage')),
    getFile: (fileId: string) =>
      client.request<FileItem>(assets(`/files/${encodeURIComponent(fileId)}`)),
    updateFile: (fileId: string, body: FileChanges) =>
      client.request<FileItem>(assets(`/files/${encodeURIComponent(fileId)}`), {
        method: 'PATCH',
        body,
      }),
    deleteFile: (fileId: string) =>
      client.request<FileItem>(assets(`/files/${encodeURIComponent(fileId)}`), {
        method: 'DELETE',
      }),
    createFolder: (name: string, path: string) =>
      client.request<FolderItem>(assets('/folders'), { method: 'POST', body: { name, path } }),
    updateFolder: (fullPath: string, body: { name?: string; path?: string }) =>
      client.request<FolderItem>(assets(`/folders${query({ path: fullPath })}`), {
        method: 'PATCH',
        body,
      }),
    deleteFolder: (fullPath: string, recursive: boolean) =>
      client.request<{ path: string; deleted: { files: number; folders: number } }>(
        assets(`/folders${query({ path: fullPath, recursive: recursive ? 'true' : undefined })}`),
        { method: 'DELETE' },
      ),
    uploadFromUrl: (body: { url: string; path?: string; name?: string; overwrite?: boolean }) =>
      client.request<FileItem>(
        joinUrl(
          config.apiUrl,
          // A nonce keeps two identical signed calls in one second from being a replay.
          `${ASSETS}/upload/url${query({ orgId, nonce: nonce() })}`,
        ),
        { method: 'POST', body },
      ),

    listPresets: (options: { archived?: boolean; pageNo: number; pageSize: number }) =>
      client.request<Paged<Preset>>(assets(`/presets${query(options)}`)),
    createPreset: (body: {
      presetName: string
      transformation: string
      params?: Record<string, PresetParam>
    }) => client.request<Preset>(assets('/presets'), { method: 'POST', body }),
    updatePreset: (
      name: string,
      body: { transformation?: string; params?: Record<string, PresetParam>; archived?: boolean },
    ) =>
      client.request<Preset>(assets(`/presets/${encodeURIComponent(name)}`), {
        method: 'PATCH',
        body,
      }),
    deletePreset: (name: string) =>
      client.request<Preset>(assets(`/presets/${encodeURIComponent(name)}`), {
        method: 'DELETE',
      }),

    details: () => client.request<OrganisationDetails>(org('')),
    updateDetails: (body: { name?: string; cloudName?: string }) =>
      client.request<OrganisationDetails>(org(''), { method: 'PATCH', body }),
    members: () => client.request<Member[]>(org('/members')),
    updateMember: (userId: string, role: string) =>
      client.request<{ _id: string; role: string }>(org(`/members/${encodeURIComponent(userId)}`), {
        method: 'PATCH',
        body: { role },
      }),
    removeMember: (userId: string) =>
      client.request<null>(org(`/members/${encodeURIComponent(userId)}`), { method: 'DELETE' }),
    invitations: () => client.request<Invitation[]>(org('/invitations')),
    invite: (email: string, role: string) =>
      client.request<Invitation>(org('/invitations'), { method: 'POST', body: { email, role } }),
    revokeInvitation: (invitationId: string) =>
      client.request<null>(org(`/invitations/${encodeURIComponent(invitationId)}`), {
        method: 'DELETE',
      }),
    tokens: () => client.request<ApiToken[]>(org('/tokens')),
    createToken: (name: string) =>
      client.request<ApiToken>(org('/tokens'), { method: 'POST', body: { name } }),
    revokeToken: (tokenId: string) =>
      client.request<null>(org(`/tokens/${encodeURIComponent(tokenId)}`), { method: 'DELETE' }),

    settings: () => client.request<OrgSettings>(org('/settings')),
    updateSettings: (body: Partial<OrgSettings>) =>
      client.request<OrgSettings>(org('/settings'), { method: 'PATCH', body }),
    signingKeys: () => client.request<SigningKey[]>(org('/signing-keys')),
    createSigningKey: () =>
      client.request<SigningKey>(org('/signing-keys'), { method: 'POST', body: {} }),
    revokeSigningKey: (keyId: string) =>
      client.request<null>(org(`/signing-keys/${encodeURIComponent(keyId)}`), {
        method: 'DELETE',
      }),

    credits: () => client.request<Credits>(billing('/credits')),
    ledger: (pageNo: number, pageSize: number) =>
      client.request<Paged<LedgerEntry>>(billing(`/credits/ledger${query({ pageNo, pageSize })}`)),
    checkout: (
      body: ({ kind: 'subscription'; planId: number } | { kind: 'topup'; addonId: number }) & {
        /** The console page the provider sends the buyer back to, with paymentId and status. */
        returnUrl?: string
      },
    ) =>
      client.request<{ paymentId: string; checkoutUrl: string; status: string; payment: Payment }>(
        billing('/checkout'),
        { method: 'POST', body },
      ),
    payment: (paymentId: string) =>
      client.request<Payment>(billing(`/payments/${encodeURIComponent(paymentId)}`)),
    paidPayments: (pageNo: number, pageSize: number) =>
      client.request<Paged<Payment>>(
        billing(`/payments${query({ status: 'paid', pageNo, pageSize })}`),
      ),
    /** The receipt page of a paid payment (a link: the session's cookie authorises it). */
    receiptUrl: (paymentId: string, download = false) =>
      billing(`/payments/${encodeURIComponent(paymentId)}/receipt${download ? '?download=1' : ''}`),
    setSubscriptionCancel: (cancel: boolean) =>
      client.request<{ subscription: Credits['subscription'] }>(
        billing(`/subscription/${cancel ? 'cancel' : 'resume'}`),
        { method: 'POST' },
      ),
    billingPortal: (returnUrl: string) =>
      client.request<{ url: string }>(billing('/billing-portal'), {
        method: 'POST',
        body: { returnUrl },
      }),
  }
}

export type ConsoleApi = ReturnType<typeof consoleApi>

/** Accepts an invitation for the signed-in user. */
export function acceptInvitation(client: HttpClient, config: RuntimeConfig, token: string) {
  return withReplayRetry(client).request<{
    organisation: { _id: string; name: string; role: string }
  }>(joinUrl(config.apiUrl, `${ORGANIZATION}/invitations/accept`), {
    method: 'POST',
    body: { token },
  })
}

/** A random query value that makes otherwise identical signed calls differ. */
export function nonce(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`
}
