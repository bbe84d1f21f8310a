// Fetching a transformed image for display (SPEC §4, §7.2, §9): no credentials, cancellable,
// HTTP 202 ("still processing") retried up to 12 times with waits of 500 ms doubling, and an
// answer the browser cannot show (not jpeg, png, webp, avif or tiff) fetched again as png.

import { CodedError } from './coded-error.ts'

/** SPEC §9: retries, factor and minimum wait of the image fetch. */
export const IMAGE_FETCH_RETRIES = 12
export const IMAGE_FETCH_FACTOR = 2
export const IMAGE_FETCH_MIN_WAIT_MS = 500

/** Image types shown as they come (SPEC §4). */
export const DISPLAYABLE_TYPES = ['jpeg', 'png', 'webp', 'avif', 'tiff'] as const

export type ImageFetchEvent =
  | { type: 'processing'; attempt: number; waitMs: number }
  | { type: 'png_retry'; contentType: string; url: string }

export interface FetchedImage {
  blob: Blob
  /** The URL that answered (with `~t.toFormat(f:png)` after a png retry). */
  url: string
  contentType: string
  /** How many 202 answers came before the image. */
  retries: number
}

/** A failed fetch; `status` is the HTTP status (0 when no answer), `code`/`message` the body's. */
export class ImageFetchError extends CodedError {
  override name = 'ImageFetchError'
}

/** The wait before retry `attempt` (1-based): 500, 1000, 2000 … ms. */
export function retryWait(attempt: number): number {
  return IMAGE_FETCH_MIN_WAIT_MS * IMAGE_FETCH_FACTOR ** (attempt - 1)
}

/** Videos every browser plays in a `<video>` (other containers are asked as a png still). */
export const PLAYABLE_VIDEO_TYPES = ['mp4', 'webm'] as const

/** Whether a content type is a video the page plays as it is. */
export function isPlayableVideo(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  return PLAYABLE_VIDEO_TYPES.some((name) => type === `video/${name}`)
}

/** Whether a content type is one the page shows as it is (an image, or a playable video). */
export function isDisplayable(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  return DISPLAYABLE_TYPES.some((name) => type === `image/${name}`) || isPlayableVideo(type)
}

/**
 * The same delivery URL converting to png: `~t.toFormat(f:png)` goes at the end of the chain
 * (`original` becomes the conversion itself); the query is kept.
 */
export function asPngUrl(url: string): string {
  const parsed = new URL(url)
  const match = /^(\/v[12]\/[^/]+\/)([^/]+)(\/.+)$/.exec(parsed.pathname)
  if (match === null) return url
  const [, head = '', pattern = '', tail = ''] = match
  const toPng = 't.toFormat(f:png)'
  const next = pattern === 'original' ? toPng : `${pattern}~${toPng}`
  parsed.pathname = `${head}${next}${tail}`
  // f_auto would pick another format again.
  parsed.searchParams.delete('f_auto')
  return parsed.href
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason)
      return
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

async function errorOf(response: Response): Promise<ImageFetchError> {
  const text = await response.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown }
    if (typeof body.message === 'string') {
      return new ImageFetchError(
        response.status,
        typeof body.code === 'string' ? body.code : 'http_error',
        body.message,
      )
    }
  } catch {
    // Not JSON: an SVG error image or text; the status says enough.
  }
  return new ImageFetchError(
    response.status,
    'http_error',
    `The image answered ${response.status} ${response.statusText}`.trim(),
  )
}

export interface ImageFetchOptions {
  signal?: AbortSignal
  onEvent?: (event: ImageFetchEvent) => void
  fetch?: typeof fetch
  /** Waits between 202 retries; the SPEC's 500 ms × 2ⁿ unless a test shortens them. */
  wait?: (attempt: number) => number
}

/** Fetches `url` as a blob by the rules above; rejects with `ImageFetchError` or the abort. */
export async function fetchImage(
  url: string,
  options: ImageFetchOptions = {},
): Promise<FetchedImage> {
  const doFetch = options.fetch ?? fetch
  const waitFor = options.wait ?? retryWait
  let target = url
  let convertedToPng = false
  let retries = 0
  for (;;) {
    const response = await doFetch(target, {
      credentials: 'omit',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    if (response.status === 202) {
      await response.body?.cancel().catch(() => undefined)
      if (retries >= IMAGE_FETCH_RETRIES) {
        throw new ImageFetchError(
          202,
          'still_processing',
          `The image was still processing after ${IMAGE_FETCH_RETRIES} retries`,
        )
      }
      retries += 1
      const waitMs = waitFor(retries)
      options.onEvent?.({ type: 'processing', attempt: retries, waitMs })
      await sleep(waitMs, options.signal)
      continue
    }
    if (!response.ok) throw await errorOf(response)
    const contentType = response.headers.get('content-type') ?? ''
    if (!isDisplayable(contentType) && !convertedToPng) {
      await response.body?.cancel().catch(() => undefined)
      convertedToPng = true
      target = asPngUrl(target)
      options.onEvent?.({ type: 'png_retry', contentType, url: target })
      continue
    }
    return { blob: await response.blob(), url: target, contentType, retries }
  }
}

/** Pixel size of an image blob, read by the browser. */
export async function imageSize(blob: Blob): Promise<{ width: number; height: number }> {
  const bitmap = await createImageBitmap(blob)
  const size = { width: bitmap.width, height: bitmap.height }
  bitmap.close()
  return size
}

/** The format named by a content type (`image/jpeg` → `jpeg`, `video/mp4` → `mp4`). */
export function formatOf(contentType: string): string {
  return (contentType.split(';')[0]?.trim().toLowerCase() ?? '').replace(/^(image|video)\//, '')
}

/** Frame size of a video blob, read by the browser from its metadata. */
export function videoSize(blob: Blob): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const video = document.createElement('video')
    const src = URL.createObjectURL(blob)
    const done = () => URL.revokeObjectURL(src)
    video.preload = 'metadata'
    video.onloadedmetadata = () => {
      done()
      resolve({ width: video.videoWidth, height: video.videoHeight })
    }
    video.onerror = () => {
      done()
      reject(new Error('The video could not be read'))
    }
    video.src = src
  })
}
