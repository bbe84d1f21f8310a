// The fields of a file its owner sets (issue 22): access, tags and metadata, read from a JSON
// body or from multipart text, each checked here so every call refuses the same bad value with a
// 400 that names the field. Nothing is dropped: a field is stored as given or refused.
import { FILE_ACCESS, type FileAccess } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { isWellFormedText } from '../http/text.ts'

/** Most tags one file carries. */
export const MAX_TAGS = 50
/** Longest tag. */
export const MAX_TAG_LENGTH = 100
/** Largest metadata object, as JSON text (UTF-16 code units). */
export const MAX_METADATA_LENGTH = 16_384

const invalid = (field: string, message: string) =>
  new HttpError(400, 'invalid_field', `${field} ${message}`)

/** `public-read` or `private`; undefined when absent. */
export function readAccess(value: unknown, field = 'access'): FileAccess | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value === 'string' && (FILE_ACCESS as readonly string[]).includes(value)) {
    return value as FileAccess
  }
  throw invalid(field, `must be ${FILE_ACCESS.join(' or ')}`)
}

/** One tag: trimmed text of 1 to MAX_TAG_LENGTH characters without control characters. */
function readTag(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(field, 'must be a list of text')
  const tag = value.trim()
  if (tag === '') throw invalid(field, 'must not hold an empty tag')
  if (tag.length > MAX_TAG_LENGTH) {
    throw invalid(field, `must hold tags of at most ${MAX_TAG_LENGTH} characters`)
  }
  if (!isWellFormedText(tag)) throw invalid(field, 'must not contain control characters')
  return tag
}

/** A list of tags (duplicates kept once, in order); undefined when absent. */
export function readTags(value: unknown, field = 'tags'): string[] | undefined {
  if (value === undefined || value === null) return undefined
  if (!Array.isArray(value)) throw invalid(field, 'must be a list of text')
  const tags = [...new Set(value.map((each) => readTag(each, field)))]
  if (tags.length > MAX_TAGS) throw invalid(field, `must hold at most ${MAX_TAGS} tags`)
  return tags
}

/** A JSON object (given as an object, or as JSON text in multipart); undefined when absent. */
export function readMetadata(
  value: unknown,
  field = 'metadata',
): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') return undefined
  let object = value
  if (typeof value === 'string') {
    try {
      object = JSON.parse(value)
    } catch {
      throw invalid(field, 'must be a JSON object')
    }
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw invalid(field, 'must be a JSON object')
  }
  const text = JSON.stringify(object)
  if (text.length > MAX_METADATA_LENGTH) {
    throw invalid(field, `must be at most ${MAX_METADATA_LENGTH} characters as JSON`)
  }
  // PostgreSQL's jsonb cannot hold \u0000 in text; refuse it here rather than fail the insert.
  if (text.includes('\\u0000')) throw invalid(field, 'must not contain \\u0000')
  return object as Record<string, unknown>
}

/** `true`/`false` (or their text, as multipart sends them); `fallback` when absent. */
export function readBoolean(value: unknown, field: string, fallback = false): boolean {
  if (value === undefined || value === null || value === '') return fallback
  if (value === true || value === 'true' || value === '1') return true
  if (value === false || value === 'false' || value === '0') return false
  throw invalid(field, 'must be true or false')
}

/** Refuses any field of `given` that is not in `known`, naming it (nothing is silently dropped). */
export function refuseUnknownFields(given: Iterable<string>, known: ReadonlySet<string>): void {
  for (const field of given) {
    if (!known.has(field)) {
      throw new HttpError(
        400,
        'unknown_field',
        `${JSON.stringify(field.slice(0, 60))} is not a field of this call (known: ${[...known].join(', ')})`,
      )
    }
  }
}
