// Page images come from our own delivery, resized per width for srcset (DESIGN §7).
import { joinUrl } from './runtime-config.ts'

/** The widths offered in srcset (720: a 360–412 px wide phone at 1.75–2×). */
export const IMAGE_WIDTHS = [320, 480, 640, 720, 960, 1280] as const

/** A delivery URL of a demo sample resized to `width` (and `height` when given), f_auto. */
export function sampleUrl(
  deliveryUrl: string,
  file: string,
  width: number,
  height?: number,
  extra = '',
): string {
  const size = height === undefined ? `w:${width}` : `w:${width},h:${height}`
  return joinUrl(deliveryUrl, `/v2/demo/t.resize(${size})${extra}/samples/${file}?f_auto=true`)
}

/**
 * `src`, `srcSet` and `sizes` for a sample shown at most `maxWidth` CSS pixels wide. With
 * `naturalWidth` (the sample's own width) no candidate is wider than the sample: the widest is
 * the sample at its own size, not an enlargement.
 */
export function sampleImage(
  deliveryUrl: string,
  file: string,
  options: {
    maxWidth: number
    aspect?: number
    extra?: string
    sizes?: string
    naturalWidth?: number
  },
) {
  const heightFor = (width: number) =>
    options.aspect === undefined ? undefined : Math.round(width / options.aspect)
  const natural = options.naturalWidth ?? Number.POSITIVE_INFINITY
  const widths: number[] = IMAGE_WIDTHS.filter(
    (width) => width <= options.maxWidth * 2 && width < natural,
  )
  if (natural <= options.maxWidth * 2) widths.push(natural)
  return {
    src: sampleUrl(deliveryUrl, file, options.maxWidth, heightFor(options.maxWidth), options.extra),
    srcSet: widths
      .map(
        (width) =>
          `${sampleUrl(deliveryUrl, file, width, heightFor(width), options.extra)} ${width}w`,
      )
      .join(', '),
    sizes: options.sizes ?? `(max-width: 767px) 100vw, ${options.maxWidth}px`,
  }
}

/**
 * A CMS image given as a delivery URL of a demo sample (`…/v2/demo/t.resize(w:…[,h:…])[~more]/
 * samples/…`) gets one URL per srcset width: the resize is redone at each width (a height keeps
 * the original aspect), the rest of the chain is kept, and `f_auto` picks AVIF or WebP unless
 * the chain sets a format. Other URLs are used as they are.
 */
export function cmsImage(url: string, width: number): { src: string; srcSet?: string } {
  const match = /^(.*\/v2\/demo\/)t\.resize\(([^)]*)\)((?:~[^/]*)?)(\/samples\/[^?#]+)$/.exec(url)
  if (match === null) return { src: url }
  const [, head, params = '', rest = '', tail] = match
  const value = (key: string) => Number(new RegExp(`(?:^|,)${key}:(\\d+)`).exec(params)?.[1])
  const aspect = value('w') > 0 && value('h') > 0 ? value('w') / value('h') : undefined
  const query = rest.includes('toFormat(') ? '' : '?f_auto=true'
  const at = (w: number) => {
    const size = aspect === undefined ? `w:${w}` : `w:${w},h:${Math.round(w / aspect)}`
    return `${head}t.resize(${size})${rest}${tail}${query}`
  }
  const widths = IMAGE_WIDTHS.filter((w) => w <= width * 2)
  if (widths.length === 0) return { src: at(width) }
  return { src: at(width), srcSet: widths.map((w) => `${at(w)} ${w}w`).join(', ') }
}
