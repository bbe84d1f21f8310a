// Test support: the server a suite starts before its tests and stops after them, with a client
// for it, so a test file declares its server in one line instead of a pair of hooks; when asked,
// an account signed up on it with files, an API token and settings to start from. Also a suite
// declared on each database of its subject, and fetching a delivery URL until its job is done.
import { afterAll, beforeAll, describe } from 'vitest'
import { createTestClient } from './test-client.ts'
import {
  demoFileBytes,
  type OrganisationSettingsChanges,
  setOrganisationSettings,
  startTestServer,
  storeTestFile,
  type TestDatabaseKind,
  type TestServer,
  type TestSubject,
  testDatabases,
} from './test-server.ts'

export type TestClient = ReturnType<typeof createTestClient>

/** An account the client signed up: its session, email and organisation. */
export type SignedUpAccount = Awaited<ReturnType<TestClient['signup']>>

/** A file to store: its bytes, a function making them, or the path of a demo file to copy. */
export type TestFile = Buffer | (() => Promise<Buffer>) | { demo: string }

/** The demo's horse (`samples/horse.png`), the picture most delivery tests start from. */
export const DEMO_HORSE: TestFile = { demo: 'samples/horse.png' }

/** The account a suite signs up before its tests, and what it starts with. */
export interface OwnerSetUp {
  /** Sign-up fields instead of the client's defaults, e.g. `{ firstName: 'Bob' }`. */
  profile?: Record<string, unknown>
  /** Files stored in its organisation (no upload call), by path. */
  files?: Record<string, TestFile>
  /** Settings of its organisation, e.g. `{ strictTransformations: false }` for unsigned AI. */
  settings?: OrganisationSettingsChanges
  /** Whether to create an API token of its organisation (`suite.token`). */
  token?: boolean
}

export type SuiteOptions = Parameters<typeof startTestServer>[2] & {
  /** Signs up `suite.owner` once the server has started. */
  owner?: OwnerSetUp
}

/** The suite's running server and its client (read them inside tests and hooks). */
export interface SuiteServer {
  readonly server: TestServer
  readonly client: TestClient
  /** The client's `call`; safe to take before the server has started. */
  call: TestClient['call']
  /** The account signed up before the tests (`options.owner`). */
  readonly owner: SetUpAccount
  /** The API token of the owner's organisation (`options.owner.token`). */
  readonly token: string
  /** Where the owner's organisation delivers: `{server}/v2/{cloudName}`. */
  readonly base: string
  /** Signs up another account set up as `setUp` says; answers it and its token, if asked for. */
  signUp(setUp?: OwnerSetUp): Promise<SetUpAccount>
}

/** An account `signUp` made, with the API token of its organisation when one was asked for. */
export type SetUpAccount = SignedUpAccount & { token?: string }

/** Stores `files` in an organisation, each by its path. */
async function storeTestFiles(
  server: TestServer,
  organisationId: string,
  files: Record<string, TestFile>,
): Promise<void> {
  for (const [path, file] of Object.entries(files)) {
    const bytes = Buffer.isBuffer(file)
      ? file
      : typeof file === 'function'
        ? await file()
        : await demoFileBytes(server, file.demo)
    await storeTestFile(server, organisationId, path, bytes)
  }
}

function started<T>(value: T | undefined, what = 'the suite server has not started'): T {
  if (value === undefined) throw new Error(what)
  return value
}

/**
 * Starts a server before the suite's tests (hooks declared after this one run after it) and
 * stops it after them; `env` and `options` are `startTestServer`'s (either may be a function,
 * read when the server starts: after the hooks declared before this one), and `options.owner`
 * signs up an account to start from.
 */
export function useTestServer(
  kind: TestDatabaseKind,
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: SuiteOptions | (() => SuiteOptions) = {},
): SuiteServer {
  let server: TestServer | undefined
  let client: TestClient | undefined
  let owner: SetUpAccount | undefined
  async function signUp(setUp: OwnerSetUp = {}): Promise<SetUpAccount> {
    const running = started(server)
    const account = await started(client).signup(setUp.profile)
    await storeTestFiles(running, account.organisation._id, setUp.files ?? {})
    if (setUp.settings !== undefined) {
      await setOrganisationSettings(running, account.organisation.cloudName, setUp.settings)
    }
    const token =
      setUp.token === true ? (await started(client).createToken(account)).token : undefined
    return token === undefined ? account : { ...account, token }
  }
  beforeAll(async () => {
    const { owner: ownerSetUp, ...startOptions } =
      typeof options === 'function' ? options() : options
    server = await startTestServer(kind, typeof env === 'function' ? env() : env, startOptions)
    client = createTestClient(server)
    if (ownerSetUp !== undefined) owner = await signUp(ownerSetUp)
  })
  afterAll(async () => {
    await server?.stop()
  })
  return {
    get server() {
      return started(server)
    },
    get client() {
      return started(client)
    },
    call: (...args) => started(client).call(...args),
    get owner() {
      return started(owner, 'the suite signed up no owner (options.owner)')
    },
    get token() {
      return started(this.owner.token, 'the suite made no API token (options.owner.token)')
    },
    get base() {
      return `${started(server).url}/v2/${this.owner.organisation.cloudName}`
    },
    signUp,
  }
}

/**
 * `describe.each` over the databases a suite of this subject runs on (`testDatabases`): `tests`
 * get what `use(kind)` sets up on each, as in
 * `describeEachDatabase('server', 'identity on %s', useIdentitySuite, (t) => …)`.
 */
export function describeEachDatabase<T>(
  subject: TestSubject,
  title: string,
  use: (kind: TestDatabaseKind) => T,
  tests: (suite: T, kind: TestDatabaseKind) => void,
): void {
  describe.each<TestDatabaseKind>(testDatabases(subject))(title, (kind) => {
    tests(use(kind), kind)
  })
}

/**
 * Fetches `url` while it answers 202 (its job queued or running), reading each 202's body and
 * waiting `pollMs` between tries, at most `tries` times; answers the first other response.
 */
export async function fetchWhileQueued(
  url: string,
  init: RequestInit = {},
  { pollMs = 100, tries = 3000 }: { pollMs?: number; tries?: number } = {},
): Promise<Response> {
  let response = await fetch(url, init)
  for (let attempt = 0; attempt < tries && response.status === 202; attempt++) {
    await response.arrayBuffer()
    await new Promise((resolve) => setTimeout(resolve, pollMs))
    response = await fetch(url, init)
  }
  return response
}
