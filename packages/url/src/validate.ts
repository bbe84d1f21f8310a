import type { OperationSpec, ParamSpec, ParamType } from './catalogue.ts'
import { isDecimalText, isHexColorText, isIntegerText } from './chars.ts'
import { LIST_SEPARATOR } from './constants.ts'
import { MESSAGES } from './errors.ts'
import type { TransformationValue } from './pattern.ts'

/** A parameter value after validation: numbers, booleans and lists are typed. */
export type ParamValue = string | number | boolean | number[] | number[][] | number[][][]

/** Why a parameter or operation was refused. */
export type IssueCode =
  | 'invalid_syntax'
  | 'unknown_plugin'
  | 'unknown_operation'
  | 'format_not_allowed'
  | 'too_many_params'
  | 'unknown_param'
  | 'invalid_type'
  | 'too_small'
  | 'too_big'
  | 'required'
  | 'invalid_preset'
  | 'duplicate_param'

/** One problem found in an operation. */
export interface ParamIssue {
  code: IssueCode
  message: string
  /** The parameter key, when the problem is one parameter's. */
  param?: string
}

/** The outcome of checking one value against its parameter type. */
export type ValueCheck = { ok: true; value: ParamValue } | { ok: false; message: string }

const EXPECTED: Record<ParamType, string> = {
  integer: 'an integer',
  float: 'a number',
  string: 'text',
  file: 'a file id',
  color: 'a colour of 6 or 8 hex digits',
  enum: 'one of the allowed values',
  boolean: 'true, false, 1 or 0',
  bbox: '4 integers joined by _',
  bboxList: 'a list of boxes of 4 numbers',
  polygonList: 'a list of polygons of [x_y] points',
}

/**
 * Reads a list value written with `_` between items (`[[10_10_100_100]_[5_5_50_50]]`) as JSON.
 *
 * @returns the parsed value, or the message 'Received value is of invalid format' /
 *   'Value must be a string'.
 */
export function parseListValue(
  value: unknown,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (typeof value !== 'string') return { ok: false, message: MESSAGES.listNotString }
  try {
    return { ok: true, value: JSON.parse(value.replaceAll(LIST_SEPARATOR, ',')) }
  } catch {
    return { ok: false, message: MESSAGES.listFormat }
  }
}

function isNumberTuple(value: unknown, length: number): value is number[] {
  return (
    Array.isArray(value) &&
    value.length === length &&
    value.every((item) => typeof item === 'number' && Number.isFinite(item))
  )
}

function isPolygon(item: unknown): boolean {
  return Array.isArray(item) && item.length > 0 && item.every((point) => isNumberTuple(point, 2))
}

/**
 * Checks one raw URL value against a parameter's type (SPEC §5) and returns it typed. Enum
 * membership is checked too; the range is checked by `checkParamRange`.
 *
 * @param where The parameter's name in messages, e.g. `t.resize.w`.
 */
export function checkParamValue(raw: string, spec: ParamSpec, where: string): ValueCheck {
  const value = readValue(raw, spec)
  return value === INVALID ? typeFailure(raw, spec, where) : { ok: true, value }
}

function typeFailure(raw: string, spec: ParamSpec, where: string): { ok: false; message: string } {
  const isList = spec.type === 'bboxList' || spec.type === 'polygonList'
  return {
    ok: false,
    message: isList
      ? MESSAGES.listFormat
      : MESSAGES.typeExpected(spec.expected ?? EXPECTED[spec.type] ?? spec.type, where, raw),
  }
}

const INVALID: unique symbol = Symbol('invalid')

// Compiled parameter patterns by source: a handful in the catalogue, compiled once each.
const PATTERNS = new Map<string, RegExp>()

function patternOf(source: string): RegExp {
  let compiled = PATTERNS.get(source)
  if (compiled === undefined) {
    compiled = new RegExp(`^(?:${source})$`)
    PATTERNS.set(source, compiled)
  }
  return compiled
}

function readList(raw: string, isItem: (item: unknown) => boolean): ParamValue | typeof INVALID {
  const list = parseListValue(raw)
  if (!list.ok || !Array.isArray(list.value) || !list.value.every(isItem)) return INVALID
  return list.value as number[][]
}

