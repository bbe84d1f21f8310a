// Query-string validation for the public APIs. Every parameter is checked before any lookup:
// too long, repeated, containing control characters or out of range → 400 `invalid_query`.
// Free-text filters (tags, search text) accept any other characters and are only ever compared
// as values, so text that looks like SQL or a pattern simply matches nothing.
import { z } from 'zod'
import { HttpError } from './errors.ts'
import { isWellFormedText } from './text.ts'

/** Longest value any query parameter may have. */
export const MAX_QUERY_VALUE_LENGTH = 256
/** Most parameters one request may carry. */
export const MAX_QUERY_PARAMS = 50

/** The 400 answer of a query parameter the server cannot use. */
export function invalidQuery(message: string): HttpError {
  return new HttpError(400, 'invalid_query', message)
}

/** A value quoted for a message, cut at 40 characters. */
export function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
}

/** The parameters of a request URL by name, in order, after the checks every value gets. */
export type QueryParams = ReadonlyMap<string, readonly string[]>

/**
 * Reads the query string of `url`. Refuses more than `MAX_QUERY_PARAMS` parameters, and any
 * name or value longer than `maxLength` (a folder path needs more room than a tag) or breaking
 * the text rule (`http/text.ts`).
 */
export function readQuery(url: string, maxLength = MAX_QUERY_VALUE_LENGTH): QueryParams {
  const params = new Map<string, string[]>()
  let count = 0
  for (const [key, value] of new URL(url).searchParams) {
    if (++count > MAX_QUERY_PARAMS) {
      throw invalidQuery(`Too many query parameters (at most ${MAX_QUERY_PARAMS})`)
    }
    if (key.length > maxLength || value.length > maxLength) {
      throw invalidQuery(`Query parameter ${shown(key)} is longer than ${maxLength} characters`)
    }
    if (!isWellFormedText(key) || !isWellFormedText(value)) {
      throw invalidQuery(`Query parameter ${shown(key)} contains control characters`)
    }
    const values = params.get(key)
    if (values === undefined) params.set(key, [value])
    else values.push(value)
  }
  return params
}

/** The one value of `key`, or undefined; a parameter given twice is refused. */
export function singleValue(params: QueryParams, key: string): string | undefined {
  const values = params.get(key)
  if (values === undefined) return undefined
  if (values.length > 1)
    throw invalidQuery(`Query parameter ${shown(key)} was given more than once`)
  return values[0]
}

/**
 * Validates the named parameters of `params` with `schema` (each given at most once; names not
 * in the schema are ignored). The first problem becomes a 400 naming the parameter.
 */
export function parseQuery<S extends z.ZodObject>(params: QueryParams, schema: S): z.output<S> {
  const input: Record<string, string> = {}
  for (const key of Object.keys(schema.shape)) {
    const value = singleValue(params, key)
    if (value !== undefined) input[key] = value
  }
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const key = String(issue?.path[0] ?? '')
  const value = input[key]
  throw invalidQuery(
    `${key} ${issue?.message ?? 'is invalid'}${value === undefined ? '' : `, got ${shown(value)}`}`,
  )
}

/** A whole number from `min` to `max` given in decimal digits. */
export function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`
  return (
    z
      .string()
      .regex(/^[0-9]{1,9}$/, message)
      .transform(Number)
      .refine((value) => value >= min && value <= max, message)
      // Documented as the integer the text stands for (http/openapi-generate.ts).
      .meta({ type: 'integer', minimum: min, maximum: max })
  )
}

/** `true` or `false`. */
export const booleanText = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true')

/** Free text, trimmed; blank counts as absent. */
export function freeText(max: number) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .transform((value) => value.trim())
    .transform((value) => (value === '' ? undefined : value))
}

/** A comma-separated list of tags, trimmed and lower-cased; blanks dropped. */
export function tagList(maxTags: number, maxLength: number) {
  return z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter((item) => item !== ''),
    )
    .refine((items) => items.length <= maxTags, `must list at most ${maxTags} tags`)
    .refine(
      (items) => items.every((item) => item.length <= maxLength),
      `must have tags of at most ${maxLength} characters`,
    )
}
