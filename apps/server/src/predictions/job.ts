// The prediction job (SPEC §3 predictions state): reads the image, runs the prediction's
// operation with the engine and stores the output as a file of the organisation. Queued by
// `routes.ts` with its credits spent in the same transaction; refunded by the job runner when it
// fails for good.
import { createHash, randomUUID } from 'node:crypto'
import { parsePattern } from '@tessera/url'
import { fetchRemote, RemoteError } from '../assets/remote.ts'
import { CREDITS_PER_AI_OPERATION } from '../billing/credits.ts'
import type { AppContext } from '../context.ts'
import type { Job } from '../db/index.ts'
import { engineErrorToHttp, isClientFailure } from '../http/engine-errors.ts'
import { HttpError } from '../http/errors.ts'
import type { JobHandler } from '../platform/jobs.ts'
import { createWebhookEvents } from '../webhooks/events.ts'
import { platformPredictionJson } from './platform-json.ts'

/** The job kind the runner hands to `createPredictionJobHandler`. */
export const PREDICTION_JOB = 'prediction'
/** Credits one prediction costs. */
export const CREDITS_PER_PREDICTION = CREDITS_PER_AI_OPERATION
/** Ledger reasons of a prediction's charge and of its refund when it fails for good. */
export const PREDICTION_REASON = 'prediction'
export const PREDICTION_REFUND_REASON = 'prediction_refund'

/** Where a prediction reads its image. */
export type Source =
  | { kind: 'file'; fileId: string; path: string }
  | { kind: 'url'; url: string }
  /** Bytes the caller sent with the request, kept apart until the job has run. */
  | { kind: 'blob'; storageKey: string }

/** The payload of a prediction job (written by the route, read by the handler). */
export interface PredictionPayload {
  organisationId: string
  predictionId: string
  pattern: string
  source: Source
  credits: number
  /** A URL told when the prediction finishes (Pixelbin's `webhook`). */
  webhook?: string
  /** The input as the caller gave it (Pixelbin's `input`, shown by the platform API). */
  input?: Record<string, unknown>
}

const EXTENSIONS: Record<string, string> = { jpeg: 'jpg' }

/**
 * The job handler of `PREDICTION_JOB`: reads the image, runs the operation with the engine and
 * stores the output as the file `predictions/<prediction>/<job id>.<format>` of the organisation.
 * When the job fails for good (a client error, or its last attempt), the job runner refunds its
 * credits (`PREDICTION_REFUND_REASON`, referencing the job).
 */
export function createPredictionJobHandler(app: AppContext): JobHandler {
  const { repo, storage, engine, config, lookups } = app
  const events = createWebhookEvents(app)

  /**
   * Tells the organisation's webhooks (`prediction.finished`) and the prediction's own `webhook`
   * URL that it finished, in Pixelbin's shape; a sent image is no longer needed then.
   */
  async function finished(payload: PredictionPayload, job: Job) {
    if (payload.source.kind === 'blob') {
      await storage.delete(payload.source.storageKey).catch(() => undefined)
    }
    const data = platformPredictionJson(job, config.publicUrl)
    await events.emit(payload.organisationId, 'prediction.finished', data)
    if (payload.webhook !== undefined) {
      await events.notifyUrl(payload.organisationId, payload.webhook, 'prediction.finished', data)
    }
  }

  /** `finished`, whose failure is logged: the prediction's own outcome stands. */
  function tell(payload: PredictionPayload, job: Job) {
    void finished(payload, job).catch((error: unknown) =>
      app.logger.warn({ err: error, jobId: job.id }, 'a prediction webhook was not queued'),
    )
  }

  async function readInput(payload: PredictionPayload): Promise<Buffer> {
    const { source } = payload
    if (source.kind === 'file') {
      const file = await repo.findFileById(payload.organisationId, source.fileId)
      if (file === undefined) throw new HttpError(404, 'file_not_found', 'The file was deleted')
      const data = await storage.get(file.storageKey)
      if (data === undefined) {
        throw new HttpError(404, 'file_not_found', 'The file is missing from storage')
      }
      return data
    }
    if (source.kind === 'blob') {
      const data = await storage.get(source.storageKey)
      if (data === undefined) throw new HttpError(404, 'file_not_found', 'The sent image is gone')
      return data
    }
    try {
      return (await fetchRemote(source.url, config.remote)).data
    } catch (error) {
      if (!(error instanceof RemoteError)) throw error
      // A slow or unreachable source may answer later; anything else never will.
      if (error.code === 'timeout' || error.code === 'unreachable') throw error
      throw new HttpError(
        error.code === 'too_large' ? 413 : 400,
        `remote_${error.code}`,
        error.message,
      )
    }
  }

  async function run(payload: PredictionPayload, job: Job) {
    const input = await readInput(payload)
    const { value: operations } = parsePattern(payload.pattern)
    let result: Awaited<ReturnType<typeof engine.transform>>
    try {
      result = await engine.transform({ input, operations })
    } catch (error) {
      throw engineErrorToHttp(error)
    }
    const organisation = await repo.findOrganisationById(payload.organisationId)
    if (organisation === undefined)
      throw new HttpError(404, 'not_found', 'The organisation is gone')
    const extension = EXTENSIONS[result.format] ?? result.format
    const name = `${job.id}.${extension}`
    const path = `predictions/${payload.predictionId}/${name}`
    const storageKey = `orgs/${organisation.id}/originals/${randomUUID()}`
    await storage.put(storageKey, result.data, {
      contentType: result.contentType,
    })
    const file = await repo.upsertFile(organisation.id, {
      path,
      name,
      size: result.data.length,
      format: result.format,
      contentType: result.contentType,
      width: result.width,
      height: result.height,
      hash: createHash('sha256').update(result.data).digest('hex'),
      storageKey,
    })
    await lookups.forgetFile(organisation.id, path)
    return {
      fileId: file.id,
      path: file.path,
      url: `${config.publicUrl}/v2/${organisation.cloudName}/original/${path}`,
      format: result.format,
      contentType: result.contentType,
      width: result.width,
      height: result.height,
      size: result.data.length,
      // What the operation found, as the transformation context's `steps[].data` gives it
      // (`{}` for an operation that only changes the image).
      data: result.steps.find((step) => step.data !== null)?.data ?? {},
    }
  }

  async function runJob(raw: unknown, job: Job) {
    const payload = raw as PredictionPayload
    try {
      const result = await run(payload, job)
      tell(payload, { ...job, status: 'done', result, updatedAt: new Date() })
      return result
    } catch (caught) {
      // The job's error is shown to the caller: only messages meant for people, never internals.
      let error = caught
      if (!(caught instanceof HttpError) && !(caught instanceof RemoteError)) {
        app.logger.error({ err: caught, jobId: job.id }, 'prediction failed')
        error = new Error('The prediction could not be run on this server')
      }
      // A job that fails for good is refunded by the job runner (`refundJob`), once.
      if (isClientFailure(error) || job.attempts >= job.maxAttempts) {
        const message = error instanceof Error ? error.message : 'The prediction failed'
        tell(payload, { ...job, status: 'failed', error: message, updatedAt: new Date() })
      }
      throw error
    }
  }

  // A client error (a deleted file, a bad image) fails the job at once; anything else is tried
  // again until its attempts run out.
  return { run: runJob, isPermanent: isClientFailure }
}
