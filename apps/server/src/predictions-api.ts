// Prediction jobs (SPEC §3 predictions state, issue 4): a signed-in member or an API token runs
// one of the predictions of `content/predictions.json` on an image of the organisation (or an
// http(s) URL), as a background job, and polls it. Each prediction is a catalogue operation; the
// job runs it with the engine and stores the output as a file of the organisation. A prediction
// whose model this server cannot run is refused (501 `model_unavailable`) before anything is
// queued or spent: there are no made-up results.
import { createHash, randomUUID } from 'node:crypto'
import { type OperationSpec, parseDeliveryPath, parsePattern } from '@tessera/url'
import type { Hono } from 'hono'
import type { AppEnv } from './app.ts'
import { createAuth } from './auth.ts'
import { CREDITS_PER_AI_OPERATION, insufficientCredits } from './billing-api.ts'
import type { InputField, Prediction } from './content.ts'
import type { AppContext } from './context.ts'
import type { Job } from './db/index.ts'
import { engineErrorToHttp } from './engine-errors.ts'
import { assertValidFilePath } from './files.ts'
import { HttpError } from './http-error.ts'
import { jsonLimit, readJson } from './json-body.ts'
import { fetchRemote, RemoteError } from './remote.ts'

export const PANEL_TRANSFORMATION = '/service/panel/transformation/v1.0'
export const PREDICTIONS_ORG = `${PANEL_TRANSFORMATION}/org/:orgId/predictions`
/** The job kind the runner hands to `createPredictionJobHandler`. */
export const PREDICTION_JOB = 'prediction'
/** Credits one prediction costs. */
export const CREDITS_PER_PREDICTION = CREDITS_PER_AI_OPERATION
/** Ledger reasons of a prediction's charge and of its refund when it fails for good. */
export const PREDICTION_REASON = 'prediction'
export const PREDICTION_REFUND_REASON = 'prediction_refund'
const MAX_IMAGE_REFERENCE = 2048
// Text parameters go into a delivery pattern, so they keep to characters the pattern language
// reads as a value.
const TEXT_VALUE = /^[A-Za-z0-9_.#-]{0,200}$/

/** Where a prediction reads its image. */
type Source = { kind: 'file'; fileId: string; path: string } | { kind: 'url'; url: string }

interface PredictionPayload {
  organisationId: string
  predictionId: string
  pattern: string
  source: Source
  credits: number
}

const invalidInput = (message: string) => new HttpError(400, 'invalid_input', message)

/** Checks one parameter value against its field of the input schema. */
function checkField(name: string, field: InputField, value: unknown, maxNumber: number): string {
  switch (field.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw invalidInput(`${name} must be true or false`)
      return String(value)
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw invalidInput(`${name} must be a number`)
      }
      if (field.type === 'integer' && !Number.isInteger(value)) {
        throw invalidInput(`${name} must be a whole number`)
      }
      // A parameter without bounds of its own (sizes, paddings) is kept to the output limit.
      const minimum = field.minimum ?? 0
      const maximum = field.maximum ?? maxNumber
      if (value < minimum) throw invalidInput(`${name} must be at least ${minimum}`)
      if (value > maximum) throw invalidInput(`${name} must be at most ${maximum}`)
      return String(value)
    }
    case 'string': {
      if (typeof value !== 'string') throw invalidInput(`${name} must be a string`)
      if (field.enum !== undefined && !field.enum.includes(value)) {
        throw invalidInput(`${name} must be one of ${field.enum.join(', ')}`)
      }
      if (field.pattern !== undefined && !new RegExp(field.pattern).test(value)) {
        throw invalidInput(`${name} is not in the expected form (${field.pattern})`)
      }
      if (!TEXT_VALUE.test(value)) {
        throw invalidInput(`${name} may use letters, digits and _ . # - only (at most 200)`)
      }
      return value
    }
  }
}

/**
 * The delivery pattern a prediction's input asks for, e.g. `ic.crop(w:200,h:200,g:face)`.
 * Numbers the catalogue gives no bounds are kept from 0 to `maxNumber`.
 *
 * @throws {HttpError} 400 `invalid_input` naming the first bad field.
 */
export function patternOf(
  prediction: Prediction,
  input: Record<string, unknown>,
  maxNumber: number,
): string {
  const { properties } = prediction.inputSchema
  const operation: OperationSpec = prediction.operation
  const values: string[] = []
  for (const [name, value] of Object.entries(input)) {
    if (name === 'image') continue
    const field = properties[name]
    if (field === undefined) {
      throw invalidInput(
        `${JSON.stringify(name.slice(0, 40))} is not an input of ${prediction.id}; it takes image${
          Object.keys(properties).length > 1
            ? `, ${Object.keys(properties)
                .filter((key) => key !== 'image')
                .join(', ')}`
            : ''
        }`,
      )
    }
    if (value === null || value === undefined) continue
    values.push(`${field['x-param']}:${checkField(name, field, value, maxNumber)}`)
  }
  const pattern = `${operation.key}(${values.join(',')})`
  const issue = parsePattern(pattern).issues[0]
  if (issue !== undefined) throw invalidInput(issue.message)
  return pattern
}

