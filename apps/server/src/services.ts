import { join } from 'node:path'
import { type CreateEngineOptions, createEngine } from '@tessera/engine'
import { createVideo } from '@tessera/media'
import { seedBilling } from './billing/seed.ts'
import type { ServerConfig } from './config.ts'
import { loadContent } from './content/content.ts'
import type { AppContext } from './context.ts'
import { createDatabase, createRepository } from './db/index.ts'
import { createDelivery, type Delivery } from './delivery/delivery.ts'
import { DERIVE_JOB, DERIVE_VISITOR_JOB } from './delivery/job.ts'
import { seedDemo } from './demo/seed.ts'
import { ensureDemoToken } from './demo/token.ts'
import { createFeatureServices, type FeatureServices } from './features.ts'
import { createChangeSignal } from './platform/change-signal.ts'
import { type ChangeFeed, createChangeFeed } from './platform/changes.ts'
import { createJobRunner, type JobRunner } from './platform/jobs.ts'
import type { Logger } from './platform/logger.ts'
import { createLookups } from './platform/lookups.ts'
import { createMailer } from './platform/mail.ts'
import { createMetrics } from './platform/metrics.ts'
import { createSessionCache } from './platform/session-cache.ts'
import { createUsageMeter } from './platform/usage-meter.ts'
import { createPredictionJobHandler, PREDICTION_JOB } from './predictions/job.ts'
import { createLocalStorage, createS3Storage, type Storage } from './storage/index.ts'
import { createWebhookSender } from './webhooks/delivery.ts'
import { createWebhookEvents, WEBHOOK_JOB, withWebhookEvents } from './webhooks/events.ts'

/** How often each process writes the usage it counted (one statement per flush). */
export const USAGE_FLUSH_MS = 5_000

/** Everything the server runs on, created once at start and closed at shutdown. */
export interface Services {
  context: AppContext
  /** The services the features share, built once (features.ts). */
  features: FeatureServices
  delivery: Delivery
  jobs: JobRunner
  /**
   * Reads the content files again: when they are valid, plans and addons are seeded from them,
   * `context.content` is replaced and `contentChanged` fires (the page cache empties); a broken
   * file throws `ContentError` and the content in use stays.
   */
  reloadContent(): Promise<void>
  /** Tells the other processes on the same PostgreSQL database what changed (and hears them). */
  changes: ChangeFeed
  /** Stops the job runner (a job still running after `jobGraceMs` is handed back), closes all. */
  close(options?: { jobGraceMs?: number }): Promise<void>
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
  options: {
    databaseDir?: string
    /** A dumped PGlite data folder to start the embedded database from (tests). */
    databaseSnapshot?: Blob
    contentDir?: string
    /** An AI service to use instead of the engine's own (tests share one across servers). */
    ai?: CreateEngineOptions['ai']
  } = {},
): Promise<Services> {
  const content = await loadContent(options.contentDir)
  const database = await createDatabase(
    config.databaseUrl === undefined
      ? {
          dataDir: options.databaseDir ?? join(config.dataDir, 'db'),
          ...(options.databaseSnapshot === undefined
            ? {}
            : { loadDataDir: options.databaseSnapshot }),
        }
      : { url: config.databaseUrl },
  )
  // Lookups and the change feed need each other: a change is published through the feed,
  // which applies what other processes publish to the lookups.
  let changes: ChangeFeed | undefined
  try {
    const storage = createStorage(config)
    await storage.check()
    let jobs: JobRunner | undefined
    const repo = createRepository(database.db, { staleJobAfterMs: config.jobs.staleAfterMs })
    const lookups = createLookups(repo, {
      ttlMs: config.lookupTtlMs,
      hotCacheBytes: config.hotCacheBytes,
      publish: async (change) => {
        if (changes === undefined) lookups.apply(change)
        else await changes.publish(change)
      },
    })
    const sessions = createSessionCache(repo, {
      ttlMs: config.lookupTtlMs,
      maxEntries: 10_000,
      publish: async (change) => {
        if (changes === undefined) sessions.apply(change)
        else await changes.publish(change)
      },
    })
    changes = await createChangeFeed({
      url: config.databaseUrl,
      logger,
      apply: (change) => {
        lookups.apply(change)
        sessions.apply(change)
      },
      applyAll: () => {
        lookups.forgetAll()
        sessions.forgetAll()
      },
    })
    const feed = changes
    // File and folder writes tell the organisation's webhooks (decision 016).
    const webhookEvents = createWebhookEvents({ repo, logger, wakeJobs: () => jobs?.wake() })
    const context: AppContext = {
      config,
      logger,
      metrics: createMetrics(),
      database,
      repo: withWebhookEvents(repo, webhookEvents),
      lookups,
      sessions,
      storage,
      engine: createEngine({
        ...config.engine,
        ...(options.ai === undefined ? {} : { ai: options.ai }),
      }),
      video: createVideo(config.video),
      content,
      contentChanged: createChangeSignal(),
      wakeJobs: () => jobs?.wake(),
      mail: createMailer({ config, repo, logger }),
      usage: createUsageMeter(repo, logger, { flushMs: USAGE_FLUSH_MS }),
    }
    const features = createFeatureServices(context)
    // A new AI render on the demo organisation takes from the visitor's daily allowance.
    const delivery = createDelivery(context, {
      onNewAiRender: ({ organisationId, clientAddress, credits }) =>
        features.allowance.takeAiCredits(organisationId, clientAddress, credits),
    })
    jobs = createJobRunner(
      context,
      {
        [DERIVE_JOB]: delivery.deriveJob,
        [DERIVE_VISITOR_JOB]: delivery.deriveJob,
        [PREDICTION_JOB]: createPredictionJobHandler(context),
        [WEBHOOK_JOB]: createWebhookSender(context).jobHandler(),
      },
      {
        pollMs: config.jobPollMs,
        heartbeatMs: config.jobs.heartbeatMs,
        // Visitors' jobs take turns with organisations' (issue 19 finding 4); webhook deliveries
        // (short) take turns too, so they never wait behind a queue of AI work.
        lanes: [[DERIVE_VISITOR_JOB], [WEBHOOK_JOB]],
      },
    )
    await seedBilling(repo, content)
    if (config.seedDemo) {
      await seedDemo(context)
      await ensureDemoToken(context)
    }
    const runner = jobs
    return {
      context,
      features,
      delivery,
      jobs: runner,
      async reloadContent() {
        const next = await loadContent(options.contentDir)
        await seedBilling(repo, next)
        context.content = next
        context.contentChanged.notify()
      },
      changes: feed,
      async close(closeOptions = {}) {
        await runner.stop(
          closeOptions.jobGraceMs === undefined ? {} : { graceMs: closeOptions.jobGraceMs },
        )
        await delivery.settle()
        await context.usage.stop()
        // Ends the AI worker threads (models) this server's engine started, and ffmpeg runs.
        await context.engine.close()
        context.video.close()
        await feed.close()
        context.mail.close()
        await database.close()
      },
    }
  } catch (error) {
    await changes?.close()
    await database.close()
    throw error
  }
}
