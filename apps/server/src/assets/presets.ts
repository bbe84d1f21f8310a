// Presets (issue 4): a named transformation with `$variables` that delivery URLs use as
// `p:name(var:value)`. A preset is checked as delivery would use it before it is stored, so a
// stored preset never fails a delivery for its own sake.
import {
  isUrlError,
  MAX_TRANSFORMATIONS,
  MESSAGES,
  ORIGINAL_PATTERN,
  PARAM_TYPES,
  type PresetDefinition,
  parseOperationSyntax,
  parsePattern,
} from '@tessera/url'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { expandStoredPresets } from '../delivery/preset-expansion.ts'
import { HttpError } from '../http/errors.ts'
import { pageQuery } from '../http/paging.ts'
import { booleanText } from '../http/query.ts'
import { plainText } from '../http/text.ts'
import { ASSET_PAGE_SIZE } from './paths.ts'

/** Longest preset name, transformation, and most `$variables` a preset may declare. */
export const PRESET_NAME_MAX = 64
export const PRESET_TRANSFORMATION_MAX = 4096
export const PRESET_MAX_VARIABLES = 20

const text = plainText

/** Whether `name` may name a preset: what `p:<name>` accepts in a delivery URL. */
export function isPresetName(name: string): boolean {
  if (name.length === 0 || name.length > PRESET_NAME_MAX) return false
  const syntax = parseOperationSyntax(`p:${name}`)
  return (
    syntax.ok && syntax.transformation.values === undefined && syntax.transformation.name === name
  )
}

export const presetName = z
  .string({ error: 'must be a string' })
  .refine(
    isPresetName,
    `must be 1 to ${PRESET_NAME_MAX} letters, digits, _ or - (as in p:name in delivery URLs)`,
  )
  // The refinement, as the OpenAPI document states it.
  .meta({ pattern: `^[A-Za-z0-9_-]{1,${PRESET_NAME_MAX}}$` })

const scalar = z.union(
  [text(256), z.number().refine(Number.isFinite, 'must be finite'), z.boolean(), z.null()],
  { error: 'must be a string, number, boolean or null' },
)

const presetVariable = z
  .object({
    type: z.enum(PARAM_TYPES, {
      error: `must be one of ${PARAM_TYPES.join(', ')}`,
    }),
    default: scalar.optional(),
    enum: z.array(text(64)).max(100, 'must list at most 100 values').optional(),
    min: z.number().refine(Number.isFinite, 'must be finite').optional(),
    max: z.number().refine(Number.isFinite, 'must be finite').optional(),
  })
  .strict()

export const presetParams = z
  .record(
    z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'variable names use letters, digits and _ only'),
    presetVariable,
  )
  .refine(
    (params) => Object.keys(params).length <= PRESET_MAX_VARIABLES,
    `must declare at most ${PRESET_MAX_VARIABLES} variables`,
  )
  .meta({ maxProperties: PRESET_MAX_VARIABLES })
  .describe('The `$variables` of the transformation: `{ name: { type, default } }`')

const transformation = text(PRESET_TRANSFORMATION_MAX)
  .transform((value) => value.trim())
  .refine((value) => value !== '', 'is required')

export const createPresetBody = z
  .object({
    presetName,
    transformation,
    params: presetParams.optional(),
    archived: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict()

export const updatePresetBody = z
  .object({
    transformation: transformation.optional(),
    params: presetParams.optional(),
    archived: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict()

/** The query of the preset list. */
export const presetsQuery = z.object({
  ...pageQuery(ASSET_PAGE_SIZE),
  archived: booleanText
    .optional()
    .describe('false: only usable presets; true: only archived ones; absent: both'),
})

export const invalidTransformation = (message: string) =>
  new HttpError(400, 'invalid_transformation', message)

/** The checks of a preset against the organisation's other presets. */
export function createPresetChecks(app: Pick<AppContext, 'repo'>) {
  const { repo } = app

  /** The pattern expanded with the organisation's stored presets and `own` (being checked). */
  async function expandStored(
    organisationId: string,
    pattern: string,
    own: { name: string; definition: PresetDefinition },
  ): Promise<string> {
    const expanded = await expandStoredPresets(
      pattern,
      (name) => repo.findPreset(organisationId, name),
      new Map([[own.name, own.definition]]),
    )
    if (expanded === undefined) throw invalidTransformation(MESSAGES.presetTooDeep(own.name))
    return expanded
  }

  /**
   * Refuses a preset delivery could not use: a transformation the URL language does not accept
   * (its message), a `$variable` it does not declare, a preset it refers to that is missing or
   * archived, a cycle, or more than 15 operations once expanded. With a default for every
   * variable it is expanded whole, so the defaults are checked against the operations too.
   */
  async function checkPreset(
    organisationId: string,
    name: string,
    pattern: string,
    params: z.output<typeof presetParams>,
  ): Promise<void> {
    if (pattern === ORIGINAL_PATTERN) {
      throw invalidTransformation('A preset needs at least one operation')
    }
    const parsed = parsePattern(pattern)
    const issue = parsed.issues[0]
    if (issue !== undefined) {
      throw invalidTransformation(
        issue.code === 'invalid_syntax'
          ? `${MESSAGES.invalidPattern}: ${issue.message} in '${issue.operation.slice(0, 80)}'`
          : issue.message,
      )
    }
    const used = new Set<string>()
    for (const operation of parsed.value) {
      if (operation.presetName === name) throw invalidTransformation(MESSAGES.presetTooDeep(name))
      for (const value of Object.values(operation.params)) {
        if (typeof value === 'string' && value.startsWith('$')) used.add(value.slice(1))
      }
    }
    for (const variable of used) {
      if (!Object.hasOwn(params, variable)) {
        throw invalidTransformation(MESSAGES.variableNotDefined(variable))
      }
    }
    for (const operation of parsed.value) {
      if (operation.presetName === undefined) continue
      const other = await repo.findPreset(organisationId, operation.presetName)
      if (other === undefined)
        throw invalidTransformation(MESSAGES.presetInvalid(operation.presetName))
      if (other.archived) throw invalidTransformation(MESSAGES.presetArchived(operation.presetName))
    }
    const defaults = [...used].every((variable) => {
      const given = params[variable]?.default
      return given !== undefined && given !== null
    })
    if (!defaults) {
      if (parsed.value.length > MAX_TRANSFORMATIONS) {
        throw invalidTransformation(MESSAGES.maxTransformations)
      }
      return
    }
    let expanded: string
    try {
      expanded = await expandStored(organisationId, `p:${name}`, {
        name,
        definition: {
          transformation: pattern,
          params: params as PresetDefinition['params'],
        },
      })
    } catch (error) {
      if (isUrlError(error)) throw invalidTransformation(error.message)
      throw error
    }
    const whole = parsePattern(expanded)
    const problem = whole.issues[0]
    if (problem !== undefined) throw invalidTransformation(problem.message)
    if (whole.value.length > MAX_TRANSFORMATIONS) {
      throw invalidTransformation(MESSAGES.maxTransformations)
    }
  }

  return { checkPreset }
}
