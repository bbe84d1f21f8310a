// A delivery URL fetched for display by the rules of lib/image-fetch.ts, with its state
// (loading, processing with the retry count, ready with details, failed) and a cancel.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { ImageDetails } from '../components/playground/playground-state.ts'
import {
  fetchImage,
  formatOf,
  ImageFetchError,
  type ImageFetchOptions,
  imageSize,
  isPlayableVideo,
  videoSize,
} from '../lib/image-fetch.ts'

export type FetchedImageState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'processing'; attempt: number }
  | { status: 'ready'; src: string; details: ImageDetails; retries: number; url: string }
  | { status: 'failed'; status_code: number; code: string; message: string; wasProcessing: boolean }
  | { status: 'cancelled' }

export interface FetchHooks {
  /** Turns the URL into the one to fetch (a visitor's AI chain gets signed); may reject. */
  prepare?: (url: string) => Promise<string>
  onStart?: (url: string) => void
  onReady?: (state: Extract<FetchedImageState, { status: 'ready' }>) => void
  onFailed?: (state: Extract<FetchedImageState, { status: 'failed' }>) => void
  wait?: ImageFetchOptions['wait']
}

/** How many results' object URLs a hook keeps alive (the rest are revoked: memory is bounded). */
const KEPT_OBJECT_URLS = 4

export function useFetchedImage(url: string | null, hooks: FetchHooks = {}) {
  const [state, setState] = useState<FetchedImageState>({ status: 'idle' })
  const controller = useRef<AbortController | null>(null)
  const hooksRef = useRef(hooks)
  hooksRef.current = hooks
  const [attempt, setAttempt] = useState(0)
  // Object URLs of the last few results: pages keep showing a recent one (the Transformed tab,
  // a comparison) after a newer fetch starts, so each is revoked only once it is old.
  const objectUrls = useRef<string[]>([])
  useEffect(
    () => () => {
      for (const objectUrl of objectUrls.current) URL.revokeObjectURL(objectUrl)
      objectUrls.current = []
    },
    [],
  )

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs a cancelled fetch
  useEffect(() => {
    if (url === null || url === '') {
      setState({ status: 'idle' })
      return
    }
    const abort = new AbortController()
    controller.current = abort
    let processing = false
    setState({ status: 'loading' })
    const run = async () => {
      const current = hooksRef.current
      try {
        const target = current.prepare === undefined ? url : await current.prepare(url)
        current.onStart?.(target)
        const image = await fetchImage(target, {
          signal: abort.signal,
          ...(current.wait === undefined ? {} : { wait: current.wait }),
          onEvent: (event) => {
            if (event.type === 'processing') {
              processing = true
              setState({ status: 'processing', attempt: event.attempt })
            }
          },
        })
        const measure = isPlayableVideo(image.contentType) ? videoSize : imageSize
        const size = await measure(image.blob).catch(() => ({ width: 0, height: 0 }))
        if (abort.signal.aborted) return
        const objectUrl = URL.createObjectURL(image.blob)
        objectUrls.current.push(objectUrl)
        while (objectUrls.current.length > KEPT_OBJECT_URLS) {
          URL.revokeObjectURL(objectUrls.current.shift() as string)
        }
        const ready = {
          status: 'ready' as const,
          src: objectUrl,
          url: image.url,
          retries: image.retries,
          details: {
            ...size,
            format: formatOf(image.contentType),
            bytes: image.blob.size,
          },
        }
        setState(ready)
        hooksRef.current.onReady?.(ready)
      } catch (error) {
        if (abort.signal.aborted) return
        const failure = {
          status: 'failed' as const,
          status_code: error instanceof ImageFetchError ? error.status : statusOf(error),
          code: error instanceof ImageFetchError ? error.code : codeOf(error),
          message: error instanceof Error ? error.message : String(error),
          wasProcessing: processing,
        }
        setState(failure)
        hooksRef.current.onFailed?.(failure)
      }
    }
    void run()
    return () => {
      abort.abort(new DOMException('Replaced by a newer image', 'AbortError'))
    }
  }, [url, attempt])

  const cancel = useCallback(() => {
    controller.current?.abort(new DOMException('Cancelled', 'AbortError'))
    setState({ status: 'cancelled' })
  }, [])
  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, cancel, retry }
}

function statusOf(error: unknown): number {
  const status = (error as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : 0
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : 'network_error'
}
