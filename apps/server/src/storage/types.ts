import type { Readable } from 'node:stream'

/** What `stat` knows about an object. */
export interface StoredObject {
  /** Length in bytes. */
  size: number
  /** Last write time. */
  modified: Date
  /** The store's entity tag, quoted as the store sends it (S3 only). */
  etag?: string
}

/** Inclusive byte range, already validated against the object size by the caller. */
export interface ByteRange {
  start: number
  end: number
}

/** What `put` accepts: bytes, a Node stream, or any async iterable of bytes. */
export type PutData = Buffer | Uint8Array | NodeJS.ReadableStream | AsyncIterable<Uint8Array>

/** Options of `put`. */
export interface PutOptions {
  /** MIME type stored with the object where the store keeps one (S3). */
  contentType?: string
  /** Refuse data longer than this with `too_large`; the source is read at most one chunk past it. */
  maxBytes?: number
}

/**
 * Where originals and derived images live. Every method validates its key with
 * `assertValidKey` and throws only `StorageError`, except `put`, which rethrows an error of its
 * own `data` source unchanged (the caller owns that stream and knows what its failure means).
 */
export interface Storage {
  readonly kind: 'local' | 's3'
  /**
   * Stores `data` under `key`, replacing any object there. Writes atomically: readers see the old
   * object or the whole new one, never a partial file; on any failure the old object stays.
   * A Node stream is read to its end on success and destroyed on failure.
   */
  put(key: string, data: PutData, options?: PutOptions): Promise<{ size: number }>
  /** The whole object, or `undefined` when there is none. */
  get(key: string): Promise<Buffer | undefined>
  /**
   * A stream of the object (or of `range` of it) and the full object size, or `undefined` when
   * there is none.
   */
  stream(key: string, range?: ByteRange): Promise<{ body: Readable; size: number } | undefined>
  /** Size and time of the object, or `undefined` when there is none. */
  stat(key: string): Promise<StoredObject | undefined>
  /** Removes the object; a missing one is fine. */
  delete(key: string): Promise<void>
  /** Every key starting with `prefix` (a plain string prefix, as in S3), in no promised order. */
  list(prefix: string): AsyncIterable<string>
  /** Resolves when the store is reachable and writable; throws `not_reachable` otherwise. */
  check(): Promise<void>
  /**
   * Deletes the temporary files of writes that never finished (a crash, a kill -9) last changed
   * before `olderThan`; answers how many went. A store whose writes leave nothing behind answers 0.
   */
  removeStaleTemporaries(olderThan: Date): Promise<number>
}
