import { isName } from './chars.ts'
import {
  KEY_VALUE_SEPARATOR,
  LIST_SEPARATOR,
  OPERATION_SEPARATOR,
  ORIGINAL_PATTERN,
  PARAMETER_SEPARATOR,
  PRESET_PLUGIN,
} from './constants.ts'
import { describeType, IllegalArgumentError, MESSAGES, TransformationError } from './errors.ts'

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
  | { ok: true; transformation: Transformation }
  | { ok: false; reason: string }

const OPEN_PAREN = 40
const CLOSE_PAREN = 41
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const TILDE = 126
const COMMA = 44

function depthChange(code: number): number {
  if (code === OPEN_PAREN || code === OPEN_BRACKET) return 1
  if (code === CLOSE_PAREN || code === CLOSE_BRACKET) return -1
  return 0
}

/**
 * Splits `text` at every `separator` that is not inside parentheses or brackets, so a value
 * such as `tr:t.resize(w:1)~t.flip()` stays whole. Returns undefined when brackets do not
 * balance.
 */
function splitTopLevel(text: string, separator: number): string[] | undefined {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === separator && depth === 0) {
      parts.push(text.slice(start, i))
      start = i + 1
      continue
    }
    depth += depthChange(code)
    if (depth < 0) return undefined
  }
  if (depth !== 0) return undefined
  parts.push(text.slice(start))
  return parts
}

/**
 * Splits a pattern into the text of its operations at top-level `~`. An unbalanced pattern is
 * split at every `~` so each part can still be judged on its own.
 */
export function splitOperations(pattern: string): string[] {
  return splitTopLevel(pattern, TILDE) ?? pattern.split(OPERATION_SEPARATOR)
}

/** Reads the text of one operation without consulting the catalogue. Never throws. */
export function parseOperationSyntax(text: string): OperationSyntax {
  if (text.length === 0) return { ok: false, reason: 'empty operation' }
  const open = text.indexOf('(')
  if (open === -1) {
    if (text.startsWith('p:')) {
      const name = text.slice(2)
      if (!isName(name)) return { ok: false, reason: 'invalid preset name' }
      return { ok: true, transformation: { plugin: PRESET_PLUGIN, name } }
    }
    return { ok: false, reason: 'missing parentheses' }
  }
  if (text.charCodeAt(text.length - 1) !== CLOSE_PAREN) {
    return { ok: false, reason: 'missing closing parenthesis or text after it' }
  }
  const head = text.slice(0, open)
  let plugin: string
  let name: string
  if (head.startsWith('p:')) {
    plugin = PRESET_PLUGIN
    name = head.slice(2)
    if (!isName(name)) return { ok: false, reason: 'invalid preset name' }
  } else {
    const dot = head.indexOf('.')
    if (dot === -1) return { ok: false, reason: 'missing plugin or operation name' }
    plugin = head.slice(0, dot)
    name = head.slice(dot + 1)
    if (!isName(plugin) || !isName(name)) {
      return { ok: false, reason: 'invalid plugin or operation name' }
    }
  }
  const inner = text.slice(open + 1, -1)
  const items = splitTopLevel(inner, COMMA)
  if (items === undefined) return { ok: false, reason: 'unbalanced brackets' }
  if (items.length === 1 && items[0] === '') return { ok: true, transformation: { plugin, name } }

  const values: TransformationValue[] = []
  const positions = new Map<string, number>()
  for (const item of items) {
    const colon = item.indexOf(KEY_VALUE_SEPARATOR)
    const key = colon === -1 ? item : item.slice(0, colon)
    if (!isName(key)) return { ok: false, reason: MESSAGES.keyMissing(`${plugin}.${name}`) }
    const value = colon === -1 ? '' : item.slice(colon + 1)
    if (value.length === 0) {
      return { ok: false, reason: MESSAGES.valueMissing(key, `${plugin}.${name}`) }
    }
    // A repeated key keeps its first position and takes the last value, as query strings do.
    const at = positions.get(key)
    if (at === undefined) {
      positions.set(key, values.length)
      values.push({ key, value })
    } else {
      values[at] = { key, value }
    }
  }
  return { ok: true, transformation: { plugin, name, values } }
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

// Lists in the catalogue nest 3 deep (polygon lists); deeper input is refused, not recursed.
const MAX_LIST_DEPTH = 8

/** Writes a list value with `_` between items: `[[1,2,3,4]]` → `[[1_2_3_4]]`. */
function writeList(list: readonly unknown[], key: string, name: string, depth = 0): string {
  if (depth >= MAX_LIST_DEPTH) throw new IllegalArgumentError(MESSAGES.valueUnsafe(key, name))
  const items = list.map((item) => {
    if (Array.isArray(item)) return writeList(item, key, name, depth + 1)
    if (typeof item === 'number' && Number.isFinite(item)) return String(item)
    if (typeof item === 'string' || typeof item === 'boolean') return String(item)
    throw new IllegalArgumentError(MESSAGES.valueUnsafe(key, name))
  })
  return `[${items.join(LIST_SEPARATOR)}]`
}

// A value is safe when writing it cannot change how the pattern splits or where the path ends.
// A top-level `~` is fine: the value sits inside its operation's parentheses.
function isSafeValue(value: string): boolean {
  let depth = 0
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code === 47 || code === 63 || code === 35 || code < 32 || code === 127) return false
    if (depth === 0 && code === COMMA) return false
    depth += depthChange(code)
    if (depth < 0) return false
  }
  return depth === 0
}

