// The input of a prediction (SPEC §2.8): its parameters checked against the prediction's input
// schema and turned into a delivery pattern, and the image it reads named by path, delivery URL
// or http(s) URL. Every failure is a 400 `invalid_input` naming the field.
import { type OperationSpec, parsePattern } from '@tessera/url'
import type { InputField, Prediction } from '../content/content.ts'
import { HttpError } from '../http/errors.ts'

const MAX_IMAGE_REFERENCE = 2048
// Text parameters go into a delivery pattern, so they keep to characters the pattern language
// reads as a value.
const TEXT_VALUE = /^[A-Za-z0-9_.#-]{0,200}$/

export const invalidInput = (message: string) => new HttpError(400, 'invalid_input', message)

/** Checks one parameter value against its field of the input schema. */
function checkField(name: string, field: InputField, value: unknown, maxNumber: number): string {
  switch (field.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw invalidInput(`${name} must be true or false`)
      return String(value)
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw invalidInput(`${name} must be a number`)
      }
      if (field.type === 'integer' && !Number.isInteger(value)) {
        throw invalidInput(`${name} must be a whole number`)
      }
      // No number goes past the engine's output limit (sizes), even where the catalogue allows
      // more: the job would only fail after it was charged.
      const minimum = field.minimum ?? 0
      const maximum = Math.min(field.maximum ?? maxNumber, maxNumber)
      if (value < minimum) throw invalidInput(`${name} must be at least ${minimum}`)
      if (value > maximum) throw invalidInput(`${name} must be at most ${maximum}`)
      return String(value)
    }
    case 'string': {
      if (typeof value !== 'string') throw invalidInput(`${name} must be a string`)
      if (field.enum !== undefined && !field.enum.includes(value)) {
        throw invalidInput(`${name} must be one of ${field.enum.join(', ')}`)
      }
      if (field.pattern !== undefined && !new RegExp(field.pattern).test(value)) {
        throw invalidInput(`${name} is not in the expected form (${field.pattern})`)
      }
      if (!TEXT_VALUE.test(value)) {
        throw invalidInput(`${name} may use letters, digits and _ . # - only (at most 200)`)
      }
      return value
    }
  }
}

/**
 * The delivery pattern a prediction's input asks for, e.g. `ic.crop(w:200,h:200,g:face)`.
 * Numbers are kept within the catalogue's bounds and from 0 to `maxNumber` (the output limit).
 *
 * @throws {HttpError} 400 `invalid_input` naming the first bad field.
 */
export function patternOf(
  prediction: Prediction,
  input: Record<string, unknown>,
  maxNumber: number,
): string {
  const { properties } = prediction.inputSchema
  const operation: OperationSpec = prediction.operation
  const values: string[] = []
  for (const [name, value] of Object.entries(input)) {
    if (name === 'image') continue
    const field = properties[name]
    if (field === undefined) {
      throw invalidInput(
        `${JSON.stringify(name.slice(0, 40))} is not an input of ${prediction.id}; it takes image${
          Object.keys(properties).length > 1
            ? `, ${Object.keys(properties)
                .filter((key) => key !== 'image')
                .join(', ')}`
            : ''
        }`,
      )
    }
    if (value === null || value === undefined) continue
    values.push(`${field['x-param']}:${checkField(name, field, value, maxNumber)}`)
  }
  const pattern = `${operation.key}(${values.join(',')})`
  const issue = parsePattern(pattern).issues[0]
  if (issue !== undefined) throw invalidInput(issue.message)
  return pattern
}

/** The `image` of an input, checked as text. */
export function readSourceText(input: Record<string, unknown>): string {
  const image = input.image
  if (image === undefined || image === null) throw invalidInput('image is required')
  if (typeof image !== 'string' || image.trim() === '') {
    throw invalidInput('image must be a file path of the organisation or an http(s) URL')
  }
  if (image.length > MAX_IMAGE_REFERENCE) {
    throw invalidInput(`image must be at most ${MAX_IMAGE_REFERENCE} characters`)
  }
  return image.trim()
}
