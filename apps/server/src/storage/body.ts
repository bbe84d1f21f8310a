import { StorageError } from './errors.ts'
import type { PutData } from './types.ts'

/** How far reading a `put` source got, shared by the adapters. */
export interface Intake {
  /** The source as bytes; throws `too_large` as soon as more than `maxBytes` arrived. */
  chunks: AsyncIterable<Uint8Array>
  /** Bytes read so far. */
  size: number
  /** Set when the source itself failed, so `put` can rethrow that error unchanged. */
  sourceFailure: { error: unknown } | undefined
  /** Destroys a Node stream source that `put` will not read to its end. */
  discard(): void
}

/** Whether `data` is already in memory. */
export function isBytes(data: PutData): data is Uint8Array {
  return data instanceof Uint8Array
}

/** The error `put` throws when the data is longer than `maxBytes`. */
export function tooLarge(key: string, maxBytes: number): StorageError {
  return new StorageError('too_large', `Object is larger than the limit of ${maxBytes} bytes`, {
    key,
  })
}

function isNodeStream(data: unknown): data is NodeJS.ReadableStream & {
  destroyed?: boolean
  destroy(): void
} {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { on?: unknown }).on === 'function' &&
    typeof (data as { destroy?: unknown }).destroy === 'function'
  )
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8')
  throw new TypeError(`Expected byte chunks, got ${typeof chunk}`)
}

/** Wraps a streaming `put` source so it is counted, limited, and its own failure is recognised. */
export function intake(
  data: NodeJS.ReadableStream | AsyncIterable<Uint8Array>,
  key: string,
  maxBytes: number | undefined,
): Intake {
  const stream = isNodeStream(data) ? data : undefined
  const state: Intake = {
    chunks: read(),
    size: 0,
    sourceFailure: undefined,
    discard() {
      if (stream !== undefined && !stream.destroyed) stream.destroy()
    },
  }
  // Listen from the start: a stream may fail while put is still creating folders, and an
  // 'error' event nobody listens to would crash the process.
  stream?.on('error', (error: unknown) => {
    state.sourceFailure ??= { error }
  })

  async function* read(): AsyncGenerator<Uint8Array> {
    try {
      // Leaving this loop early (limit passed, writer failed) calls the source's return(), which
      // destroys a Node stream: nothing more is read from it.
      for await (const chunk of data as AsyncIterable<unknown>) {
        const bytes = toBytes(chunk)
        state.size += bytes.byteLength
        if (maxBytes !== undefined && state.size > maxBytes) throw tooLarge(key, maxBytes)
        yield bytes
      }
      // A stream that failed before it was read may look merely finished to the iterator.
      if (state.sourceFailure !== undefined) throw state.sourceFailure.error
    } catch (error) {
      if (!(error instanceof StorageError)) state.sourceFailure ??= { error }
      throw error
    }
  }

  return state
}

/**
 * Chooses what a failed `put` throws: its own `StorageError`s as they are, the source's error
 * unchanged, anything else (the store failed) as `wrap` makes it.
 */
export function putFailure(
  error: unknown,
  state: Intake | undefined,
  wrap: (error: unknown) => StorageError,
): unknown {
  state?.discard()
  if (error instanceof StorageError) return error
  if (state?.sourceFailure !== undefined) return state.sourceFailure.error
  return wrap(error)
}