function readSourceText(input: Record<string, unknown>): string {
  const image = input.image
  if (image === undefined || image === null) throw invalidInput('image is required')
  if (typeof image !== 'string' || image.trim() === '') {
    throw invalidInput('image must be a file path of the organisation or an http(s) URL')
  }
  if (image.length > MAX_IMAGE_REFERENCE) {
    throw invalidInput(`image must be at most ${MAX_IMAGE_REFERENCE} characters`)
  }
  return image.trim()
}

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

const EXTENSIONS: Record<string, string> = { jpeg: 'jpg' }

/** Registers the prediction-job routes (docs/api.md, "Credits, payments and predictions"). */
export function registerPredictionsApi(hono: Hono<AppEnv>, app: AppContext): void {
  const { repo, content, config } = app
  const auth = createAuth(app)
  const predictionsById = new Map(content.predictions.map((item) => [item.id, item]))

  /** The image a prediction reads: a file of the organisation, by path or delivery URL, or a URL. */
  async function sourceOf(
    organisation: { id: string; cloudName: string },
    text: string,
  ): Promise<Source> {
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
      return { kind: 'url', url: text }
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
    return { kind: 'file', fileId: file.id, path: file.path }
  }

  hono.post(`${PREDICTIONS_ORG}/:predictionId`, jsonLimit, async (c) => {
    c.set('route', 'predictions')
    const caller = await auth.requirePathOrganisation(c)
    const predictionId = c.req.param('predictionId')
    const prediction = predictionsById.get(predictionId)
    if (prediction === undefined) {
      throw new HttpError(
        404,
        'prediction_not_found',
        `No prediction ${JSON.stringify(predictionId.slice(0, 64))}; GET ${'/service/public/transformation/v1.0/predictions'} lists them`,
      )
    }
    if (!prediction.operation.runnable) {
      throw new HttpError(
        501,
        'model_unavailable',
        `The ${prediction.id} model (${prediction.operation.key}) is not installed on this server: no job was created and no credits were spent`,
      )
    }
    const input = await readJson(c)
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new HttpError(400, 'invalid_body', 'The body must be a JSON object')
    }
    const record = input as Record<string, unknown>
    const pattern = patternOf(prediction, record, config.engine.maxOutputDimension)
    const source = await sourceOf(caller.organisation, readSourceText(record))
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
    const location = `${PANEL_TRANSFORMATION}/org/${caller.organisation.id}/predictions/jobs/${queued.job.id}`
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

  hono.get(`${PREDICTIONS_ORG}/jobs/:jobId`, async (c) => {
    c.set('route', 'predictions')
    const caller = await auth.requirePathOrganisation(c)
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
}

/**
 * The job handler of `PREDICTION_JOB`: reads the image, runs the operation with the engine and
 * stores the output as the file `predictions/<prediction>/<job id>.<format>` of the organisation.
 * When the job fails for good (a client error, or its last attempt), its credits are refunded.
 */
export function createPredictionJobHandler(app: AppContext) {
  const { repo, storage, engine, config, lookups } = app

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
    await storage.put(storageKey, result.data, { contentType: result.contentType })
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
    lookups.forgetFile(organisation.id, path)
    return {
      fileId: file.id,
      path: file.path,
      url: `${config.publicUrl}/v2/${organisation.cloudName}/original/${path}`,
      format: result.format,
      contentType: result.contentType,
      width: result.width,
      height: result.height,
      size: result.data.length,
    }
  }

  return async (raw: unknown, job: Job) => {
    const payload = raw as PredictionPayload
    try {
      return await run(payload, job)
    } catch (caught) {
      // The job's error is shown to the caller: only messages meant for people, never internals.
      let error = caught
      if (!(caught instanceof HttpError) && !(caught instanceof RemoteError)) {
        app.logger.error({ err: caught, jobId: job.id }, 'prediction failed')
        error = new Error('The prediction could not be run on this server')
      }
      const final =
        (error instanceof HttpError && error.status >= 400 && error.status < 500) ||
        job.attempts >= job.maxAttempts
      if (final && payload.credits > 0) {
        await repo
          .grantCredits(payload.organisationId, payload.credits, PREDICTION_REFUND_REASON, job.id)
          .catch((refund: unknown) =>
            app.logger.error({ err: refund, jobId: job.id }, 'could not refund a prediction'),
          )
      }
      throw error
    }
  }
}
