// The account calls of the console (decision 019): forgot and reset password, confirming and
// changing the e-mail address, changing the password, the user's own sessions, deleting the
// account, and the operators' development outbox. Changes go through `withReplayRetry`, signed as
// every panel call.
import { PANEL_API_PATHS } from '@tessera/url'
import { withReplayRetry } from './console-api.ts'
import type { HttpClient } from './http-client.ts'
import { joinUrl, type RuntimeConfig } from './runtime-config.ts'
import type { SessionUser } from './session.ts'

const USERS = PANEL_API_PATHS.users

export interface OwnSession {
  _id: string
  current: boolean
  userAgent: string | null
  createdAt: string
  lastSeenAt: string
  expiresAt: string
}

export interface OutboxMail {
  _id: number
  to: string
  subject: string
  text: string
  createdAt: string
}

export function accountApi(client: HttpClient, config: RuntimeConfig) {
  const signed = withReplayRetry(client)
  const url = (path: string) => joinUrl(config.apiUrl, `${USERS}${path}`)
  const post = <T>(path: string, body?: unknown) =>
    signed.request<T>(url(path), { method: 'POST', ...(body === undefined ? {} : { body }) })
  return {
    forgotPassword: (email: string) =>
      post<{ message: string }>('/auth/password/forgot', { email }),
    resetPassword: (token: string, password: string) =>
      post<{ user: SessionUser }>('/auth/password/reset', { token, password }),
    verifyEmail: (token: string) => post<{ user: SessionUser }>('/auth/email/verify', { token }),
    resendVerification: () => post<{ message: string }>('/account/email/verification'),
    changeEmail: (email: string, password: string) =>
      post<{ message: string }>('/account/email', { email, password }),
    changePassword: (currentPassword: string, newPassword: string) =>
      post<{ endedSessions: number }>('/account/password', { currentPassword, newPassword }),
    sessions: () => client.request<OwnSession[]>(url('/account/sessions')),
    endOtherSessions: () =>
      signed.request<{ endedSessions: number }>(url('/account/sessions'), { method: 'DELETE' }),
    endSession: (id: string) =>
      signed.request<null>(url(`/account/sessions/${encodeURIComponent(id)}`), {
        method: 'DELETE',
      }),
    deleteAccount: (email: string, password: string) =>
      signed.request<null>(url('/account'), { method: 'DELETE', body: { email, password } }),
    outbox: () =>
      client.request<{ mode: 'smtp' | 'outbox'; items: OutboxMail[] }>(url('/mail/outbox')),
  }
}

export type AccountApi = ReturnType<typeof accountApi>
