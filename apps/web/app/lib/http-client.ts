// The shared HTTP client of SPEC §7.2 and §8: credentials on every call, panel calls signed
// (SPEC §7.1), 401/403 sends the browser to the login page (except for authentication and
// session calls), and every failure is logged with status, method, URL and data.
import { PANEL_API_PREFIX, signRequest } from '@tessera/url'

/** A failed call: the status and the body the server answered. */
export class HttpError extends Error {
  readonly status: number
  readonly data: unknown
  constructor(status: number, method: string, url: string, data: unknown) {
    super(`${method} ${url} answered ${status}`)
    this.name = 'HttpError'
    this.status = status
    this.data = data
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  /** JSON-encoded and signed as the text sent. */
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
}

export interface HttpClientOptions {
  /** Resolves relative URLs (the page's origin). */
  origin: string
  /** Key of the `x-ebg-*` signature; panel calls are sent unsigned only when it is empty. */
  signingKey: string
  fetch: (request: Request) => Promise<Response>
  /** Called on 401/403 from a URL that is not about authentication or the session. */
  onUnauthorized?: () => void
  /** Where failures are reported; `console.error` by default. */
  log?: (
    message: string,
    details: { status: number; method: string; url: string; data: unknown },
  ) => void
  /** Sent with every request (the server forwards the visitor's cookie this way). */
  headers?: Record<string, string>
}

export interface HttpClient {
  request<T>(url: string, options?: RequestOptions): Promise<T>
}

/** Panel services are signed (SPEC §7.1). */
export function isPanelUrl(url: URL): boolean {
  return url.pathname.includes(PANEL_API_PREFIX)
}

/** 401/403 on these URLs is an answer, not a reason to go to the login page (SPEC §7.2). */
export function isAuthUrl(url: string): boolean {
  return /auth|session/i.test(url)
}

/**
 * 403 codes by which the API refuses a signed-in caller (a role too weak, a wrong current
 * password, a failed captcha): answers for the page to show. Sending the browser to the login
 * page for them looped (issue 24 item 4): the login page sends a signed-in user straight back.
 */
export const SIGNED_IN_REFUSALS: ReadonlySet<string> = new Set([
  'forbidden',
  'not_operator',
  'wrong_password',
  'email_not_verified',
  'captcha_failed',
])

/** Whether an error answer means "sign in (again)" rather than an answer to show. */
export function needsSignIn(status: number, url: string, data: unknown): boolean {
  if (isAuthUrl(url)) return false
  if (status === 401) return true
  if (status !== 403) return false
  const code = (data as { code?: unknown } | null)?.code
  return !(typeof code === 'string' && SIGNED_IN_REFUSALS.has(code))
}

/** An answer's body: JSON when it parses, else the text itself; `null` when empty. */
export function parseBody(text: string): unknown {
  if (text === '') return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

async function readBody(response: Response): Promise<unknown> {
  return parseBody(await response.text())
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const log =
    options.log ??
    ((message, details) => {
      console.error(message, details)
    })
  return {
    async request<T>(target: string, init: RequestOptions = {}): Promise<T> {
      const method = init.method ?? 'GET'
      const url = new URL(target, options.origin)
      const body = init.body === undefined ? undefined : JSON.stringify(init.body)
      const headers: Record<string, string> = {
        accept: 'application/json',
        ...options.headers,
        ...init.headers,
      }
      if (body !== undefined) headers['content-type'] = 'application/json'
      if (isPanelUrl(url) && options.signingKey !== '') {
        Object.assign(
          headers,
          await signRequest({ method, url: url.href, body }, options.signingKey),
        )
      }
      const request = new Request(url, {
        method,
        headers,
        credentials: 'include',
        ...(body === undefined ? {} : { body }),
        ...(init.signal === undefined ? {} : { signal: init.signal }),
      })
      const response = await options.fetch(request)
      const data = await readBody(response)
      if (response.ok) return data as T
      log(`HTTP ${response.status} ${method} ${url.href}`, {
        status: response.status,
        method,
        url: url.href,
        data,
      })
      if (needsSignIn(response.status, url.href, data)) options.onUnauthorized?.()
      throw new HttpError(response.status, method, url.href, data)
    },
  }
}
