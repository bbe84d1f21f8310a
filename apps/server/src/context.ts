import type { Engine } from '@tessera/engine'
import type { Video } from '@tessera/media'
import type { ServerConfig } from './config.ts'
import type { Content } from './content/content.ts'
import type { Database, Repository } from './db/index.ts'
import type { ChangeSignal } from './platform/change-signal.ts'
import type { Logger } from './platform/logger.ts'
import type { Lookups } from './platform/lookups.ts'
import type { Mailer } from './platform/mail.ts'
import type { Metrics } from './platform/metrics.ts'
import type { SessionCache } from './platform/session-cache.ts'
import type { UsageMeter } from './platform/usage-meter.ts'
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
  /** Live sessions remembered for a few seconds (decision 011). */
  sessions: SessionCache
  storage: Storage
  engine: Engine
  /** Video work through ffmpeg child processes (`VIDEO_*` limits; issue 23). */
  video: Video
  /** The website's content files (`apps/server/content/`), read and validated at start
   * and again by `Services.reloadContent` (SIGHUP). */
  content: Content
  /** Fires when the content changed (a reload): what was derived from it is forgotten. */
  contentChanged: ChangeSignal
  /** Tells the job runner that a job was enqueued, so it need not wait for its next poll. */
  wakeJobs: () => void
  /** Sends mail: SMTP when configured, else the development outbox (decision 019). */
  mail: Mailer
  /** Usage per organisation per day, counted in memory and written in batches (issue 24). */
  usage: UsageMeter
}

/** What every handler can read from the context (`c.get`): set by the app's first middleware. */
export type AppEnv = {
  Variables: {
    requestId: string
    log: Logger
    route: string
    /** The client's address when a trusted proxy names it (see `clientAddress`). */
    clientAddress?: string
  }
}
