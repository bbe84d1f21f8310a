// Webhook events (decision 016): what happened in an organisation, queued as one delivery per
// endpoint that listens to it, each sent (and retried with back-off) by a job of the jobs table.
// File and folder events come from the repository's writes themselves (`withWebhookEvents`), so
// every way a file is made or removed — panel, platform API, predictions — tells its webhooks.

import { fileFields } from '../assets/file-json.ts'
import type { Repository, StoredFile } from '../db/index.ts'
import type { Logger } from '../platform/logger.ts'

/** The events an endpoint can listen to (`ping` is sent on request only). */
export const WEBHOOK_EVENTS = [
  'file.created',
  'file.deleted',
  'folder.created',
  'prediction.finished',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number] | 'ping'

/** The job kind that sends one delivery. */
export const WEBHOOK_JOB = 'webhook-delivery'
/** Attempts per delivery: the first and five retries (30 s, 1, 2, 4, 8 min: the jobs' back-off). */
export const WEBHOOK_MAX_ATTEMPTS = 6

type EventRepo = Pick<Repository, 'webhooksFor' | 'createDelivery' | 'enqueueJob'>

export type WebhookEvents = ReturnType<typeof createWebhookEvents>

export function createWebhookEvents(app: {
  repo: EventRepo
  logger: Logger
  wakeJobs: () => void
}) {
  const { repo } = app

  async function queue(
    organisationId: string,
    webhookId: string | null,
    url: string,
    event: WebhookEvent,
    data: Record<string, unknown>,
  ) {
    const delivery = await repo.createDelivery({
      organisationId,
      webhookId,
      url,
      event,
      payload: { event, organisationId, createdAt: new Date().toISOString(), data },
    })
    await repo.enqueueJob({
      kind: WEBHOOK_JOB,
      organisationId,
      payload: { deliveryId: delivery.id },
      maxAttempts: WEBHOOK_MAX_ATTEMPTS,
    })
    return delivery
  }

  /** Queues `event` to every active endpoint of the organisation that listens to it. */
  async function emit(organisationId: string, event: WebhookEvent, data: Record<string, unknown>) {
    const hooks = await repo.webhooksFor(organisationId, event)
    for (const hook of hooks) await queue(organisationId, hook.id, hook.url, event, data)
    if (hooks.length > 0) app.wakeJobs()
    return hooks.length
  }

  /** `emit` after a write has answered: a failure is logged, never the write's. */
  function emitLater(organisationId: string, event: WebhookEvent, data: Record<string, unknown>) {
    void emit(organisationId, event, data).catch((error: unknown) =>
      app.logger.warn({ err: error, event, organisationId }, 'a webhook event was not queued'),
    )
  }

  /** Queues `event` to one URL the caller gave (a prediction's own `webhook`; unsigned). */
  async function notifyUrl(
    organisationId: string,
    url: string,
    event: WebhookEvent,
    data: Record<string, unknown>,
  ) {
    const delivery = await queue(organisationId, null, url, event, data)
    app.wakeJobs()
    return delivery
  }

  return { emit, emitLater, notifyUrl, queue }
}

/** A file as its webhook events describe it. */
export function fileEventData(file: StoredFile) {
  return {
    ...fileFields(file),
    createdAt: file.createdAt.toISOString(),
    updatedAt: file.updatedAt.toISOString(),
  }
}

/**
 * The repository, telling webhooks of the writes that make or remove files and folders: a
 * stored or upserted file (`file.created`), a file deleted by id or with its folder
 * (`file.deleted`), a folder made (`folder.created`). Events are queued after the write.
 */
export function withWebhookEvents(repo: Repository, events: WebhookEvents): Repository {
  return {
    ...repo,
    async storeFile(organisationId, input, overwrite) {
      const stored = await repo.storeFile(organisationId, input, overwrite)
      if (stored !== 'exists') {
        events.emitLater(organisationId, 'file.created', fileEventData(stored.file))
      }
      return stored
    },
    async upsertFile(organisationId, input) {
      const file = await repo.upsertFile(organisationId, input)
      events.emitLater(organisationId, 'file.created', fileEventData(file))
      return file
    },
    async deleteFileById(organisationId, id) {
      const removed = await repo.deleteFileById(organisationId, id)
      for (const file of removed?.files ?? []) {
        events.emitLater(organisationId, 'file.deleted', fileEventData(file))
      }
      return removed
    },
    async deleteFolder(organisationId, path, recursive) {
      const removed = await repo.deleteFolder(organisationId, path, recursive)
      if (typeof removed === 'object') {
        for (const file of removed.files) {
          events.emitLater(organisationId, 'file.deleted', fileEventData(file))
        }
      }
      return removed
    },
    async createFolder(organisationId, path) {
      const folder = await repo.createFolder(organisationId, path)
      if (folder !== undefined) {
        const slash = folder.path.lastIndexOf('/')
        events.emitLater(organisationId, 'folder.created', {
          _id: folder.id,
          orgId: organisationId,
          name: folder.path.slice(slash + 1),
          path: slash === -1 ? '' : folder.path.slice(0, slash),
          fullPath: folder.path,
          createdAt: folder.createdAt.toISOString(),
        })
      }
      return folder
    },
  }
}