function writeValue(value: unknown, key: string, name: string): string {
  let text: string
  if (typeof value === 'string') text = value
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : ''
  else if (typeof value === 'boolean') text = String(value)
  else if (Array.isArray(value)) text = writeList(value, key, name)
  else text = ''
  // Unlike older SDKs, numeric 0 is a value; empty text, null and undefined are not.
  if (text === '') {
    throw new IllegalArgumentError(MESSAGES.valueMissing(key, name))
  }
  if (!isSafeValue(text)) throw new IllegalArgumentError(MESSAGES.valueUnsafe(key, name))
  return text
}

function writeOperation(item: TransformationInput): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new IllegalArgumentError(MESSAGES.objectExpected('each transformation'))
  }
  // Entries without a name are skipped, as in the SDKs this API is compatible with.
  if (!Object.hasOwn(item, 'name') || item.name === undefined) return undefined
  if (typeof item.name !== 'string')
    throw new IllegalArgumentError(MESSAGES.nameInvalid(describeType(item.name)))
  const name = item.name
  const plugin = item.plugin
  if (typeof plugin !== 'string' || plugin === '') {
    throw new IllegalArgumentError(MESSAGES.pluginMissing(name))
  }
  if (!isName(plugin) || !isName(name)) throw new IllegalArgumentError(MESSAGES.nameInvalid(name))
  const values = item.values ?? []
  if (!Array.isArray(values)) {
    throw new IllegalArgumentError(MESSAGES.arrayExpected('values', describeType(values)))
  }
  const pairs: string[] = []
  for (const pair of values as ReadonlyArray<{ key?: unknown; value?: unknown } | null>) {
    if (typeof pair !== 'object' || pair === null) {
      throw new IllegalArgumentError(MESSAGES.keyMissing(name))
    }
    const key = pair.key
    if (typeof key !== 'string' || key === '')
      throw new IllegalArgumentError(MESSAGES.keyMissing(name))
    if (!isName(key)) throw new IllegalArgumentError(MESSAGES.nameInvalid(name))
    pairs.push(`${key}${KEY_VALUE_SEPARATOR}${writeValue(pair.value, key, name)}`)
  }
  const params = pairs.join(PARAMETER_SEPARATOR)
  if (plugin === PRESET_PLUGIN) {
    if (name === 'apply' && values.some((pair) => pair?.key === 'n')) return `p.apply(${params})`
    return params ? `p:${name}(${params})` : `p:${name}`
  }
  return `${plugin}.${name}(${params})`
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
  if (transformations === null || transformations === undefined) return ''
  if (!Array.isArray(transformations)) {
    throw new IllegalArgumentError(
      MESSAGES.arrayExpected('transformations', describeType(transformations)),
    )
  }
  const parts: string[] = []
  for (const item of transformations) {
    const text = writeOperation(item)
    if (text !== undefined) parts.push(text)
  }
  return parts.join(OPERATION_SEPARATOR)
}
