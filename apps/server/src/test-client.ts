// Test support: calls the real server's JSON APIs the way the website does — a session cookie,
// or an API token, and panel requests signed with `x-ebg-*` (SPEC §7.1).
import { signRequest } from '@tessera/url'
import { expect } from 'vitest'
import type { TestServer } from './test-server.ts'

export interface CallOptions {
  body?: unknown
  /** A raw body sent as is (with content-type application/json unless `headers` say otherwise). */
  raw?: string
  /** The `bg.session` cookie value. */
  cookie?: string
  /** An API token, sent as `Authorization: Bearer`. */
  token?: string
  headers?: Record<string, string>
  /** Whether to sign the request (default: panel calls are signed). */
  sign?: boolean
  /** The signing time (ms), for stale-signature tests. */
  signedAt?: number
}

export interface CallAnswer {
  status: number
  body: unknown
  response: Response
  setCookie: string
  /** The session token a `Set-Cookie` gave, if any. */
  cookie: string | undefined
}

/** The smallest PNG (1×1), for uploads whose pixels do not matter. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
)

/** A `multipart/form-data` body with this boundary: fields, and files when `fileName` is given. */
export function multipart(
  boundary: string,
  parts: readonly { name: string; fileName?: string; data: Buffer | string }[],
): Buffer {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition =
      part.fileName === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.fileName}"`
    const type = part.fileName === undefined ? '' : 'Content-Type: application/octet-stream\r\n'
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`))
    chunks.push(Buffer.from(part.data))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return Buffer.concat(chunks)
}

const ORGANIZATION_API = '/service/panel/organization/v1.0'
const UPLOAD_DIRECT = '/service/panel/assets/v1.0/upload/direct'

/**
 * Sends `form` (its file and fields, in their order) to the direct upload API with an API token,
 * unsigned, as a script or another server uploads; answers the response as it is.
 */
export function uploadDirect(serverUrl: string, token: string, form: FormData): Promise<Response> {
  return fetch(`${serverUrl}${UPLOAD_DIRECT}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  })
}

/** What a test needs of an account: its session and an organisation it belongs to. */
export interface TestAccount {
  cookie: string
  email: string
  organisation: { _id: string }
}

export interface ApiError {
  code: string
  message: string
}

/** A client for one test server. */
export function createTestClient(server: Pick<TestServer, 'url' | 'config'>) {
  const lastSigned = new Map<string, number>()

  async function call(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<CallAnswer> {
    const headers: Record<string, string> = { ...options.headers }
    let body: string | undefined
    if (options.raw !== undefined) body = options.raw
    else if (options.body !== undefined) body = JSON.stringify(options.body)
    if (body !== undefined) headers['content-type'] ??= 'application/json'
    if (options.cookie !== undefined) headers.cookie = `bg.session=${options.cookie}`
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    const url = `${server.url}${path}`
    if (options.sign ?? path.startsWith('/service/panel/')) {
      // Signing times have one-second resolution and the server refuses a signature it has seen
      // (a replay), so a repeated identical request is signed a second later, as a client must.
      const identity = [method, url, body, headers.cookie, headers.authorization].join('\n')
      let now = options.signedAt ?? Date.now()
      const last = lastSigned.get(identity)
      if (
        options.signedAt === undefined &&
        last !== undefined &&
        Math.floor(now / 1000) <= Math.floor(last / 1000)
      ) {
        now = last + 1000
      }
      lastSigned.set(identity, now)
      Object.assign(
        headers,
        await signRequest({ method, url, body }, server.config.signing.key, { now }),
      )
    }
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) })
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = text === '' ? undefined : (JSON.parse(text) as unknown)
    } catch {
      parsed = text
    }
    const setCookie = response.headers.get('set-cookie') ?? ''
    const cookie = /bg\.session=([^;]*)/.exec(setCookie)?.[1]
    return { status: response.status, body: parsed, response, setCookie, cookie }
  }

  let seq = 0
  /** Signs up a new user; answers their session cookie, user and first organisation. */
  async function signup(overrides: Record<string, unknown> = {}) {
    const email = `user${++seq}.${Date.now().toString(36)}@example.com`
    const answer = await call('POST', '/service/panel/users/v1.0/auth/signup', {
      body: {
        email,
        password: 'correct horse battery',
        firstName: 'Ada',
        lastName: 'Lovelace',
        ...overrides,
      },
    })
    if (answer.status !== 201 || answer.cookie === undefined) {
      throw new Error(`sign-up failed: ${answer.status} ${JSON.stringify(answer.body)}`)
    }
    const cookie = answer.cookie
    const organisations = await call('GET', '/service/panel/organization/v1.0/all', { cookie })
    const [organisation] = organisations.body as { _id: string; cloudName: string }[]
    if (organisation === undefined) throw new Error('sign-up made no organisation')
    const user = (answer.body as { user: { _id: string; email: string } }).user
    return { cookie, user, organisation, email: user.email }
  }

  /** Creates an API token of the account's organisation; answers the token shown once. */
  async function createToken(account: TestAccount, name = 'tests') {
    const answer = await call('POST', `${ORGANIZATION_API}/${account.organisation._id}/tokens`, {
      cookie: account.cookie,
      body: { name },
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return answer.body as { token: string; _id: string }
  }

  /**
   * Signs up a new user and makes them a member of `owner`'s organisation by invitation (sent to
   * `inviteAs(email)`, default the email itself) and acceptance; answers the member and the
   * invitation's token.
   */
  async function join(
    owner: TestAccount,
    options: { role?: string; inviteAs?: (email: string) => string } = {},
  ) {
    const member = await signup()
    const invited = await call(
      'POST',
      `${ORGANIZATION_API}/${owner.organisation._id}/invitations`,
      {
        cookie: owner.cookie,
        body: {
          email: options.inviteAs?.(member.email) ?? member.email,
          ...(options.role === undefined ? {} : { role: options.role }),
        },
      },
    )
    expect(invited.status, JSON.stringify(invited.body)).toBe(201)
    const { token, acceptUrl } = invited.body as { token: string; acceptUrl: string }
    const accepted = await call('POST', `${ORGANIZATION_API}/invitations/accept`, {
      cookie: member.cookie,
      body: { token },
    })
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
    return { member, token, acceptUrl }
  }

  return { call, signup, createToken, join }
}

/** Asserts a `{ code, message }` error answer with this status and code, and no stack trace. */
export function expectError(answer: CallAnswer, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  const body = answer.body as ApiError
  expect(body.code).toBe(code)
  expect(body.message.length).toBeGreaterThan(0)
  expect(JSON.stringify(body)).not.toMatch(/\bat .+\.ts:\d+/)
}

/** A call a test makes: method, path and, for a change, its JSON body. */
export type RouteCall = readonly [method: string, path: string, body?: unknown]

/**
 * Decision 003: every one of `calls` answers each of `strangers` (another organisation's session
 * or API token) 404 `organisation_not_found`, as if the organisation did not exist.
 */
export async function expectOrganisationHidden(
  call: ReturnType<typeof createTestClient>['call'],
  calls: readonly RouteCall[],
  strangers: readonly CallOptions[],
): Promise<void> {
  for (const [method, path, body] of calls) {
    for (const stranger of strangers) {
      expectError(await call(method, path, { ...stranger, body }), 404, 'organisation_not_found')
    }
  }
}
