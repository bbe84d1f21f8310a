// Pixelbin's platform predictions (issue 22) for `@pixelbin/admin`'s predictions.create / get /
// wait / createAndWait: multipart `input.<field>` (an image as a file part or a URL) and an
// optional `webhook`, queued as Tessera's prediction job (credits, limits and refunds as in the
// panel) and answered in Pixelbin's shape. The organisation is the token's. Mounted under
// PLATFORM_PREDICTIONS.
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { Auth } from '../accounts/auth.ts'
import type { AppContext, AppEnv } from '../context.ts'
import { isUuid } from '../db/index.ts'
import { engineErrorToHttp } from '../http/engine-errors.ts'
import { HttpError } from '../http/errors.ts'
import { PREDICTION_JOB } from '../predictions/job.ts'
import { parsePlatformPredictionId, platformPredictionJson } from '../predictions/platform-json.ts'
import { createPredictionQueue, type SentImage } from '../predictions/queue.ts'
import { assertTarget } from '../webhooks/target.ts'
import { requirePlatformToken } from './platform-token.ts'
import { readPredictionForm } from './prediction-input.ts'

const notFound = (id: string) =>
  new HttpError(
    404,
    'prediction_not_found',
    `No prediction ${JSON.stringify(id.slice(0, 100))} in this organisation`,
  )

export function platformPredictionRoutes(app: AppContext, { auth }: { auth: Auth }): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo, storage, engine, config } = app
  const queue = createPredictionQueue(app)
  const limit = bodyLimit({
    maxSize: config.uploadMaxBytes + 64 * 1024,
    onError: () => {
      throw new HttpError(
        413,
        'too_large',
        `The body is larger than ${config.uploadMaxBytes} bytes`,
      )
    },
  })

  router.post('/:plugin/:operation', limit, async (c) => {
    const predictionId = `${c.req.param('plugin')}_${c.req.param('operation')}`
    // Refusals before the body is read still read it (within the limit): a client still sending
    // would otherwise see its connection reset instead of the answer.
    const { organisation, prediction } = await (async () => {
      const caller = await requirePlatformToken(auth, c)
      return { organisation: caller.organisation, prediction: queue.predictionOf(predictionId) }
    })().catch(async (error: unknown) => {
      await c.req.arrayBuffer().catch(() => undefined)
      throw error
    })
    const form = await readPredictionForm(c, prediction)
    const webhook =
      form.webhook === undefined
        ? undefined
        : await assertTarget(form.webhook, config.remote.allowHosts, 'webhook')
    let image: SentImage | undefined
    if (form.image !== undefined) {
      const data = form.image.data
      const probe = await engine.probe(data).catch((error: unknown) => {
        throw engineErrorToHttp(error)
      })
      const storageKey = `orgs/${organisation.id}/prediction-inputs/${randomUUID()}`
      await storage.put(storageKey, data)
      image = { storageKey, width: probe.width, height: probe.height }
    }
    try {
      const queued = await queue.queuePrediction(organisation, prediction.id, form.input, {
        image,
        webhook,
        echo: form.echo,
      })
      return c.json(platformPredictionJson(queued.job, config.publicUrl), 202, {
        'cache-control': 'no-store',
      })
    } catch (error) {
      if (image !== undefined) await storage.delete(image.storageKey).catch(() => undefined)
      throw error
    }
  })

  router.get('/:id', async (c) => {
    const { organisation } = await requirePlatformToken(auth, c)
    const id = c.req.param('id')
    const parsed = parsePlatformPredictionId(id)
    if (parsed === undefined || !isUuid(parsed.jobId)) throw notFound(id)
    const job = await repo.getJob(parsed.jobId)
    if (
      job === undefined ||
      job.kind !== PREDICTION_JOB ||
      job.organisationId !== organisation.id ||
      (job.payload as { predictionId?: string }).predictionId !== parsed.predictionId
    ) {
      throw notFound(id)
    }
    return c.json(platformPredictionJson(job, config.publicUrl), 200, {
      'cache-control': 'no-store',
    })
  })
  return router
}
