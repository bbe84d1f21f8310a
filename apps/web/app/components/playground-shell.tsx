// What the server renders for the visitor playground (`/playground`, client-only by SPEC §2.1)
// while the playground itself loads, and the default sample's image both show. Kept apart from
// playground.tsx so the page's first scripts do not carry the playground.
import { type Ref, useEffect, useRef } from 'react'
import { useConfig } from '../lib/app-context.tsx'
import { sampleImage } from '../lib/images.ts'
import { PLAYGROUND_DEFAULT_SAMPLE, PLAYGROUND_DEFAULT_SAMPLE_SIZE } from '../lib/playground-api.ts'
import '../styles/sample-thumbs.css'
import './playground/playground.css'
import './playground/playground-panels.css'

/**
 * What the server renders for the visitor playground while its client-only part loads: the same
 * two columns, with the default sample already in the stage where the playground will show it.
 * The page's largest image is then in the HTML (fetched at once, high priority, resized for the
 * screen) instead of after hydration; the playground replaces the whole shell when it mounts.
 * `sample` is false for a shared `?url=`, which opens on an image of its own.
 */
export function PlaygroundShell({
  sample,
  onSettled,
}: {
  sample: boolean
  /** Called once the sample has loaded or failed (at once without one): the page can move on. */
  onSettled?: () => void
}) {
  const image = useRef<HTMLImageElement>(null)
  useEffect(() => {
    if (onSettled === undefined) return
    const img = image.current
    if (img === null || img.complete) {
      onSettled()
      return
    }
    img.addEventListener('load', onSettled)
    img.addEventListener('error', onSettled)
    return () => {
      img.removeEventListener('load', onSettled)
      img.removeEventListener('error', onSettled)
    }
  }, [onSettled])
  return (
    <div className="pg" aria-busy="true" data-testid="playground-shell">
      <div className="pg-side">
        <div className="pg-panel">
          <p className="pg-wait" role="status">
            Loading the playground…
          </p>
        </div>
      </div>
      <div className="pg-main">
        <div className="pg-tabs-space" />
        <div className="pg-stage">
          {sample ? (
            <DefaultSampleImage ref={image} />
          ) : (
            <p className="pg-wait">Loading the image…</p>
          )}
        </div>
      </div>
    </div>
  )
}

/**
 * The default sample as the shell shows it (resized for the screen, high priority); the
 * playground keeps showing it while it fetches the original, so nothing flickers or moves.
 */
export function DefaultSampleImage({ ref }: { ref?: Ref<HTMLImageElement> }) {
  const config = useConfig()
  const { width, height } = PLAYGROUND_DEFAULT_SAMPLE_SIZE
  const image = sampleImage(config.deliveryUrl, PLAYGROUND_DEFAULT_SAMPLE, {
    maxWidth: width,
    aspect: width / height,
    naturalWidth: width,
    // The stage's width below 1024 px (page and stage padding), at most 70vh tall beyond.
    sizes: `(max-width: 1023px) calc(100vw - 64px), ${width}px`,
  })
  return (
    <img
      ref={ref}
      className="pg-image"
      src={image.src}
      srcSet={image.srcSet}
      sizes={image.sizes}
      alt={`The sample ${PLAYGROUND_DEFAULT_SAMPLE}`}
      width={width}
      height={height}
      // Its width before it has loaded too (the class sets `width: auto` for the fetched images),
      // so it does not grow in place and shift.
      style={{ width }}
      fetchPriority="high"
    />
  )
}
