import { join } from 'node:path'
import { createEngine } from '@tessera/engine'
import { seedBilling } from './billing/seed.ts'
import type { ServerConfig } from './config.ts'
import { loadContent } from './content/content.ts'
import type { AppContext } from './context.ts'
import { createDatabase, createRepository } from './db/index.ts'
import { createDelivery, type Delivery } from './delivery/delivery.ts'
import { DERIVE_JOB } from './delivery/job.ts'
import { seedDemo } from './demo/seed.ts'
import { ensureDemoToken } from './demo/token.ts'
import { createChangeSignal } from './platform/change-signal.ts'
import { createJobRunner, type JobRunner } from './platform/jobs.ts'
import type { Logger } from './platform/logger.ts'
import { createLookups } from './platform/lookups.ts'
import { createMetrics } from './platform/metrics.ts'
import { createPredictionJobHandler, PREDICTION_JOB } from './predictions/job.ts'
import { createLocalStorage, createS3Storage, type Storage } from './storage/index.ts'

/** Everything the server runs on, created once at start and closed at shutdown. */
export interface Services {
  context: AppContext
  delivery: Delivery
  jobs: JobRunner
  /**
   * Reads the content files again: when they are valid, plans and addons are seeded from them,
   * `context.content` is replaced and `contentChanged` fires (the page cache empties); a broken
   * file throws `ContentError` and the content in use stays.
   */
  reloadContent(): Promise<void>
  close(): Promise<void>
}

function createStorage(config: ServerConfig): Storage {
  const storage = config.storage
  if (storage.driver === 'local') return createLocalStorage({ root: storage.root })
  return createS3Storage({
    bucket: storage.bucket,
    region: storage.region,
    forcePathStyle: storage.forcePathStyle,
    ...(storage.endpoint === undefined ? {} : { endpoint: storage.endpoint }),
    ...(storage.accessKeyId === undefined ? {} : { accessKeyId: storage.accessKeyId }),
    ...(storage.secretAccessKey === undefined ? {} : { secretAccessKey: storage.secretAccessKey }),
    ...(storage.prefix === undefined ? {} : { prefix: storage.prefix }),
  })
}

/**
 * Reads the content files (a broken one stops here, before anything is opened), opens the
 * database (migrating it), the storage and the engine, seeds plans and addons from the content
 * and the demo data when asked, and wires delivery and the job runner (not started: see
 * `jobs.start()`).
 */
export async function createServices(
  config: ServerConfig,
  logger: Logger,
  options: { databaseDir?: string; contentDir?: string } = {},
): Promise<Services> {
  const content = await loadContent(options.contentDir)
  const database = await createDatabase(
    config.databaseUrl === undefined
      ? { dataDir: options.databaseDir ?? join(config.dataDir, 'db') }
      : { url: config.databaseUrl },
  )
  try {
    const storage = createStorage(config)
    await storage.check()
    let jobs: JobRunner | undefined
    const repo = createRepository(database.db)
    const context: AppContext = {
      config,
      logger,
      metrics: createMetrics(),
      database,
      repo,
      lookups: createLookups(repo, {
        ttlMs: config.lookupTtlMs,
        hotCacheBytes: config.hotCacheBytes,
      }),
      storage,
      engine: createEngine(config.engine),
      content,
      contentChanged: createChangeSignal(),
      wakeJobs: () => jobs?.wake(),
    }
    const delivery = createDelivery(context)
    jobs = createJobRunner(
      context,
      {
        [DERIVE_JOB]: delivery.deriveJob,
        [PREDICTION_JOB]: createPredictionJobHandler(context),
      },
      { pollMs: config.jobPollMs },
    )
    await seedBilling(repo, content)
    if (config.seedDemo) {
      await seedDemo(context)
      await ensureDemoToken(context)
    }
    const runner = jobs
    return {
      context,
      delivery,
      jobs: runner,
      async reloadContent() {
        const next = await loadContent(options.contentDir)
        await seedBilling(repo, next)
        context.content = next
        context.contentChanged.notify()
      },
      async close() {
        await runner.stop()
        await delivery.settle()
        await database.close()
      },
    }
  } catch (error) {
    await database.close()
    throw error
  }
}
