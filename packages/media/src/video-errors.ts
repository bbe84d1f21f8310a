// The errors of video work, each with a stable code the server turns into an HTTP answer: the
// file or the request is at fault (a 4xx), or the work ran out of time (a 503, worth a retry).

/** What went wrong with a video. */
export type VideoErrorCode =
  /** The bytes are not a video ffprobe can read, or they do not decode (truncated, corrupt). */
  | 'invalid_video'
  /** Longer than `VIDEO_MAX_SECONDS` (the input, or the part a chain would work on). */
  | 'too_long'
  /** A frame of more pixels than `VIDEO_MAX_PIXELS` (the input, or the output a chain asks). */
  | 'too_many_pixels'
  /** The result is over `VIDEO_MAX_OUTPUT_BYTES`. */
  | 'output_too_large'
  /** An operation or parameter video work does not do (the message names it). */
  | 'invalid_operation'
  /** ffmpeg ran past `VIDEO_TIMEOUT_MS` and was stopped. */
  | 'timeout'
  /** ffmpeg failed on input that probed well (our fault or an edge of the codec). */
  | 'failed'

/** An error of video work. */
export class VideoError extends Error {
  readonly code: VideoErrorCode
  constructor(code: VideoErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'VideoError'
    this.code = code
  }
}

/** Whether `error` is a `VideoError`. */
export function isVideoError(error: unknown): error is VideoError {
  return error instanceof VideoError
}
