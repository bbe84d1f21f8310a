// Rules for the paths and contents of stored files: what a user may name a file, and what the
// bytes really are (the client's content type is never trusted).
import { fileTypeFromBuffer, supportedExtensions } from 'file-type'
import { HttpError } from '../http/errors.ts'
import { assertSafeSvg, UnsafeSvgError } from './svg-safety.ts'

const MAX_PATH_LENGTH = 1024
const MAX_SEGMENT_LENGTH = 255
// Letters (any script), digits, and a few punctuation marks people use in file names.
const SEGMENT = /^[\p{L}\p{N}][\p{L}\p{N} ._()@+-]*$/u

/**
 * Checks a file path such as `samples/astronaut.png` (folders joined by `/`): no empty, `.`
 * or `..` segment, no backslash, no control character, no percent-encoded separator.
 *
 * @throws {HttpError} 400 `invalid_path`.
 */
export function assertValidFilePath(path: string): void {
  const fail = (why: string): never => {
    throw new HttpError(400, 'invalid_path', `Invalid file path: ${why}`)
  }
  if (path.length === 0) fail('it is empty')
  if (path.length > MAX_PATH_LENGTH) fail(`it is longer than ${MAX_PATH_LENGTH} characters`)
  if (path.includes('\\')) fail('backslashes are not allowed')
  if (/%(2e|2f|5c|00)/i.test(path)) fail('percent-encoded dots and separators are not allowed')
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..') fail("'.' and '..' are not allowed")
    if (segment.length === 0) fail('a folder name is empty')
    if (segment.length > MAX_SEGMENT_LENGTH)
      fail(`a name is longer than ${MAX_SEGMENT_LENGTH} characters`)
    if (!SEGMENT.test(segment)) {
      fail(`'${segment.slice(0, 40)}' may use letters, digits, spaces and . _ ( ) @ + - only`)
    }
  }
}

/** What the bytes of a file are. */
export interface SniffedType {
  /** Lower-case format name, as used in delivery (`png`, `jpeg`, `webp`, `svg`, `pdf`, …). */
  format: string
  contentType: string
  isImage: boolean
  /** A video of SPEC §9 (mp4, mov, mkv, webm, avi, mpg): stored by every organisation. */
  isVideo?: boolean
}

function looksLikeSvg(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '').trimStart()
  return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text)
}

/** Other names of one format (file-type's extensions and what people name files). */
const FORMAT_NAMES: Record<string, string> = {
  jpg: 'jpeg',
  jpe: 'jpeg',
  jfif: 'jpeg',
  tif: 'tiff',
  heic: 'heif',
  apng: 'png',
  mpeg: 'mpg',
  m4v: 'mp4',
}

// The types browsers and players know videos by (file-type names some differently).
const VIDEO_CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
  mpg: 'video/mpeg',
}

/**
 * The image formats of SPEC §9 (webp, jpg/jpeg, png, heif/heic, avif, svg, gif, ico, bmp,
 * tiff/tif), by format name: what every organisation may upload. Anything else is a raw file,
 * stored only where the organisation allows raw files and always delivered as an attachment.
 */
export const IMAGE_FORMATS: ReadonlySet<string> = new Set([
  'webp',
  'jpeg',
  'png',
  'heif',
  'avif',
  'svg',
  'gif',
  'ico',
  'bmp',
  'tiff',
])

/**
 * Formats beyond the images that every organisation may upload too, as SPEC §9 counts them
 * transformable: a PDF (its pages delivered as images) and plain text (delivered as is).
 */
export const DOCUMENT_FORMATS: ReadonlySet<string> = new Set(['pdf', 'txt'])

/** A `.txt` file whose bytes are plain UTF-8 text. */
export const TEXT_TYPE: SniffedType = {
  format: 'txt',
  contentType: 'text/plain; charset=utf-8',
  isImage: false,
}

/**
 * Whether bytes are plain text: valid UTF-8 with no control characters but tab, line feed, form
 * feed and carriage return (so no NUL, which every binary format is full of).
 */
