// Queuing a prediction (SPEC §3 predictions state): the prediction looked up, refused when this
// server cannot run its model, its input checked and turned into a pattern, the image found (a
// file of the organisation, a delivery URL of its original, an http(s) URL, or bytes the caller
// sent), what cannot finish in time refused, and the job queued with its credits spent in one
// transaction. Used by the panel's prediction jobs and by Pixelbin's platform predictions.
import { parseDeliveryPath, parsePattern } from '@tessera/url'
import { assertValidFilePath } from '../assets/files.ts'
import { insufficientCredits } from '../billing/credits.ts'
import { TRANSFORMATION } from '../content/paths.ts'
import type { AppContext } from '../context.ts'
import type { Job, Organisation } from '../db/index.ts'
import { assertAiCanFinish } from '../http/ai-cost.ts'
import { HttpError } from '../http/errors.ts'
import { invalidInput, patternOf, readSourceText } from './input.ts'
import {
  CREDITS_PER_PREDICTION,
  PREDICTION_JOB,
  PREDICTION_REASON,
  type PredictionPayload,
  type Source,
} from './job.ts'

/** An image the caller sent with the request, already stored under `storageKey`. */
export interface SentImage {
  storageKey: string
  width: number
  height: number
}

/** What `queuePrediction` adds to a job beyond the checked input. */
export interface QueueOptions {
  /** The image as bytes sent with the request (instead of `input.image`). */
  image?: SentImage | undefined
  /** A URL told when the prediction finishes (checked by the caller). */
  webhook?: string | undefined
  /** The input as the caller gave it, kept to be shown again (Pixelbin's `input`). */
  echo?: Record<string, unknown> | undefined
}

export function createPredictionQueue(app: AppContext) {
  const { repo, config } = app

  /** The prediction with this id, runnable here; 404 / 501 otherwise. */
  function predictionOf(predictionId: string) {
    const prediction = app.content.predictions.find((item) => item.id === predictionId)
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
    return prediction
  }

  /** The image a prediction reads, and its size when it is a stored file. */
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

  /**
   * Queues prediction `predictionId` on `input` for `organisation`, its credits spent; answers
   * the job, the prediction and the balance after. Throws the 4xx/501 of a refusal (nothing
   * queued, nothing spent).
   */
  async function queuePrediction(
    organisation: Pick<Organisation, 'id' | 'cloudName'>,
    predictionId: string,
    input: Record<string, unknown>,
    options: QueueOptions = {},
  ): Promise<{ job: Job; predictionId: string; credits: number; balance: number }> {
    const prediction = predictionOf(predictionId)
    const pattern = patternOf(prediction, input, config.engine.maxOutputDimension)
    const { source, ...size } =
      options.image === undefined
        ? await sourceOf(organisation, readSourceText(input))
        : {
            source: { kind: 'blob', storageKey: options.image.storageKey } as Source,
            width: options.image.width,
            height: options.image.height,
          }
    // What cannot finish within AI_TIMEOUT_MS on this file is refused now, uncharged (issue 19
    // finding 4); a URL's image is judged by the job once fetched, and refunded.
    assertAiCanFinish(app.engine, parsePattern(pattern).value, size)
    const payload: PredictionPayload = {
      organisationId: organisation.id,
      predictionId: prediction.id,
      pattern,
      source,
      credits: CREDITS_PER_PREDICTION,
      ...(options.webhook === undefined ? {} : { webhook: options.webhook }),
      ...(options.echo === undefined ? {} : { input: options.echo }),
    }
    const queued = await repo.enqueuePaidJob(
      organisation.id,
      CREDITS_PER_PREDICTION,
      PREDICTION_REASON,
      { kind: PREDICTION_JOB, payload: { ...payload } },
    )
    if (!('job' in queued)) {
      if (queued.status === 'insufficient') throw insufficientCredits(queued)
      throw new Error('A new job cannot have been charged before')
    }
    app.wakeJobs()
    return {
      job: queued.job,
      predictionId: prediction.id,
      credits: CREDITS_PER_PREDICTION,
      balance: queued.change.balance,
    }
  }

  return { queuePrediction, predictionOf }
}
