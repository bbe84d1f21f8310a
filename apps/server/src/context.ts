import type { Engine } from '@tessera/engine'
import type { ServerConfig } from './config.ts'
import type { Content } from './content.ts'
import type { Database, Repository } from './db/index.ts'
import type { Logger } from './logger.ts'
import type { Lookups } from './lookups.ts'
import type { Metrics } from './metrics.ts'
import type { Storage } from './storage/index.ts'

/** The services every part of the server works with, created once at start. */
export interface AppContext {
  config: ServerConfig
  logger: Logger
  metrics: Metrics
  database: Database
  repo: Repository
  /** Cached reads of the rows delivery needs on every request. */
  lookups: Lookups
  storage: Storage
  engine: Engine
  /** The website's content files (`apps/server/content/`), read and validated at start. */
  content: Content
  /** Tells the job runner that a job was enqueued, so it need not wait for its next poll. */
  wakeJobs: () => void
}
