import { CATALOGUE, type Catalogue, type OperationSpec } from './catalogue.ts'
import { ORIGINAL_PATTERN, PRESET_PLUGIN } from './constants.ts'
import { describeType, MESSAGES, TransformationError } from './errors.ts'
import { parseOperationSyntax, splitOperations, type Transformation } from './pattern.ts'
import { checkOperation, type IssueCode, type ParamValue } from './validate.ts'

/** An operation that passed parsing and validation. */
export interface ParsedOperation extends Transformation {
  /** Position of the operation in the pattern (0-based, counting dropped ones). */
  index: number
  /** The operation's text in the pattern. */
  text: string
  /** The catalogue entry; absent for presets. */
  spec?: OperationSpec
  /** For a preset reference, the preset's name (`thumb` in `p:thumb` and `p.apply(n:thumb)`). */
  presetName?: string
  /**
   * Typed values with defaults applied. For a preset reference, the variables it passes (text).
   * Values starting with `$` are preset variables, kept as text.
   */
  params: Record<string, ParamValue>
}

/** Why an operation was dropped. */
export interface PatternIssue {
  code: IssueCode
  message: string
  /** Position of the dropped operation in the pattern (0-based). */
  index: number
  /** The dropped operation's text. */
  operation: string
  /** The parameter at fault, when there is one. */
  param?: string
}

/** The result of `parsePattern`: what was kept and, for each drop, why. */
export interface PatternResult {
  value: ParsedOperation[]
  issues: PatternIssue[]
}

/** Options of `parsePattern`. */
export interface ParsePatternOptions {
  /** The catalogue to validate against; the built-in one by default. */
  catalogue?: Catalogue
  /** The source file's format (`png`, `mp4`…), to drop operations that do not accept it. */
  format?: string
}

function presetOperation(
  transformation: Transformation,
  index: number,
  text: string,
): ParsedOperation | PatternIssue {
  const values = transformation.values ?? []
  const isApply = text.startsWith('p.apply(')
  const presetName = isApply ? values.find((pair) => pair.key === 'n')?.value : transformation.name
  if (presetName === undefined) {
    return {
      code: 'invalid_preset',
      message: MESSAGES.presetMissingName(text),
      index,
      operation: text,
    }
  }
  const params: Record<string, ParamValue> = {}
  for (const pair of values) {
    if (!isApply || pair.key !== 'n') params[pair.key] = pair.value
  }
  return { ...transformation, index, text, presetName, params }
}

/**
 * Parses a transformation pattern leniently (SPEC §5): each operation is read and checked
 * against the catalogue, and an operation is dropped when its plugin or method is unknown, the
 * source format is not allowed, it has more parameters than defined, or a parameter fails its
 * type, range or required check. Every drop is reported in `issues` with its reason; nothing
 * is dropped silently. Presets (`p:name`, `p.apply(n:name)`) are kept as references.
 *
 * @throws {TransformationError} only when `pattern` is not a string.
 * @example
 * parsePattern('t.resize(w:300)~t.blur(s:abc)')
 * // value: [resize with w=300 and defaults], issues: [{ code: 'invalid_type', index: 1, … }]
 */
export function parsePattern(pattern: string, options: ParsePatternOptions = {}): PatternResult {
  if (typeof pattern !== 'string') {
    throw new TransformationError(MESSAGES.invalidPattern, { cause: describeType(pattern) })
  }
  const result: PatternResult = { value: [], issues: [] }
  if (pattern === '' || pattern === ORIGINAL_PATTERN) return result
  const catalogue = options.catalogue ?? CATALOGUE
  const texts = splitOperations(pattern)
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index] as string
    const syntax = parseOperationSyntax(text)
    if (!syntax.ok) {
      result.issues.push({ code: 'invalid_syntax', message: syntax.reason, index, operation: text })
      continue
    }
    const transformation = syntax.transformation
    // `t.resize(w:100,w:200)` has no single meaning: refuse it rather than keep either value.
    const repeated = syntax.repeated
    if (repeated !== undefined) {
      result.issues.push({
        code: 'duplicate_param',
        message: MESSAGES.duplicateParam(repeated, text),
        index,
        operation: text,
        param: repeated,
      })
      continue
    }
    if (transformation.plugin === PRESET_PLUGIN) {
      const preset = presetOperation(transformation, index, text)
      if ('params' in preset) result.value.push(preset)
      else result.issues.push(preset)
      continue
    }
    const spec = catalogue.getOperation(transformation.plugin, transformation.name)
    if (spec === undefined) {
      const unknownPlugin = catalogue.getPlugin(transformation.plugin) === undefined
      result.issues.push({
        code: unknownPlugin ? 'unknown_plugin' : 'unknown_operation',
        message: unknownPlugin
          ? MESSAGES.pluginNotFound(transformation.plugin)
          : MESSAGES.operationNotFound(transformation.plugin, transformation.name),
        index,
        operation: text,
      })
      continue
    }
    const check = checkOperation(transformation.values, spec, options.format)
    if (check.issues.length > 0) {
      for (const issue of check.issues) {
        const dropped: PatternIssue = {
          code: issue.code,
          message: issue.message,
          index,
          operation: text,
        }
        if (issue.param !== undefined) dropped.param = issue.param
        result.issues.push(dropped)
      }
      continue
    }
    const operation: ParsedOperation = {
      plugin: transformation.plugin,
      name: transformation.name,
      index,
      text,
      spec,
      params: check.params,
    }
    if (transformation.values !== undefined) operation.values = transformation.values
    result.value.push(operation)
  }
  return result
}
