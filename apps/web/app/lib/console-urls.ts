// Delivery URLs as the console shows them (SPEC §7.3): a file's URL with another pattern in
// place of `original`, presets as `p:name`, and the ways to copy a URL (URL, cURL, code).
import { PANEL_API_PATHS } from '@tessera/url'

/** The file's delivery URL with `pattern` (a transformation, or `original`) in its place. */
export function withPattern(originalUrl: string, pattern: string): string {
  const at = originalUrl.indexOf('/original/')
  if (at === -1) return originalUrl
  const clean = pattern.trim() === '' ? 'original' : pattern.trim()
  return `${originalUrl.slice(0, at)}/${clean}/${originalUrl.slice(at + '/original/'.length)}`
}

/** Where the console's previews are served, by the member's session (no URL signature). */
export const PREVIEW_PATH = `${PANEL_API_PATHS.transformation}/preview`

/**
 * A small square thumbnail of an image file, made by delivery and fetched through the session's
 * preview path: an organisation that requires signed URLs still sees its own thumbnails (issue
 * 24 item 5; docs/decisions/021). The console and its API share an origin (the session cookie).
 */
export function thumbnailUrl(originalUrl: string, size = 320): string {
  const url = withPattern(originalUrl, `t.resize(w:${size},h:${size})`)
  return `${PREVIEW_PATH}?url=${encodeURIComponent(url)}`
}

/**
 * A still of a video's first frame, as a JPEG thumbnail (delivery makes stills at once), through
 * the session's preview path like the images' thumbnails.
 */
export function videoThumbnailUrl(originalUrl: string, size = 320): string {
  const url = withPattern(originalUrl, `t.resize(w:${size},h:${size})~t.toFormat(f:jpeg)`)
  return `${PREVIEW_PATH}?url=${encodeURIComponent(url)}`
}

/** A length in seconds as `m:ss`, or `h:mm:ss` from an hour. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = String(total % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/** How a preset is written in a URL, with its variables' defaults spelled out when asked. */
export function presetPattern(name: string, values: Record<string, string> = {}): string {
  const pairs = Object.entries(values).filter(([, value]) => value !== '')
  if (pairs.length === 0) return `p:${name}`
  return `p:${name}(${pairs.map(([key, value]) => `${key}:${value}`).join(',')})`
}

export type CopyFormat = 'url' | 'curl' | 'html' | 'js'

/** The text each copy button copies. */
export function copyText(url: string, format: CopyFormat, fileName: string): string {
  switch (format) {
    case 'url':
      return url
    case 'curl':
      return `curl -o '${fileName.replaceAll("'", "'\\''")}' '${url.replaceAll("'", "'\\''")}'`
    case 'html':
      return `<img src="${url.replaceAll('"', '&quot;')}" alt="" loading="lazy">`
    case 'js':
      return [
        `const response = await fetch(${JSON.stringify(url)})`,
        "if (!response.ok) throw new Error('Delivery answered ' + response.status)",
        'const image = await response.blob()',
      ].join('\n')
  }
}

/** The folder a full path sits in ('' at the top level). */
export function parentOf(fullPath: string): string {
  const at = fullPath.lastIndexOf('/')
  return at === -1 ? '' : fullPath.slice(0, at)
}

/** Breadcrumbs of a folder path: the top level, then each folder down to it. */
export function crumbs(path: string): { name: string; path: string }[] {
  const parts = path.split('/').filter((part) => part !== '')
  return [
    { name: 'All files', path: '' },
    ...parts.map((name, index) => ({ name, path: parts.slice(0, index + 1).join('/') })),
  ]
}

/** Folder paths as the API writes them: no leading, trailing or doubled slashes. */
export function normalisePath(path: string): string {
  return path
    .split('/')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join('/')
}
