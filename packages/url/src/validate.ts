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

function checkList(value: string, isItem: (item: unknown) => boolean): ValueCheck {
  const list = parseListValue(value)
  if (!list.ok) return list
  if (!Array.isArray(list.value) || !list.value.every(isItem)) {
    return { ok: false, message: MESSAGES.listFormat }
  }
  return { ok: true, value: list.value as number[][] }
}

function isPolygon(item: unknown): boolean {
  return Array.isArray(item) && item.length > 0 && item.every((point) => isNumberTuple(point, 2))
}

/**
 * Checks one raw URL value against a parameter's type (SPEC §5) and returns it typed. Range and
 * enum membership are checked too.
 */
export function checkParamValue(raw: string, spec: ParamSpec, where: string): ValueCheck {
  const fail = (): ValueCheck => ({
    ok: false,
    message: MESSAGES.typeExpected(EXPECTED[spec.type] ?? spec.type, where, raw),
  })
  switch (spec.type) {
    case 'integer':
    case 'float': {
      const valid = spec.type === 'integer' ? isIntegerText(raw) : isDecimalText(raw)
      const value = Number(raw)
      if (!valid || !Number.isFinite(value)) return fail()
      if (spec.type === 'integer' && !Number.isSafeInteger(value)) return fail()
      return { ok: true, value }
    }
    case 'string':
      return { ok: true, value: raw }
    case 'file':
      return raw === '' ? fail() : { ok: true, value: raw }
    case 'color':
      return isHexColorText(raw) ? { ok: true, value: raw.toLowerCase() } : fail()
    case 'enum':
      return spec.enum?.includes(raw) ? { ok: true, value: raw } : fail()
    case 'boolean': {
      const lower = raw.toLowerCase()
      if (lower === 'true' || lower === '1') return { ok: true, value: true }
      if (lower === 'false' || lower === '0') return { ok: true, value: false }
      return fail()
    }
    case 'bbox': {
      const parts = raw.split(LIST_SEPARATOR)
      if (parts.length !== 4 || !parts.every(isIntegerText)) return fail()
      return { ok: true, value: parts.map(Number) }
    }
    case 'bboxList':
      return checkList(raw, (item) => isNumberTuple(item, 4))
    case 'polygonList':
      return checkList(raw, isPolygon)
    default:
      return fail()
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
  const params: Record<string, ParamValue> = {}
  if (typeof format === 'string' && spec.formats && !spec.formats.includes(format.toLowerCase())) {
    issues.push({
      code: 'format_not_allowed',
      message: MESSAGES.formatNotAllowed(spec.key, format),
    })
  }
  const list = values ?? []
  if (list.length > spec.params.length) {
    issues.push({ code: 'too_many_params', message: MESSAGES.invalidParams })
    return { params, issues }
  }
  for (const { key, value } of list) {
    const param = spec.params.find((candidate) => candidate.id === key)
    if (param === undefined) {
      issues.push({ code: 'unknown_param', message: MESSAGES.invalidParams, param: key })
      continue
    }
    if (value.startsWith('$')) {
      params[key] = value
      continue
    }
    const check = checkParamValue(value, param, `${spec.key}.${key}`)
    if (!check.ok) {
      issues.push({ code: 'invalid_type', message: check.message, param: key })
      continue
    }
    const range = checkParamRange(check.value, param)
    if (range) issues.push(range)
    else params[key] = check.value
  }
  for (const param of spec.params) {
    if (Object.hasOwn(params, param.id) || list.some((pair) => pair.key === param.id)) continue
    if (param.required) {
      issues.push({ code: 'required', message: MESSAGES.requiredField(param.id), param: param.id })
    } else if (param.default !== null) {
      params[param.id] = param.default
    }
  }
  return { params, issues }
}
