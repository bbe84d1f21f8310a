// Test support: a real server on a free port, with its own data folder and database (in-memory
// PGlite, or a throwaway PostgreSQL database), torn down afterwards.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type ServerConfig } from './config.ts'
import { createThrowawayDatabase } from './db/test-database.ts'
import { createLogger } from './logger.ts'
import { type RunningServer, startServer } from './server.ts'

export type TestDatabaseKind = 'pglite' | 'postgres'

export interface TestServer extends RunningServer {
  config: ServerConfig
  dataDir: string
  stop(): Promise<void>
}

/** Starts a server with the demo data; `env` overrides settings (as environment variables). */
export async function startTestServer(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: { dataDir?: string; persistDatabase?: boolean; runJobs?: boolean } = {},
): Promise<TestServer> {
  const ownsDataDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'tessera-test-')))
  const database = kind === 'postgres' ? await createThrowawayDatabase() : undefined
  const config: ServerConfig = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JOB_POLL_MS: '50',
      // Test files sign up many users from one address; the limit itself has its own test.
      SIGNUP_LIMIT_PER_HOUR: '1000000',
      ...(database === undefined ? {} : { DATABASE_URL: database.url }),
      ...env,
    }),
    port: 0,
  }
  try {
    const server = await startServer(config, {
      logger: createLogger(config),
      databaseDir: options.persistDatabase === true ? join(dataDir, 'db') : 'memory://',
      ...(options.runJobs === undefined ? {} : { runJobs: options.runJobs }),
    })
    return {
      ...server,
      config,
      dataDir,
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
