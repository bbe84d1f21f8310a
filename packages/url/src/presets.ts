import type { ParamSpec, ParamType } from './catalogue.ts'
import { OPERATION_SEPARATOR, PARAM_TYPES, PRESET_PLUGIN } from './constants.ts'
import { MESSAGES, TransformationError } from './errors.ts'
import {
  buildPattern,
  parseOperationSyntax,
  splitOperations,
  type Transformation,
} from './pattern.ts'
import { checkParamRange, checkParamValue } from './validate.ts'

/** How a preset declares one `$variable` of its transformation. */
export interface PresetVariable {
  type: string
  default?: string | number | boolean | null
  enum?: readonly string[]
  min?: number
  max?: number
}

/** A stored preset: a named pattern, optionally with `$variables`. */
export interface PresetDefinition {
  transformation: string
  params?: Record<string, PresetVariable> | null | undefined
  archived?: boolean | undefined
}

/** Where `expandPresets` finds presets by name. */
export type PresetLookup =
  | ((name: string) => PresetDefinition | undefined)
  | ReadonlyMap<string, PresetDefinition>
  | Readonly<Record<string, PresetDefinition>>

/** Deepest chain of presets referring to presets that is expanded. */
const MAX_PRESET_DEPTH = 5

const KNOWN_TYPES: ReadonlySet<string> = new Set(PARAM_TYPES)

function lookup(presets: PresetLookup, name: string): PresetDefinition | undefined {
  if (typeof presets === 'function') return presets(name)
  if (typeof presets !== 'object' || presets === null) return undefined
  if (presets instanceof Map) return presets.get(name)
  const record = presets as Readonly<Record<string, PresetDefinition>>
  return Object.hasOwn(record, name) ? record[name] : undefined
}

function readOperation(text: string): Transformation {
  const syntax = parseOperationSyntax(text)
  if (!syntax.ok)
    throw new TransformationError(MESSAGES.invalidPattern, { cause: `${text}: ${syntax.reason}` })
  return syntax.transformation
}

function variableSpec(key: string, variable: PresetVariable): ParamSpec {
  const type = (KNOWN_TYPES.has(variable.type) ? variable.type : 'string') as ParamType
  const spec: ParamSpec = { id: key, name: key, title: key, type, default: null, required: false }
  if (Array.isArray(variable.enum)) spec.enum = variable.enum
  if (typeof variable.min === 'number') spec.min = variable.min
  if (typeof variable.max === 'number') spec.max = variable.max
  return spec
}

function applyVariables(
  presetName: string,
  preset: PresetDefinition,
  args: ReadonlyMap<string, string>,
): string {
  const config = typeof preset.params === 'object' && preset.params !== null ? preset.params : {}
  const unknown = [...args.keys()].find((name) => !Object.hasOwn(config, name))
  if (!preset.transformation.includes('$')) {
    if (unknown !== undefined) throw new TransformationError(MESSAGES.variableNotDefined(unknown))
    return preset.transformation
  }
  if (Object.keys(config).length === 0) {
    throw new TransformationError(MESSAGES.presetParamsEmpty(presetName))
  }
  if (unknown !== undefined) throw new TransformationError(MESSAGES.variableNotDefined(unknown))
  const operations = splitOperations(preset.transformation).map(readOperation)
  for (const operation of operations) {
    if (operation.values === undefined) continue
    operation.values = operation.values.map(({ key, value }) => {
      if (!value.startsWith('$')) return { key, value }
      const name = value.slice(1)
      const variable = Object.hasOwn(config, name) ? config[name] : undefined
      if (typeof variable !== 'object' || variable === null) {
        throw new TransformationError(MESSAGES.variableNotDefined(name))
      }
      const given = args.get(name) ?? variable.default
      const text = given === undefined || given === null ? '' : String(given)
      const spec = variableSpec(key, variable)
      const check = checkParamValue(text, spec, `${presetName}.${key}`)
      if (text === '' || !check.ok || checkParamRange(check.value, spec) !== undefined) {
        throw new TransformationError(MESSAGES.variableType(key, presetName, variable.type))
      }
      return { key, value: text }
    })
  }
  return buildPattern(operations)
}

function expand(pattern: string, presets: PresetLookup, trail: readonly string[]): string {
  const parts: string[] = []
  for (const text of splitOperations(pattern)) {
    const operation = readOperation(text)
    if (operation.plugin !== PRESET_PLUGIN) {
      parts.push(text)
      continue
    }
    const isApply = text.startsWith('p.apply(')
    const args = new Map<string, string>()
    for (const { key, value } of operation.values ?? []) {
      if (!isApply || key !== 'n') args.set(key, value)
    }
    const name = isApply
      ? operation.values?.find((pair) => pair.key === 'n')?.value
      : operation.name
    if (name === undefined) throw new TransformationError(MESSAGES.presetMissingName(text))
    const preset = lookup(presets, name)
    if (
      typeof preset !== 'object' ||
      preset === null ||
      typeof preset.transformation !== 'string'
    ) {
      throw new TransformationError(MESSAGES.presetInvalid(name))
    }
    if (preset.archived === true) throw new TransformationError(MESSAGES.presetArchived(name))
    if (trail.includes(name) || trail.length >= MAX_PRESET_DEPTH) {
      throw new TransformationError(MESSAGES.presetTooDeep(name))
    }
    const body = applyVariables(name, preset, args)
    parts.push(expand(body, presets, [...trail, name]))
  }
  return parts.join(OPERATION_SEPARATOR)
}

/**
 * Replaces every preset reference in a pattern (`p:name`, `p:name(var:value)`,
 * `p.apply(n:name,var:value)`) by the preset's operations, with each `$variable` set to the
 * value the URL passes or else the variable's default, checked against its declared type.
 * Presets may refer to presets, up to 5 deep.
 *
 * @throws {TransformationError} 'Invalid preset: <name>', "Missing param 'n' for preset: <op>",
 *   'Params config of preset <name> is empty', 'Variable object not defined for the variable
 *   $<var>', "Value for '<key>' in '<preset>' must be a type of <type>", 'Invalid pattern'.
 * @example
 * expandPresets('p:thumb(w:120)~t.grey()', {
 *   thumb: { transformation: 't.resize(w:$w,h:$w)', params: { w: { type: 'integer', default: 200 } } },
 * })
 * // 't.resize(w:120,h:120)~t.grey()'
 */
export function expandPresets(pattern: string, presets: PresetLookup): string {
  if (typeof pattern !== 'string') throw new TransformationError(MESSAGES.invalidPattern)
  if (pattern === '' || pattern === 'original') return pattern
  return expand(pattern, presets, [])
}
