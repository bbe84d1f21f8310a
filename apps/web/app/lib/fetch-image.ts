// The image fetch of SPEC §4 and §7.2: no credentials, cancellable, and an HTTP 202 (a slow
// operation still running) is retried up to 12 times, waiting 500 ms, then twice as long each time.

export interface FetchImageOptions {
  signal?: AbortSignal
  retries?: number
  minWaitMs?: number
  factor?: number
  fetch?: typeof fetch
  /** Waits between attempts (a test passes one that does not sleep). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

export const IMAGE_FETCH_RETRIES = 12
export const IMAGE_FETCH_MIN_WAIT_MS = 500
export const IMAGE_FETCH_FACTOR = 2

/** A failed image fetch: the status (0 when every attempt said "not ready"). */
export class ImageFetchError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.name = 'ImageFetchError'
    this.status = status
  }
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })

export async function fetchImage(url: string, options: FetchImageOptions = {}): Promise<Blob> {
  const retries = options.retries ?? IMAGE_FETCH_RETRIES
  const factor = options.factor ?? IMAGE_FETCH_FACTOR
  const sleep = options.sleep ?? wait
  const doFetch = options.fetch ?? fetch
  let delay = options.minWaitMs ?? IMAGE_FETCH_MIN_WAIT_MS
  for (let attempt = 0; attempt <= retries; attempt++) {
    const response = await doFetch(url, {
      credentials: 'omit',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    if (response.status === 202) {
      await response.body?.cancel()
      if (attempt === retries) break
      await sleep(delay, options.signal)
      delay *= factor
      continue
    }
    if (!response.ok) {
      throw new ImageFetchError(response.status, `The image answered ${response.status}`)
    }
    return response.blob()
  }
  throw new ImageFetchError(0, 'The image was still being made after every retry')
}
