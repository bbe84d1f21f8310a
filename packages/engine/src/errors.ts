/** Why the engine refused or failed a job; stable, for the server to map to an HTTP status. */
export type EngineErrorCode =
  | 'input_too_large'
  | 'too_many_pixels'
  | 'output_too_large'
  | 'unsupported_format'
  | 'invalid_image'
  | 'invalid_region'
  | 'invalid_param'
  | 'not_runnable'
  | 'missing_file'
  | 'model_unavailable'
  | 'busy'
  | 'timeout'
  | 'operation_failed'

/**
 * The codes caused by the request or the stored file (the server answers 4xx); `timeout`,
 * `operation_failed`, `busy` (AI queue full, 503) and `model_unavailable` (no model here, 501)
 * are the engine's own (5xx).
 */
export const CLIENT_ERROR_CODES: ReadonlySet<EngineErrorCode> = new Set<EngineErrorCode>([
  'input_too_large',
  'too_many_pixels',
  'output_too_large',
  'unsupported_format',
  'invalid_image',
  'invalid_region',
  'invalid_param',
  'not_runnable',
  'missing_file',
])

/** Every message the engine writes, in one place. */
export const MESSAGES = {
  inputTooLarge: (size: number, max: number) =>
    `The image is ${size} bytes; the limit is ${max} bytes`,
  pixelLimit: 'The image has more pixels than the limit',
  formatLimit: 'The result is too large for its format',
  tooManyPixels: (pixels: number, max: number) =>
    `The image has ${pixels} pixels (animation frames summed); the limit is ${max}`,
  aiTooCostly: (
    key: string,
    width: number,
    height: number,
    ms: number,
    limit: number,
    side: number,
  ) =>
    `${key} of a ${width}×${height} image would take about ${Math.ceil(ms / 1000)} s on this server; the limit is ${Math.round(limit / 1000)} s (AI_TIMEOUT_MS): give it at most about ${side}×${side} pixels (resize first)`,
  svgTooManyPixels: (pixels: number, max: number) =>
    `The SVG would be rasterised to ${pixels} pixels; the limit for SVG is ${max}`,
  svgTooManyElements: (max: number) =>
    `The SVG has more than ${max} elements, the most this server renders`,
  outputTooLarge: (width: number, height: number, max: number) =>
    `The result would be ${width}×${height} pixels; the limit is ${max} pixels per side`,
  outputTooManyPixels: (pixels: number, max: number) =>
    `The result would have ${pixels} pixels (animation frames summed); the limit is ${max}`,
  outputTooManyBytes: (format: string, bytes: number, max: number) =>
    `The result would be ${bytes} bytes as ${format}; the limit is ${max} bytes (a compressed format such as webp, avif or jpeg is smaller)`,
  unsupportedFormat: (format: string) => `Images in ${format} format cannot be processed`,
  invalidImage: 'The file is not a readable image (unknown format, truncated or corrupt)',
  notBuffer: 'The input must be a Buffer',
  regionOutside: (key: string) => `${key}: the region lies outside the image`,
  emptyRegion: (key: string) => `${key}: the region has no width or height`,
  invalidParam: (key: string, param: string, expected: string) =>
    `${key}: parameter ${param} must be ${expected}`,
  invalidDpr: 'dpr must be a number from 0.1 to 5',
  noSpec: (text: string) =>
    `${text} has no catalogue entry (presets must be expanded before transforming)`,
  notRunnable: (key: string) => `${key} cannot be run by this engine`,
  modelUnavailable: (key: string, reason: string) => `${key} cannot run on this server: ${reason}`,
  missingFile: (id: string) => `t.merge: the image ${id} was not found`,
  loadFailed: (id: string) => `t.merge: the image ${id} could not be loaded`,
  noFileLoader: 't.merge: this engine was not given a way to load other files',
  mergeTooDeep: 't.merge: merges may be nested at most 2 deep',
  mergePattern: (reason: string) => `t.merge: the tr transformation is not valid: ${reason}`,
  timeout: (ms: number) => `The transformation took longer than ${ms} ms`,
  operationFailed: 'The image could not be transformed',
  pdfPageFirst: 'pdf.page must be the first operation of the chain, and appear once',
  pdfPageNotPdf: 'pdf.page applies to PDF files only',
} as const

/**
 * The one error the engine throws. `code` is stable; `cause` holds the underlying sharp/libvips
 * error when there is one (never shown to clients).
 */
export class EngineError extends Error {
  override readonly name = 'EngineError'
  readonly code: EngineErrorCode

  constructor(code: EngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }

  /** Whether the request or the stored file caused the error (the server answers 4xx). */
  get isClientError(): boolean {
    return CLIENT_ERROR_CODES.has(this.code)
  }
}

/** Returns true when `error` is an `EngineError`. */
export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError
}

// libvips loaders prefix their errors with the loader's name; any such error means the bytes
// could not be decoded. Anything else is an engine failure, unless the pipeline finds that the
// input does not decode on its own (see Pipeline).
const DECODE_ERROR =
  /^(vips(jpeg|png|gif|webp|foreign)|[a-z0-9]*load|input (buffer|file)|heif|tiff|webp|gif|png|jpeg|svg|libspng|corrupt|premature|truncated|unsupported image)/i

/** Wraps anything thrown by sharp in an `EngineError`, keeping it as `cause`. */
export function toEngineError(error: unknown, timeoutMs: number): EngineError {
  if (error instanceof EngineError) return error
  const message = error instanceof Error ? error.message : String(error)
  if (/pixel limit/i.test(message)) {
    return new EngineError('too_many_pixels', MESSAGES.pixelLimit, { cause: error })
  }
  if (/too large for the/i.test(message)) {
    return new EngineError('output_too_large', MESSAGES.formatLimit, { cause: error })
  }
  if (/timeout/i.test(message)) {
    return new EngineError('timeout', MESSAGES.timeout(timeoutMs), { cause: error })
  }
  if (DECODE_ERROR.test(message.trim())) {
    return new EngineError('invalid_image', MESSAGES.invalidImage, { cause: error })
  }
  return new EngineError('operation_failed', MESSAGES.operationFailed, { cause: error })
}