// The typed value, or INVALID when `raw` does not fit the type. Allocates nothing on success
// for scalar types: this runs for every parameter of every delivered URL.
function readValue(raw: string, spec: ParamSpec): ParamValue | typeof INVALID {
  switch (spec.type) {
    case 'integer': {
      if (!isIntegerText(raw)) return INVALID
      const value = Number(raw)
      return Number.isSafeInteger(value) ? value : INVALID
    }
    case 'float': {
      if (!isDecimalText(raw)) return INVALID
      const value = Number(raw)
      return Number.isFinite(value) ? value : INVALID
    }
    case 'string':
      return spec.pattern === undefined || patternOf(spec.pattern).test(raw) ? raw : INVALID
    case 'file':
      return raw === '' ? INVALID : raw
    case 'color':
      return isHexColorText(raw) ? raw.toLowerCase() : INVALID
    case 'enum':
      return spec.enum?.includes(raw) ? raw : INVALID
    case 'boolean': {
      if (raw === 'true' || raw === '1') return true
      if (raw === 'false' || raw === '0') return false
      const lower = raw.toLowerCase()
      if (lower === 'true') return true
      if (lower === 'false') return false
      return INVALID
    }
    case 'bbox': {
      const parts = raw.split(LIST_SEPARATOR)
      if (parts.length !== 4 || !parts.every(isIntegerText)) return INVALID
      return parts.map(Number)
    }
    case 'bboxList':
      return readList(raw, (item) => isNumberTuple(item, 4))
    case 'polygonList':
      return readList(raw, isPolygon)
    default:
      return INVALID
  }
}

/** Checks a typed value against its parameter's min and max. */
export function checkParamRange(value: ParamValue, spec: ParamSpec): ParamIssue | undefined {
  if (typeof value !== 'number') return undefined
  if (spec.min !== undefined && value < spec.min) {
    return { code: 'too_small', message: MESSAGES.tooSmall(spec.id, spec.min), param: spec.id }
  }
  if (spec.max !== undefined && value > spec.max) {
    return { code: 'too_big', message: MESSAGES.tooBig(spec.id, spec.max), param: spec.id }
  }
  return undefined
}

/** The outcome of checking an operation's values against its catalogue entry. */
export interface OperationCheck {
  /** Typed values by key, with defaults for the parameters the URL left out. */
  params: Record<string, ParamValue>
  issues: ParamIssue[]
}

// Parameter positions by key, computed once per operation record.
const INDEXES = new WeakMap<OperationSpec, ReadonlyMap<string, number>>()

function operationIndex(spec: OperationSpec): ReadonlyMap<string, number> {
  let index = INDEXES.get(spec)
  if (index === undefined) {
    index = new Map(spec.params.map((param, at) => [param.id, at]))
    INDEXES.set(spec, index)
  }
  return index
}

/**
 * Checks the values of one operation against its catalogue entry: the source format, the
 * number of values, unknown keys, each value's type and range, and required parameters.
 * Values starting with `$` are preset variables and are kept as text, unchecked.
 */
export function checkOperation(
  values: readonly TransformationValue[] | undefined,
  spec: OperationSpec,
  format?: string,
): OperationCheck {
  const issues: ParamIssue[] = []
  if (typeof format === 'string' && spec.formats && !spec.formats.includes(format.toLowerCase())) {
    issues.push({
      code: 'format_not_allowed',
      message: MESSAGES.formatNotAllowed(spec.key, format),
    })
  }
  const list = values ?? []
  const specs = spec.params
  if (list.length > specs.length) {
    issues.push({ code: 'too_many_params', message: MESSAGES.invalidParams })
    return { params: {}, issues }
  }
  // Values are checked in URL order (so issues read in that order), then placed by position.
  const index = operationIndex(spec)
  const given: Array<ParamValue | null | undefined> = new Array(specs.length)
  for (let i = 0; i < list.length; i++) {
    const { key, value } = list[i] as TransformationValue
    const at = index.get(key)
    if (at === undefined) {
      issues.push({ code: 'unknown_param', message: MESSAGES.invalidParams, param: key })
      continue
    }
    const param = specs[at] as ParamSpec
    if (value.charCodeAt(0) === 36) {
      given[at] = value
      continue
    }
    const typedValue = readValue(value, param)
    if (typedValue === INVALID) {
      const { message } = typeFailure(value, param, `${spec.key}.${key}`)
      issues.push({ code: 'invalid_type', message, param: key })
      given[at] = null
      continue
    }
    const range = checkParamRange(typedValue, param)
    if (range) {
      issues.push(range)
      given[at] = null
    } else given[at] = typedValue
  }
  const params: Record<string, ParamValue> = {}
  for (let at = 0; at < specs.length; at++) {
    const param = specs[at] as ParamSpec
    const value = given[at]
    if (value !== undefined) {
      if (value !== null) params[param.id] = value
    } else if (param.required) {
      issues.push({ code: 'required', message: MESSAGES.requiredField(param.id), param: param.id })
    } else if (param.default !== null) {
      params[param.id] = param.default
    }
  }
  return { params, issues }
}
