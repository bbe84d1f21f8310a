// Test support: a real server on a free port, with its own data folder and database (in-memory
// PGlite, or a throwaway PostgreSQL database), torn down afterwards. Both start from a migrated
// copy (db/test-database.ts), and a suite runs on both only when the database is its subject
// (`testDatabases`, decision 012).
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import type { CreateEngineOptions } from '@tessera/engine'
import { signUrl } from '@tessera/url'
import { API_TOKEN_PREFIX, randomToken, sha256 } from './accounts/auth.ts'
import { loadConfig, type ServerConfig } from './config.ts'
import {
  createThrowawayDatabase,
  defaultTestDatabase,
  migratedPgliteSnapshot,
  type TestDatabaseKind,
} from './db/test-database.ts'
import { createLogger } from './platform/logger.ts'
import { type RunningServer, startServer } from './server.ts'

export { defaultTestDatabase, type TestDatabaseKind }

/**
 * What a suite tests, as far as the database goes: `database` when the database itself is the
 * subject (queries, migrations, limits and races, sessions and the change feed), `server` for
 * everything else (an API, delivery, pages), which behaves the same on either database.
 */
export type TestSubject = 'database' | 'server'

/**
 * The databases a suite runs on: both for a `database` suite, the default one for a `server`
 * suite, both for every suite when `TEST_DATABASES=all` (the full matrix, for a change to the
 * database layer). Use as `describe.each(testDatabases('server'))('… on %s', (kind) => …)`.
 */
export function testDatabases(subject: TestSubject): TestDatabaseKind[] {
  if (subject === 'database' || process.env.TEST_DATABASES === 'all') return ['pglite', 'postgres']
  return [defaultTestDatabase()]
}

export interface TestServer extends RunningServer {
  config: ServerConfig
  dataDir: string
  /** A new API token of the organisation with this cloud name (default: the demo one). */
  createToken(cloudName?: string): Promise<string>
  stop(): Promise<void>
}

/** Starts a server with the demo data; `env` overrides settings (as environment variables). */
export async function startTestServer(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: {
    dataDir?: string
    persistDatabase?: boolean
    runJobs?: boolean
    /** Content files to read instead of `apps/server/content`. */
    contentDir?: string
    /** One AI service for several servers, so a test file loads each model once. */
    ai?: CreateEngineOptions['ai']
    /** The port to listen on (default 0: a free one), for a PUBLIC_URL that names it. */
    port?: number
    /**
     * Makes PUBLIC_URL the server's own address once it listens, for a client (an SDK) that
     * follows the absolute URLs the server gives.
     */
    ownPublicUrl?: boolean
  } = {},
): Promise<TestServer> {
  const ownsDataDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'tessera-test-')))
  const database =
    kind === 'postgres' ? await createThrowawayDatabase({ migrated: true }) : undefined
  // A persisted PGlite keeps its own folder (a test restarts on it); one in memory starts from the
  // migrated snapshot.
  const snapshot =
    kind === 'pglite' && options.persistDatabase !== true
      ? await migratedPgliteSnapshot()
      : undefined
  const config: ServerConfig = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JOB_POLL_MS: '50',
      // Test files sign up many users from one address; the limit itself has its own test.
      SIGNUP_LIMIT_PER_HOUR: '1000000',
      // The test run's inference threads (vitest.workers.ts, TEST_ENV).
      ...(process.env.AI_THREADS === undefined ? {} : { AI_THREADS: process.env.AI_THREADS }),
      ...(database === undefined ? {} : { DATABASE_URL: database.url }),
      ...env,
    }),
    port: options.port ?? 0,
  }
  try {
    const server = await startServer(config, {
      logger: createLogger(config),
      databaseDir: options.persistDatabase === true ? join(dataDir, 'db') : 'memory://',
      ...(snapshot === undefined ? {} : { databaseSnapshot: snapshot }),
      ...(options.runJobs === undefined ? {} : { runJobs: options.runJobs }),
      ...(options.contentDir === undefined ? {} : { contentDir: options.contentDir }),
      ...(options.ai === undefined ? {} : { ai: options.ai }),
    })
    const repo = server.services.context.repo
    if (options.ownPublicUrl === true) config.publicUrl = server.url
    return {
      ...server,
      config,
      dataDir,
      async createToken(cloudName = 'demo') {
        const organisation = await repo.findOrganisationByCloudName(cloudName)
        if (organisation === undefined) throw new Error(`no organisation ${cloudName}`)
        const token = `${API_TOKEN_PREFIX}${randomToken()}`
        await repo.createApiToken(organisation.id, {
          name: 'test',
          tokenHash: sha256(token),
          prefix: token.slice(0, 10),
          createdBy: null,
        })
        return token
      },
      stop: async () => {
        await server.close()
        await database?.drop()
        if (ownsDataDir) await rm(dataDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await database?.drop()
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true })
    throw error
  }
}