export function isPlainText(data: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data)
  } catch {
    return false
  }
  for (const byte of data) {
    if (
      (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) ||
      byte === 0x7f
    ) {
      return false
    }
  }
  return true
}

// Whether a stored file's format is an image format lives with the URL language (@tessera/url),
// where delivery reads it without importing this feature.
export { isImageFormat } from '@tessera/url'

/** Bytes of no type we recognise, kept as SPEC §9's default where raw files are allowed. */
export const UNKNOWN_TYPE: SniffedType = {
  format: 'bin',
  contentType: 'application/octet-stream',
  isImage: false,
}

// Extensions whose bytes can be recognised, so a name using one makes a claim we can check. XML
// is left out: XML that is not SVG is unknown bytes, and a `.xml` name says nothing about them.
const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set(
  [...supportedExtensions, 'svg', 'jpeg', 'jpe', 'jfif', 'tiff', 'heif', 'txt', 'mpeg'].filter(
    (extension) => extension !== 'xml',
  ),
)

/** The lower-case extension of a file name (`a.tar.gz` → `gz`), or undefined when it has none. */
export function extensionOf(fileName: string): string | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const dot = base.lastIndexOf('.')
  return dot > 0 && dot < base.length - 1 ? base.slice(dot + 1).toLowerCase() : undefined
}

/**
 * Refuses a file name whose extension names a format the bytes are not (`photo.png` on an
 * executable). Extensions we cannot check against bytes (`.txt`, `.final`) pass.
 *
 * @throws {HttpError} 415 `extension_mismatch`.
 */
export function assertExtensionMatches(fileName: string, type: SniffedType): void {
  const extension = extensionOf(fileName)
  if (extension === undefined || !KNOWN_EXTENSIONS.has(extension)) return
  const claimed = FORMAT_NAMES[extension] ?? extension
  if (claimed === type.format) return
  const found = type.format === UNKNOWN_TYPE.format ? 'of no known type' : type.format
  throw new HttpError(
    415,
    'extension_mismatch',
    `The file is named .${extension.slice(0, 16)} but its bytes are ${found}`,
  )
}

/**
 * Finds the type of a file from its bytes. SVG is recognised from its markup and refused when it
 * holds scripts, event handlers or external references.
 *
 * A file named `.txt` whose bytes are plain text (`isPlainText`) is text.
 *
 * @throws {HttpError} 415 `unsupported_type` for bytes of no known type, 400 `unsafe_svg`.
 */
export async function sniffType(data: Uint8Array, fileName?: string): Promise<SniffedType> {
  const detected = await fileTypeFromBuffer(data)
  if (detected !== undefined && detected.ext !== 'xml') {
    const format = FORMAT_NAMES[detected.ext] ?? detected.ext
    const video = VIDEO_CONTENT_TYPES[format]
    if (video !== undefined) return { format, contentType: video, isImage: false, isVideo: true }
    const contentType = format === 'png' ? 'image/png' : detected.mime
    return { format, contentType, isImage: IMAGE_FORMATS.has(format) }
  }
  const head = Buffer.from(data.subarray(0, 4096)).toString('utf8')
  if (looksLikeSvg(head)) {
    // An SVG is served to browsers and rendered by librsvg: anything off the allow-list of
    // svg-safety.ts (script, external references, CSS imports, entities) is refused.
    try {
      assertSafeSvg(Buffer.from(data).toString('utf8'))
    } catch (error) {
      if (!(error instanceof UnsafeSvgError)) throw error
      throw new HttpError(400, 'unsafe_svg', `This SVG is not accepted: ${error.message}`)
    }
    return { format: 'svg', contentType: 'image/svg+xml', isImage: true }
  }
  // Text has no signature: only a file named .txt is taken for text, when its bytes are.
  if (fileName !== undefined && extensionOf(fileName) === 'txt' && isPlainText(data)) {
    return TEXT_TYPE
  }
  throw new HttpError(415, 'unsupported_type', 'The file is not of a type this service stores')
}
