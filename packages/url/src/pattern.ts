import { OPERATION_SEPARATOR, ORIGINAL_PATTERN } from './constants.ts'
import { describeType, IllegalArgumentError, MESSAGES, TransformationError } from './errors.ts'
import { lastRead, readOperation, readTransformations } from './read-operation.ts'
import { writeOperation } from './write-operation.ts'

/** One `key:value` pair of an operation; values are kept as the text of the URL. */
export interface TransformationValue {
  key: string
  value: string
}

/**
 * One operation of a pattern: `t.resize(w:300)` is `{ plugin: 't', name: 'resize', values:
 * [{ key: 'w', value: '300' }] }`. `values` is absent when the operation has no parameters.
 * A preset `p:thumb` is `{ plugin: 'p', name: 'thumb' }`; `p.apply(n:thumb)` is
 * `{ plugin: 'p', name: 'apply', values: [{ key: 'n', value: 'thumb' }] }`.
 */
export interface Transformation {
  plugin: string
  name: string
  values?: TransformationValue[]
}

/** A value accepted by the builders: text, a number, a boolean or a list (written with `_`). */
export type TransformationValueInput = string | number | boolean | readonly unknown[]

/** What the builders accept for one operation. */
export interface TransformationInput {
  plugin?: string | undefined
  name?: string | undefined
  values?:
    | ReadonlyArray<{
        key?: string | undefined
        value?: TransformationValueInput | null | undefined
      }>
    | null
    | undefined
}

/** The result of reading one operation's text. */
export type OperationSyntax =
  | {
      ok: true
      transformation: Transformation
      /** The first key given more than once (its last value is kept); delivery refuses it. */
      repeated?: string
    }
  | { ok: false; reason: string }

const OPEN_PAREN = 40
const CLOSE_PAREN = 41
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const TILDE = 126

/**
 * Splits a pattern into the text of its operations at every `~` that is not inside parentheses
 * or brackets, so a value such as `tr:t.resize(w:1)~t.flip()` stays whole. An unbalanced
 * pattern is split at every `~` so each part can still be judged on its own.
 */
export function splitOperations(pattern: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i)
    if (code === TILDE) {
      if (depth === 0) {
        parts.push(pattern.slice(start, i))
        start = i + 1
      }
    } else if (code === OPEN_PAREN || code === OPEN_BRACKET) depth++
    else if (code === CLOSE_PAREN || code === CLOSE_BRACKET) {
      if (--depth < 0) break
    }
  }
  if (depth !== 0) return pattern.split(OPERATION_SEPARATOR)
  parts.push(pattern.slice(start))
  return parts
}

function fail(reason: string): OperationSyntax {
  return { ok: false, reason }
}

/** Reads the text of one operation without consulting the catalogue. Never throws. */
export function parseOperationSyntax(text: string): OperationSyntax {
  const transformation = readOperation(text, 0, text.length)
  if (typeof transformation === 'string') return fail(transformation)
  const repeated = lastRead.repeated
  return repeated === undefined
    ? { ok: true, transformation }
    : { ok: true, transformation, repeated }
}

/**
 * Parses a pattern into its operations, strictly: the first malformed operation throws.
 * `original` and the empty string give no operations. The catalogue is not consulted.
 *
 * @throws {TransformationError} 'Invalid pattern', with the reason in `cause`.
 * @example parseTransformations('t.resize(w:300)~t.flip()')
 * // [{ plugin: 't', name: 'resize', values: [{ key: 'w', value: '300' }] },
 * //  { plugin: 't', name: 'flip' }]
 */
export function parseTransformations(pattern: string): Transformation[] {
  if (typeof pattern !== 'string') {
    throw new TransformationError(MESSAGES.invalidPattern, { cause: describeType(pattern) })
  }
  if (pattern === '' || pattern === ORIGINAL_PATTERN) return []
  const read = readTransformations(pattern)
  if (read !== undefined) return read
  const list: Transformation[] = []
  for (const text of splitOperations(pattern)) {
    const result = parseOperationSyntax(text)
    if (!result.ok) {
      throw new TransformationError(MESSAGES.invalidPattern, { cause: `${text}: ${result.reason}` })
    }
    list.push(result.transformation)
  }
  return list
}

/**
 * Writes a list of operations as a pattern (`t.resize(w:300)~t.flip()`), or `''` when the list
 * has no operation. Entries without `name` are skipped; every other entry needs a plugin and a
 * key and value for each pair. Numbers and booleans are written as text, lists with `_`.
 *
 * @throws {IllegalArgumentError} for a missing key or value, or text that would break the pattern.
 * @example buildPattern([{ plugin: 't', name: 'resize', values: [{ key: 'w', value: 300 }] }])
 * // 't.resize(w:300)'
 */
export function buildPattern(
  transformations: ReadonlyArray<TransformationInput> | null | undefined,
): string {
  return writePattern(transformations, '') ?? ''
}

/**
 * `buildPattern` for a delivery URL: the pattern with its `/` after it (`original/` when there is
 * no operation). The slash is joined to the last operation's text, which is usually short enough
 * to stay one flat string, so the URL is built from fewer pieces.
 *
 * @throws {IllegalArgumentError} as `buildPattern` does.
 */
export function buildPatternSegment(
  transformations: ReadonlyArray<TransformationInput> | null | undefined,
): string {
  return writePattern(transformations, '/') ?? ORIGINAL_SEGMENT
}

// The operations joined by `~`, `end` joined to the last one; undefined when none is written.
function writePattern(
  transformations: ReadonlyArray<TransformationInput> | null | undefined,
  end: string,
): string | undefined {
  if (transformations === null || transformations === undefined) return undefined
  if (!Array.isArray(transformations)) {
    throw new IllegalArgumentError(
      MESSAGES.arrayExpected('transformations', describeType(transformations)),
    )
  }
  let pattern = ''
  let last: string | undefined
  for (let i = 0; i < transformations.length; i++) {
    // After the first operation, each is written with its `~` in front.
    const text = writeOperation(transformations[i] as TransformationInput, last !== undefined)
    if (text === undefined) continue
    if (last !== undefined) pattern = pattern === '' ? last : pattern + last
    last = text
  }
  if (last === undefined) return undefined
  const tail = end === '' ? last : last + end
  return pattern === '' ? tail : pattern + tail
}

const ORIGINAL_SEGMENT = `${ORIGINAL_PATTERN}/`