/** Every file below `dir` (its path relative to `dir`, `/`-separated); none when it is missing. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
}

/**
 * Stores `bytes` as the file `path` of an organisation straight through storage and the
 * repository (no upload call), as a test's starting point, and forgets any cached lookup of it.
 */
export async function storeTestFile(
  server: Pick<TestServer, 'services'>,
  organisationId: string,
  path: string,
  bytes: Buffer,
): Promise<void> {
  const { storage, engine, lookups, repo } = server.services.context
  const probe = await engine.probe(bytes)
  const storageKey = `orgs/${organisationId}/originals/${sha256(`test-file:${path}`)}`
  await storage.put(storageKey, bytes)
  await repo.upsertFile(organisationId, {
    path,
    name: path.split('/').pop() as string,
    size: bytes.length,
    format: probe.format,
    contentType: probe.format === 'svg' ? 'image/svg+xml' : `image/${probe.format}`,
    width: probe.width,
    height: probe.height,
    hash: createHash('sha256').update(bytes).digest('hex'),
    storageKey,
  })
  lookups.forgetFile(organisationId, path)
}

/** The demo organisation (the seed makes it; a test fails at once without it). */
export async function demoOrganisation(server: Pick<TestServer, 'services'>) {
  const organisation = await server.services.context.repo.findOrganisationByCloudName('demo')
  if (organisation === undefined) throw new Error('no demo organisation')
  return organisation
}

/** The stored bytes of the demo organisation's file `path` (e.g. `samples/horse.png`). */
export async function demoFileBytes(
  server: Pick<TestServer, 'services'>,
  path: string,
): Promise<Buffer> {
  const { repo, storage } = server.services.context
  const file = await repo.findFile((await demoOrganisation(server)).id, path)
  const bytes = file === undefined ? undefined : await storage.get(file.storageKey)
  if (bytes === undefined) throw new Error(`The demo organisation has no ${path}`)
  return bytes
}

/** The settings `setOrganisationSettings` changes. */
export type OrganisationSettingsChanges = Parameters<
  TestServer['services']['context']['repo']['updateOrganisationSettings']
>[1]

/**
 * Changes the settings of the organisation with this cloud name straight through the repository
 * (no API call) and forgets the cached lookup of it, so delivery reads them at once.
 */
export async function setOrganisationSettings(
  server: Pick<TestServer, 'services'>,
  cloudName: string,
  changes: OrganisationSettingsChanges,
): Promise<void> {
  const { repo, lookups } = server.services.context
  const organisation = await repo.findOrganisationByCloudName(cloudName)
  if (organisation === undefined) throw new Error(`no organisation ${cloudName}`)
  await repo.updateOrganisationSettings(organisation.id, changes)
  await lookups.forgetOrganisation(organisation)
}

/**
 * A new organisation `cloudName` that requires signed URLs, holding the demo's
 * `samples/horse.png` as `horse.png` (the same stored bytes, no upload call), and a signing key
 * of it to sign with.
 */
export async function createSignedUrlOrganisation(
  server: Pick<TestServer, 'services'>,
  cloudName: string,
) {
  const { repo } = server.services.context
  const horse = await repo.findFile((await demoOrganisation(server)).id, 'samples/horse.png')
  if (horse === undefined) throw new Error('The demo organisation has no samples/horse.png')
  const organisation = await repo.createOrganisation({
    cloudName,
    name: 'Secure',
    requireSignedUrls: true,
  })
  const { storageKey, hash, size, format, contentType } = horse
  await repo.upsertFile(organisation.id, {
    path: 'horse.png',
    name: 'horse.png',
    storageKey,
    hash,
    size,
    format,
    contentType,
  })
  const key = await repo.createSigningKey(organisation.id)
  return { organisation, key }
}

/** Signs a delivery URL with a signing key, valid `expirySeconds` from now (negative: expired). */
export function signWithKey(
  url: string,
  key: { accessKey: string; secret: string },
  expirySeconds = 60,
): Promise<string> {
  return signUrl(url, { accessKey: key.accessKey, token: key.secret, expirySeconds })
}

/** Two servers — two processes, as far as caches go — on one new PostgreSQL database. */
export interface ServerPair {
  first: TestServer
  /** Started without seeding the demo data again. */
  second: TestServer
  databaseUrl: string
  /** Stops both and drops the database. */
  stop(): Promise<void>
}

/** Starts a `ServerPair`; `env` applies to both. */
export async function startServerPair(env: Record<string, string> = {}): Promise<ServerPair> {
  const database = await createThrowawayDatabase({ migrated: true })
  const shared = { ...env, DATABASE_URL: database.url }
  let first: TestServer | undefined
  try {
    first = await startTestServer('pglite', shared)
    const second = await startTestServer('pglite', { ...shared, SEED_DEMO: 'false' })
    const started = first
    return {
      first: started,
      second,
      databaseUrl: database.url,
      async stop() {
        await started.stop()
        await second.stop()
        await database.drop()
      },
    }
  } catch (error) {
    await first?.stop()
    await database.drop()
    throw error
  }
}
