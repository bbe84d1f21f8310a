import { StorageError } from './errors.ts'

/** Longest key accepted, in UTF-8 bytes (the S3 limit). */
export const MAX_KEY_BYTES = 1024
/** Longest path segment accepted, in UTF-8 bytes (the usual file-system name limit). */
export const MAX_SEGMENT_BYTES = 255

/**
 * Names of in-flight writes of the local adapter (`.<name>.<16 hex>.tmp`). Keys may not use them,
 * so a temporary file can never be read, listed or overwritten as an object.
 */
export const TEMP_SEGMENT = /^\..*\.[0-9a-f]{16}\.tmp$/

// Control characters (C0, DEL, C1) and UTF-16 halves without their partner (with the u flag a
// well-formed pair is one code point and does not match).
const FORBIDDEN_CHARACTER = /[\p{Cc}\p{Cs}]/u
const ENCODED_SEPARATOR = /%(?:2f|5c|00)/i
const ENCODED_DOT = /%2e/gi

function keyProblem(key: string): string | undefined {
  if (key === '') return 'it is empty'
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES)
    return `it is longer than ${MAX_KEY_BYTES} bytes`
  if (key.startsWith('/')) return 'it starts with /'
  if (key.includes('\\')) return 'it contains a backslash'
  if (FORBIDDEN_CHARACTER.test(key)) return 'it contains a control character or broken UTF-16'
  if (ENCODED_SEPARATOR.test(key)) return 'it contains an encoded separator (%2f, %5c or %00)'
  for (const segment of key.split('/')) {
    if (segment === '') return 'it has an empty segment'
    const decoded = segment.replace(ENCODED_DOT, '.')
    if (decoded === '.' || decoded === '..') return 'it has a . or .. segment'
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
      return `it has a segment longer than ${MAX_SEGMENT_BYTES} bytes`
    }
    if (TEMP_SEGMENT.test(segment)) return 'it uses a name reserved for temporary files'
  }
  return undefined
}

/** Whether `key` passes {@link assertValidKey}. */
export function isValidKey(key: string): boolean {
  return keyProblem(key) === undefined
}

/**
 * Refuses a storage key that could escape its folder or mean different things to different
 * stores. A key is a `/`-separated relative path such as
 * `orgs/<uuid>/originals/samples/astronaut.png`: not empty, at most 1024 UTF-8 bytes, no leading
 * `/`, no `\`, no control characters, no empty, `.` or `..` segments (also spelt with `%2e`), no
 * `%2f`, `%5c` or `%00`, segments of at most 255 bytes, and no names of the form
 * `.<name>.<16 hex>.tmp` (reserved for in-flight writes).
 *
 * @throws {StorageError} with code `invalid_key`.
 */
export function assertValidKey(key: string): void {
  const problem = typeof key === 'string' ? keyProblem(key) : 'it is not a string'
  if (problem !== undefined) {
    throw new StorageError('invalid_key', `Invalid storage key: ${problem}`, { key: String(key) })
  }
}

/**
 * Refuses a list prefix that no valid key could start with. The empty prefix lists everything; a
 * trailing `/` is allowed (`orgs/<uuid>/`), a partial last segment too (`orgs/<uuid>/der`).
 */
export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return
  const problem =
    typeof prefix === 'string'
      ? keyProblem(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix)
      : 'it is not a string'
  if (problem !== undefined) {
    throw new StorageError('invalid_key', `Invalid storage prefix: ${problem}`, {
      key: String(prefix),
    })
  }
}
