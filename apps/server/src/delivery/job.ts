// The derive job: a chain with a slow (AI) operation is not answered at once; delivery queues it
// (202) and the job runner derives it, the same work as a request, stored for the next request.
import { isModelTimeout } from '@tessera/engine'
import { isVideoError } from '@tessera/media'
import { parsePattern, type UrlOptions } from '@tessera/url'
import type { AppContext } from '../context.ts'
import type { Job } from '../db/index.ts'
import { engineErrorToHttp, isClientFailure } from '../http/engine-errors.ts'
import { HttpError } from '../http/errors.ts'
import type { JobFailure, JobHandler } from '../platform/jobs.ts'
import type { Deriver } from './derive.ts'

/** The job kind of a queued delivery transformation. */
export const DERIVE_JOB = 'derive'
/**
 * The same job for the demo organisation (visitors' AI runs): its own lane of the queue, so
 * visitors and organisations take turns (`createJobRunner`'s `lanes`).
 */
export const DERIVE_VISITOR_JOB = 'derive-visitor'

/** What a derive job carries: enough to derive the image the request asked for. */
export interface DeriveJobPayload {
  organisationId: string
  /** Older jobs name the file by path only. */
  fileId?: string
  path: string
  /** The pattern with presets expanded. */
  pattern: string
  options: UrlOptions
  dpr: number
  accept: string | null
  cacheKey: string
  format: string
}

/** The handler of `DERIVE_JOB`: derives and stores the image; done once it is stored. */
export function createDeriveJobHandler(
  app: Pick<AppContext, 'repo'>,
  deriver: Deriver,
): JobHandler {
  const { repo } = app

  async function run(raw: unknown): Promise<void> {
    const payload = raw as DeriveJobPayload
    // By id: a file renamed or moved while its job waited is still the same file.
    const file =
      payload.fileId === undefined
        ? await repo.findFile(payload.organisationId, payload.path)
        : await repo.findFileById(payload.organisationId, payload.fileId)
    if (file === undefined) throw new HttpError(404, 'not_found', 'The file no longer exists')
    const { value } = parsePattern(payload.pattern, { format: file.format })
    const derived = await deriver.deriveOnce(
      { organisationId: payload.organisationId, file, operations: value, options: payload.options },
      payload.cacheKey,
      payload.dpr,
      payload.accept ?? undefined,
      true,
    )
    // The job is done once the image is stored and indexed, not when it is computed.
    await derived.persisted
  }

  // A bad image or parameter fails at once (and is refunded), and so does a model that ran out
  // of AI_TIMEOUT_MS: the same input and model take as long again (issue 19 finding 4). Other
  // timeouts (the engine's budget on a busy machine) are tried again.
  // A client error (a refused parameter, a bad image) is kept with the job as its status and
  // code, so delivery answers it as a request that ran at once would, not with a generic 422.
  function clientError(error: unknown): JobFailure | undefined {
    const mapped = engineErrorToHttp(error)
    if (!(mapped instanceof HttpError) || mapped.status < 400 || mapped.status >= 500) return
    return { status: mapped.status, code: mapped.code }
  }

  return {
    run,
    // Video work that ran out of VIDEO_TIMEOUT_MS takes as long again: it fails at once too.
    isPermanent: (error) => isClientFailure(error) || isModelTimeout(error) || isVideoError(error),
    clientError,
  }
}

/**
 * The answer to a request whose derive job failed for good: the client error it kept (`400
 * invalid_transformation` for a refused parameter), else `422 transformation_failed`.
 */
export function failedJobError(job: Pick<Job, 'error' | 'result'>): HttpError {
  const message = job.error ?? 'The transformation failed'
  const failure = (job.result as { failure?: Partial<JobFailure> } | null)?.failure
  const { status, code } = failure ?? {}
  if (typeof status === 'number' && status >= 400 && status < 500 && typeof code === 'string') {
    return new HttpError(status, code, message)
  }
  return new HttpError(422, 'transformation_failed', message)
}
