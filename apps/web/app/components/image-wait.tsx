// What a fetched image (`useFetchedImage`) shows while delivery's job still runs or after the
// visitor cancelled the wait: the AI tool pages' result and the playground's preview alike.
import { IMAGE_FETCH_RETRIES } from '../lib/image-fetch.ts'
import type { useFetchedImage } from './use-fetched-image.ts'

/**
 * Processing (which check of `IMAGE_FETCH_RETRIES`, with Cancel) or cancelled (with `retry`, the
 * button that fetches again); nothing in any other state. `working` says who is at it.
 */
export function ImageWait({
  image,
  className,
  working,
  retry,
}: {
  image: ReturnType<typeof useFetchedImage>
  className: string
  working: string
  retry: string
}) {
  const { state } = image
  if (state.status === 'processing') {
    return (
      <div className={className} role="status" data-testid="processing">
        <p>
          Processing: {working} (check {state.attempt} of {IMAGE_FETCH_RETRIES}).
        </p>
        <button type="button" className="button is-secondary is-small" onClick={image.cancel}>
          Cancel
        </button>
      </div>
    )
  }
  if (state.status === 'cancelled') {
    return (
      <div className={className} role="status">
        <p>Cancelled.</p>
        <button type="button" className="button is-secondary is-small" onClick={image.retry}>
          {retry}
        </button>
      </div>
    )
  }
  return null
}
