// A prediction job in Pixelbin's shape (`@pixelbin/admin`'s predictions.create/get/wait): id
// `plugin--operation--<job id>`, status ACCEPTED → SUCCESS (with `output` URLs and
// `consumedCredits`) or FAILURE (with `error`; its credits were refunded), kept `retention`.
import type { Job } from '../db/index.ts'

/** The fields of a prediction job's payload this shape reads (job.ts writes them). */
interface PayloadFields {
  predictionId: string
  credits: number
  webhook: string
  input: Record<string, unknown>
}

/** Where Pixelbin's SDK creates and polls predictions. */
export const PLATFORM_PREDICTIONS = '/service/platform/transformation/v1.0/predictions'
/** How long a prediction's output is kept, as Pixelbin says it. */
export const RETENTION = '30d'

/** Pixelbin's id of a prediction job: `erase--bg--<uuid>` for `erase_bg`. */
export function platformPredictionId(predictionId: string, jobId: string): string {
  return `${predictionId.replace('_', '--')}--${jobId}`
}

/** The prediction and job ids in a Pixelbin id; undefined when it is not one. */
export function parsePlatformPredictionId(
  id: string,
): { predictionId: string; jobId: string } | undefined {
  const parts = id.split('--')
  if (parts.length !== 3 || parts.some((part) => part === '')) return undefined
  const [plugin, operation, jobId] = parts as [string, string, string]
  return { predictionId: `${plugin}_${operation}`, jobId }
}

const STATUS = { queued: 'ACCEPTED', running: 'ACCEPTED', done: 'SUCCESS', failed: 'FAILURE' }

/** A prediction job as Pixelbin's platform API answers it. */
export function platformPredictionJson(job: Job, publicUrl: string) {
  const payload = job.payload as Partial<PayloadFields>
  const predictionId = payload.predictionId ?? ''
  const _id = platformPredictionId(predictionId, job.id)
  const result = job.result as { url?: string; data?: Record<string, unknown> } | null
  return {
    _id,
    status: STATUS[job.status],
    urls: { get: `${publicUrl}${PLATFORM_PREDICTIONS}/${_id}` },
    input: payload.input ?? {},
    orgId: job.organisationId,
    retention: RETENTION,
    ...(payload.webhook === undefined ? {} : { webhook: payload.webhook }),
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    ...(job.status === 'done'
      ? {
          output: result?.url === undefined ? [] : [result.url],
          consumedCredits: payload.credits ?? 0,
          // What a detection found (boxes, text): Tessera's addition beside the output image.
          ...(result?.data !== undefined && Object.keys(result.data).length > 0
            ? { data: result.data }
            : {}),
        }
      : {}),
    ...(job.status === 'failed'
      ? { error: job.error ?? 'The prediction failed', consumedCredits: 0 }
      : {}),
  }
}
