/**
 * What went wrong in storage, stable across adapters. HTTP status is chosen at the server edge
 * from `code`, never here.
 *
 * - `invalid_key`: the key breaks the key rules, or resolves outside the storage root
 * - `too_large`: the data is longer than the `maxBytes` given to `put`
 * - `not_reachable`: the store cannot be used at all (root missing or read-only, S3 endpoint
 *   down, bucket missing, credentials refused)
 * - `io_error`: one operation failed for another reason
 */
export type StorageErrorCode = 'invalid_key' | 'too_large' | 'not_reachable' | 'io_error'

/**
 * Thrown by every storage operation. `cause` keeps the underlying error; the message never holds
 * file-system paths outside the key, endpoints or credentials.
 */
export class StorageError extends Error {
  readonly code: StorageErrorCode
  /** The key (or list prefix) the failing operation was about, when there was one. */
  readonly key: string | undefined

  constructor(
    code: StorageErrorCode,
    message: string,
    options: { key?: string | undefined; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.key = options.key
    this.name = 'StorageError'
  }
}

/** The `code` of a Node system error or an AWS SDK error (`ENOENT`, `ECONNREFUSED`, …). */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}
