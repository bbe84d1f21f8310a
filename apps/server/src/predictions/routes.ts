// Prediction jobs (SPEC §3 predictions state, issue 4): a signed-in member or an API token runs
// one of the predictions of `content/predictions.json` on an image of the organisation (or an
// http(s) URL), as a background job (`job.ts`), and polls it. A prediction whose model this
// server cannot run is refused (501 `model_unavailable`) before anything is queued or spent:
// there are no made-up results. Mounted under `PREDICTIONS_ORG_BASE` (`…/org/{orgId}/…`).
import { Hono } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { Job } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readJson } from '../http/json-body.ts'
import { PREDICTION_JOB, type PredictionPayload } from './job.ts'
import { PREDICTIONS_ORG_BASE } from './paths.ts'
import { createPredictionQueue } from './queue.ts'

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
  const { repo } = app
  const queue = createPredictionQueue(app)

  router.post('/:orgId/predictions/:predictionId', jsonLimit, async (c) => {
    const caller = await auth.requirePathOrganisation(c, { role: 'member' })
    const predictionId = c.req.param('predictionId')
    // Looked up before the body is read: an unknown or unrunnable model is refused first.
    queue.predictionOf(predictionId)
    const input = await readJson(c)
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new HttpError(400, 'invalid_body', 'The body must be a JSON object')
    }
    const queued = await queue.queuePrediction(
      caller.organisation,
      predictionId,
      input as Record<string, unknown>,
    )
    const location = `${PREDICTIONS_ORG_BASE}/${caller.organisation.id}/predictions/jobs/${queued.job.id}`
    return c.json(
      {
        jobId: queued.job.id,
        status: queued.job.status,
        predictionId: queued.predictionId,
        credits: queued.credits,
        balance: queued.balance,
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
