// Prediction jobs (SPEC §3 predictions state, issue 4): a signed-in member or an API token runs
// one of the predictions of `content/predictions.json` on an image of the organisation (or an
// http(s) URL), as a background job (`job.ts`), and polls it. A prediction whose model this
// server cannot run is refused (501 `model_unavailable`) before anything is queued or spent:
// there are no made-up results. Mounted under `PREDICTIONS_ORG_BASE` (`…/org/{orgId}/…`).
import { parseDeliveryPath, parsePattern } from '@tessera/url'
import { Hono } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import { assertValidFilePath } from '../assets/files.ts'
import { insufficientCredits } from '../billing/credits.ts'
import { TRANSFORMATION } from '../content/paths.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { Job } from '../db/index.ts'
import { assertAiCanFinish } from '../http/ai-cost.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readJson } from '../http/json-body.ts'
import { invalidInput, patternOf, readSourceText } from './input.ts'
import {
  CREDITS_PER_PREDICTION,
  PREDICTION_JOB,
  PREDICTION_REASON,
  type PredictionPayload,
  type Source,
} from './job.ts'
import { PREDICTIONS_ORG_BASE } from './paths.ts'

function jobJson(job: Job) {
  const payload = job.payload as Partial<PredictionPayload>
  return {
    jobId: job.id,
    predictionId: payload.predictionId ?? null,
    status: job.status,
    attempts: job.attempts,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    ...(job.status === 'done' ? { result: job.result } : {}),
    ...(job.status === 'failed' ? { error: job.error ?? 'The prediction failed' } : {}),
  }
}

/** Registers the prediction-job routes (docs/api.md, "Credits, payments and predictions"). */
export function predictionRoutes(app: AppContext, { auth }: { auth: Auth }): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo, content, config } = app
  const predictionsById = new Map(content.predictions.map((item) => [item.id, item]))

  /** The image a prediction reads: a file of the organisation, by path or delivery URL, or a URL. */
  /** The source, and the file's size when it is a stored file (a URL's is known once fetched). */
  async function sourceOf(
    organisation: { id: string; cloudName: string },
    text: string,
  ): Promise<{ source: Source; width: number | null; height: number | null }> {
    let path = text
    const local = [`${config.publicUrl}/v2/`, `${config.publicUrl}/v1/`].some((base) =>
      text.startsWith(base),
    )
    if (local) {
      // A delivery URL of this server: only an original of the caller's own organisation.
      const pathname = new URL(text).pathname
      let parts: ReturnType<typeof parseDeliveryPath>
      try {
        parts = parseDeliveryPath(pathname)
      } catch {
        throw invalidInput('image is not a delivery URL of this server')
      }
      if (parts.cloudName !== organisation.cloudName) {
        throw new HttpError(404, 'file_not_found', 'image is not a file of this organisation')
      }
      if (parts.pattern !== 'original' || parts.zone !== undefined) {
        throw invalidInput('image must be the original of a file (…/original/<path>), or its path')
      }
      try {
        path = decodeURIComponent(parts.filePath ?? '')
      } catch {
        throw invalidInput('image has a malformed percent-escape')
      }
    } else if (/^[a-z][a-z0-9+.-]*:/i.test(text)) {
      if (!/^https?:\/\//i.test(text)) throw invalidInput('image URLs must be http or https')
      try {
        new URL(text)
      } catch {
        throw invalidInput('image is not a valid URL')
      }
      return { source: { kind: 'url', url: text }, width: null, height: null }
    }
    assertValidFilePath(path)
    const file = await repo.findFile(organisation.id, path)
    if (file === undefined) {
      throw new HttpError(
        404,
        'file_not_found',
        `No file ${JSON.stringify(path.slice(0, 100))} in this organisation`,
      )
    }
    const source: Source = { kind: 'file', fileId: file.id, path: file.path }
    return { source, width: file.width, height: file.height }
  }

  router.post('/:orgId/predictions/:predictionId', jsonLimit, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'member' })
    const predictionId = c.req.param('predictionId')
    const prediction = predictionsById.get(predictionId)
    if (prediction === undefined) {
      throw new HttpError(
        404,
        'prediction_not_found',
        `No prediction ${JSON.stringify(predictionId.slice(0, 64))}; GET ${TRANSFORMATION}/predictions lists them`,
      )
    }
    if (!prediction.operation.runnable) {
      throw new HttpError(
        501,
        'model_unavailable',
        `The ${prediction.id} model (${prediction.operation.key}) is not installed on this server${
          prediction.operation.unavailableReason === undefined
            ? ''
            : ` (${prediction.operation.unavailableReason})`
        }: no job was created and no credits were spent`,
      )
    }
    const input = await readJson(c)
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new HttpError(400, 'invalid_body', 'The body must be a JSON object')
    }
    const record = input as Record<string, unknown>
    const pattern = patternOf(prediction, record, config.engine.maxOutputDimension)
    const { source, ...size } = await sourceOf(caller.organisation, readSourceText(record))
    // What cannot finish within AI_TIMEOUT_MS on this file is refused now, uncharged (issue 19
    // finding 4); a URL's image is judged by the job once fetched, and refunded.
    assertAiCanFinish(app.engine, parsePattern(pattern).value, size)
    const payload: PredictionPayload = {
      organisationId: caller.organisation.id,
      predictionId: prediction.id,
      pattern,
      source,
      credits: CREDITS_PER_PREDICTION,
    }
    const queued = await repo.enqueuePaidJob(
      caller.organisation.id,
      CREDITS_PER_PREDICTION,
      PREDICTION_REASON,
      { kind: PREDICTION_JOB, payload: { ...payload } },
    )
    if (!('job' in queued)) {
      if (queued.status === 'insufficient') throw insufficientCredits(queued)
      throw new Error('A new job cannot have been charged before')
    }
    app.wakeJobs()
    const location = `${PREDICTIONS_ORG_BASE}/${caller.organisation.id}/predictions/jobs/${queued.job.id}`
    return c.json(
      {
        jobId: queued.job.id,
        status: queued.job.status,
        predictionId: prediction.id,
        credits: CREDITS_PER_PREDICTION,
        balance: queued.change.balance,
      },
      202,
      { location, 'cache-control': 'no-store' },
    )
  })

  router.get('/:orgId/predictions/jobs/:jobId', async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer' })
    const jobId = c.req.param('jobId')
    const job = await repo.getJob(jobId)
    if (
      job === undefined ||
      job.kind !== PREDICTION_JOB ||
      job.organisationId !== caller.organisation.id
    ) {
      throw new HttpError(
        404,
        'job_not_found',
        `No prediction job ${JSON.stringify(jobId.slice(0, 64))} in this organisation`,
      )
    }
    return c.json(jobJson(job), 200, { 'cache-control': 'no-store' })
  })
  return router
}
