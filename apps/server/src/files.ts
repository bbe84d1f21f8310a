// Rules for the paths and contents of stored files: what a user may name a file, and what the
// bytes really are (the client's content type is never trusted).
import { fileTypeFromBuffer } from 'file-type'
import { HttpError } from './http-error.ts'

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
}

// An SVG is served to browsers: anything that can run script or pull other resources is refused.
const UNSAFE_SVG =
  /<script\b|<foreignObject\b|\bon[a-z]+\s*=|javascript:|<!ENTITY|<iframe\b|<embed\b|<object\b|(?:xlink:)?href\s*=\s*["']\s*(?:https?:|\/\/|data:text)/i

function looksLikeSvg(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '').trimStart()
  return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text)
}

const FORMAT_NAMES: Record<string, string> = { jpg: 'jpeg', tif: 'tiff', heic: 'heif' }

/**
 * Finds the type of a file from its bytes. SVG is recognised from its markup and refused when it
 * holds scripts, event handlers or external references.
 *
 * @throws {HttpError} 415 `unsupported_type` for bytes of no known type, 400 `unsafe_svg`.
 */
export async function sniffType(data: Uint8Array): Promise<SniffedType> {
  const detected = await fileTypeFromBuffer(data)
  if (detected !== undefined && detected.ext !== 'xml') {
    const format = FORMAT_NAMES[detected.ext] ?? detected.ext
    return { format, contentType: detected.mime, isImage: detected.mime.startsWith('image/') }
  }
  const head = Buffer.from(data.subarray(0, 4096)).toString('utf8')
  if (looksLikeSvg(head)) {
    const text = Buffer.from(data).toString('utf8')
    if (UNSAFE_SVG.test(text)) {
      throw new HttpError(
        400,
        'unsafe_svg',
        'SVG files with scripts, event handlers or external references are not accepted',
      )
    }
    return { format: 'svg', contentType: 'image/svg+xml', isImage: true }
  }
  throw new HttpError(415, 'unsupported_type', 'The file is not of a type this service stores')
}
