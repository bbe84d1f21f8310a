// Whether a playground chain makes a video (issue 23; docs/delivery.md#video): such a chain costs
// credits like an AI one, so it runs signed where strict transformations ask it. The server
// decides the same way (apps/server/src/delivery/video.ts); this is the page's reading of it.

const VIDEOS: ReadonlySet<string> = new Set(['mp4', 'mov', 'mkv', 'webm', 'avi', 'mpg', 'mpeg'])
const STILLS: ReadonlySet<string> = new Set([
  'jpeg',
  'jpg',
  'png',
  'webp',
  'avif',
  'tiff',
  'bmp',
  'heif',
])

/** One operation of a chain as the playground holds it. */
export interface ChainStep {
  plugin: string
  method: string
  values: Record<string, string>
  isPreset?: boolean
}

/** The format the chain's last `t.toFormat` writes, if any. */
function askedFormat(items: readonly ChainStep[]): string | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]
    if (item?.plugin === 't' && item.method === 'toFormat' && item.values.f !== undefined) {
      return item.values.f.toLowerCase()
    }
  }
  return undefined
}

/**
 * Whether `items` on a file of `format` make a video: a chain on a video that is not a still
 * (`vid.frame`, or an image `t.toFormat`), or a GIF/WebP asked as MP4/WebM.
 */
export function chainMakesVideo(format: string, items: readonly ChainStep[]): boolean {
  const source = format.toLowerCase()
  const asked = askedFormat(items)
  if (VIDEOS.has(source)) {
    if (items.length === 0) return false
    const still =
      items.some((item) => item.plugin === 'vid' && item.method === 'frame') ||
      (asked !== undefined && STILLS.has(asked))
    return !still
  }
  return (source === 'gif' || source === 'webp') && (asked === 'mp4' || asked === 'webm')
}
