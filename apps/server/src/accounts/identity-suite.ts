import { request } from 'node:http'
import { expect } from 'vitest'
import { createTestClient } from '../test-client.ts'
import type { TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

export type TestClient = ReturnType<typeof createTestClient>

export const USERS = '/service/panel/users/v1.0'
export const ORGS = '/service/panel/organization/v1.0/all'
export const PASSWORD = 'correct horse battery'

export const HOSTILE = [
  "' OR '1'='1",
  "x'; drop table users; --",
  '" OR ""="',
  '1) OR (1=1',
  '%',
  '$1',
  '<script>alert(1)</script>',
]

export interface ApiError {
  code: string
  message: string
}

/**
 * A login sent from another loopback address (127.0.0.0/8 is all this machine), so the server
 * sees a different client, as it would another user's computer. Answers the status.
 */
export function loginFrom(base: string, localAddress: string, email: string, password: string) {
  const body = JSON.stringify({ email, password })
  return new Promise<number>((resolve, reject) => {
    const req = request(
      `${base}${USERS}/auth/login`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Starts a server and gives the sign-up and error checks the identity tests make. */
export function useIdentitySuite(kind: TestDatabaseKind) {
  let seq = 0
  const uniqueEmail = () => `user${++seq}.${kind}@example.com`

  const suite = useTestServer(kind)

  const call: TestClient['call'] = (method, path, options) =>
    createTestClient(suite.server).call(method, path, options)

  async function signup(overrides: Record<string, unknown> = {}) {
    const body = {
      email: uniqueEmail(),
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
      ...overrides,
    }
    const answer = await call('POST', `${USERS}/auth/signup`, { body })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return {
      ...answer,
      email: String(body.email).trim().toLowerCase(),
      cookie: answer.cookie ?? '',
    }
  }

  async function expectError(
    answer: { status: number; body: unknown; response: Response },
    status: number,
    code: string,
    mentions?: string,
  ) {
    expect(answer.status).toBe(status)
    const body = answer.body as ApiError
    expect(body.code).toBe(code)
    expect(typeof body.message).toBe('string')
    expect(body.message).not.toMatch(/at .*\.ts:\d+/)
    if (mentions !== undefined) expect(body.message).toContain(mentions)
    expect(answer.response.headers.get('content-type')).toContain('application/json')
  }

  return {
    get server() {
      return suite.server
    },
    uniqueEmail,
    call,
    signup,
    expectError,
  }
}

export type IdentitySuite = ReturnType<typeof useIdentitySuite>
