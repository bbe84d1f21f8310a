// The one way a CMS or catalogue image is shown: `src` at the displayed width, and `srcSet` with
// `sizes` when the delivery URL can be resized per width (lib/images.ts, DESIGN §7).
import { cmsImage } from '../lib/images.ts'

/** What a card image is shown at on narrow screens and beyond (every grid card is 400px). */
export const CARD_SIZES = '(max-width: 767px) 100vw, 400px'

export interface ResponsiveImageProps {
  /** The image's URL as the CMS or the catalogue gives it. */
  url: string
  /** Displayed width in CSS pixels; also the width `src` is resized to. */
  width: number
  height: number
  className: string
  sizes: string
  alt?: string
  loading?: 'eager' | 'lazy'
  fetchPriority?: 'high'
  decoding?: 'async'
}

/** `cmsImage` per URL and width: a page shows the same few images on every render. */
const known = new Map<string, ReturnType<typeof cmsImage>>()
const KNOWN_MAX = 500

function cachedImage(url: string, width: number): ReturnType<typeof cmsImage> {
  const key = `${width} ${url}`
  let image = known.get(key)
  if (image === undefined) {
    image = cmsImage(url, width)
    // Bounded: past the limit the oldest is forgotten (URLs come from the CMS, a few hundred).
    if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value ?? '')
    known.set(key, image)
  }
  return image
}

export function ResponsiveImage({
  url,
  width,
  height,
  className,
  sizes,
  alt = '',
  loading,
  fetchPriority,
  decoding,
}: ResponsiveImageProps) {
  const image = cachedImage(url, width)
  // Props in the order the attributes are written, so the markup is the same as it always was.
  return (
    <img
      className={className}
      src={image.src}
      {...(image.srcSet === undefined ? {} : { srcSet: image.srcSet, sizes })}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      fetchPriority={fetchPriority}
      decoding={decoding}
    />
  )
}
