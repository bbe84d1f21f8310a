import { EngineError } from '@tessera/engine'
import { VideoError } from '@tessera/media'
import { HttpError } from './errors.ts'

// Status per engine error code: the image or the request is at fault (4xx), or the server ran
// out of time (503, retryable).
const STATUS: Record<string, [number, string]> = {
  input_too_large: [413, 'image_too_large'],
  too_many_pixels: [422, 'image_too_large'],
  output_too_large: [400, 'output_too_large'],
  unsupported_format: [415, 'unsupported_format'],
  invalid_image: [422, 'invalid_image'],
  invalid_region: [400, 'invalid_region'],
  invalid_param: [400, 'invalid_transformation'],
  missing_file: [400, 'missing_file'],
  not_runnable: [501, 'operation_unavailable'],
  model_unavailable: [501, 'model_unavailable'],
  // Every worker of a model is taken and its queue is full: try again shortly.
  busy: [503, 'busy'],
  operation_failed: [422, 'transformation_failed'],
  timeout: [503, 'timeout'],
}

// Status per video error code (issue 23): the same split.
const VIDEO_STATUS: Record<string, [number, string]> = {
  invalid_video: [422, 'invalid_video'],
  too_long: [422, 'video_too_long'],
  too_many_pixels: [422, 'video_too_large'],
  output_too_large: [400, 'output_too_large'],
  invalid_operation: [400, 'invalid_transformation'],
  timeout: [503, 'timeout'],
  failed: [422, 'transformation_failed'],
}

/**
 * Turns an engine or video error into the HTTP answer; anything else is passed through
 * unchanged.
 */
export function engineErrorToHttp(error: unknown): unknown {
  if (error instanceof VideoError) {
    const [status, code] = VIDEO_STATUS[error.code] ?? [422, 'transformation_failed']
    return new HttpError(status, code, error.message, {
      cause: error,
      ...(status === 503 ? { headers: { 'retry-after': '5' } } : {}),
    })
  }
  if (!(error instanceof EngineError)) return error
  const [status, code] = STATUS[error.code] ?? [422, 'transformation_failed']
  return new HttpError(status, code, error.message, {
    cause: error,
    ...(status === 503 ? { headers: { 'retry-after': '5' } } : {}),
  })
}

/**
 * Whether `error` is the client's fault (an engine error or `HttpError` answered with a 4xx):
 * trying the same work again gives the same error. A timeout (503) is worth another try.
 */
export function isClientFailure(error: unknown): boolean {
  const mapped = engineErrorToHttp(error)
  return mapped instanceof HttpError && mapped.status >= 400 && mapped.status < 500
}
