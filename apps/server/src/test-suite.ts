// Test support: the server a suite starts before its tests and stops after them, with a client
// for it, so a test file declares its server in one line instead of a pair of hooks.
import { afterAll, beforeAll } from 'vitest'
import { createTestClient } from './test-client.ts'
import { startTestServer, type TestDatabaseKind, type TestServer } from './test-server.ts'

export type TestClient = ReturnType<typeof createTestClient>

/** An account the client signed up: its session, email and organisation. */
export type SignedUpAccount = Awaited<ReturnType<TestClient['signup']>>

/** The suite's running server and its client (read them inside tests and hooks). */
export interface SuiteServer {
  readonly server: TestServer
  readonly client: TestClient
  /** The client's `call`; safe to take before the server has started. */
  call: TestClient['call']
}

/**
 * Starts a server before the suite's tests (hooks declared after this one run after it) and
 * stops it after them; `env` and `options` are `startTestServer`'s.
 */
export function useTestServer(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: Parameters<typeof startTestServer>[2] = {},
): SuiteServer {
  let server: TestServer | undefined
  let client: TestClient | undefined
  beforeAll(async () => {
    server = await startTestServer(kind, env, options)
    client = createTestClient(server)
  })
  afterAll(async () => {
    await server?.stop()
  })
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite server has not started')
    return value
  }
  return {
    get server() {
      return started(server)
    },
    get client() {
      return started(client)
    },
    call: (...args) => started(client).call(...args),
  }
}
