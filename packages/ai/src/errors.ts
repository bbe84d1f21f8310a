/** Why an AI operation was refused or failed; stable, for the server to map to an HTTP status. */
export type AiErrorCode =
  | 'too_many_pixels'
  | 'invalid_param'
  | 'invalid_image'
  | 'model_unavailable'
  | 'timeout'
  | 'model_failed'
  | 'busy'

/** The codes caused by the request (4xx); the others are the service's own (5xx). */
export const AI_CLIENT_ERROR_CODES: ReadonlySet<AiErrorCode> = new Set<AiErrorCode>([
  'too_many_pixels',
  'invalid_param',
  'invalid_image',
])

/** Every message the AI package writes, in one place. */
export const AI_MESSAGES = {
  tooManyPixels: (pixels: number, max: number) =>
    `The image has ${pixels} pixels; AI operations take at most ${max}`,
  invalidParam: (key: string, param: string, expected: string) =>
    `${key}: parameter ${param} must be ${expected}`,
  unavailable: (key: string, reason: string) => `${key} cannot run on this server: ${reason}`,
  timeout: (key: string, ms: number) => `${key}: the model took longer than ${ms} ms`,
  failed: (key: string) => `${key}: the model failed`,
  outputTooLarge: (key: string, width: number, height: number, max: number) =>
    `${key}: the result would be ${width}×${height} pixels; the limit is ${max} pixels per side`,
  markTooLarge: (key: string, what: 'repaint' | 'change', percent: number, limit: number) =>
    `${key}: without a box, removing the mark would ${what} ${percent.toFixed(1)}% of the image (the limit is ${limit}%); give the mark's place as box1=x_y_w_h (percent of the image)`,
  closed: 'The AI service has been shut down',
  busy: (key: string) => `${key}: too many AI requests are waiting; try again later`,
} as const

/** The one error the AI package throws; `cause` keeps the model's own error. */
export class AiError extends Error {
  override readonly name = 'AiError'
  readonly code: AiErrorCode

  constructor(code: AiErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }

  /** Whether the request caused the error (the server answers 4xx). */
  get isClientError(): boolean {
    return AI_CLIENT_ERROR_CODES.has(this.code)
  }
}

/** Returns true when `error` is an `AiError`. */
export function isAiError(error: unknown): error is AiError {
  return error instanceof AiError
}
