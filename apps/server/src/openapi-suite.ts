// Test support: checks a JSON value against a schema of the served OpenAPI document, for the
// suites that hold every answer they see to what the document says.
import type { JsonSchema, OpenApiDocument } from './openapi.ts'

/**
 * Checks `value` against the subset of JSON Schema the document uses; returns the problems.
 * `closed`: a property an object schema does not name is a problem too (the answers of the assets
 * API name every property they send).
 */
export function conform(
  document: OpenApiDocument,
  schema: JsonSchema,
  value: unknown,
  at = '$',
  closed = false,
): string[] {
  const check = (inner: JsonSchema, child: unknown, path: string) =>
    conform(document, inner, child, path, closed)
  if (schema.$ref !== undefined) {
    const target = document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]
    return target === undefined ? [`${at}: unknown ${schema.$ref}`] : check(target, value, at)
  }
  if (schema.oneOf !== undefined) {
    const fits = schema.oneOf.filter((option) => check(option, value, at).length === 0)
    return fits.length === 1 ? [] : [`${at}: fits ${fits.length} of oneOf`]
  }
  const typeOf = (v: unknown) =>
    v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v
  const actual = typeOf(value)
  const types = schema.type === undefined ? [] : [schema.type].flat()
  if (
    types.length > 0 &&
    !types.includes(actual as never) &&
    !(actual === 'integer' && types.includes('number'))
  ) {
    return [`${at}: expected ${types.join('|')}, got ${actual}`]
  }
  const problems: string[] = []
  if (schema.const !== undefined && schema.const !== value)
    problems.push(`${at}: not ${schema.const}`)
  if (schema.enum !== undefined && !schema.enum.includes(value as never)) {
    problems.push(`${at}: ${JSON.stringify(value)} not in enum`)
  }
  if (actual === 'object') {
    const record = value as Record<string, unknown>
    for (const key of schema.required ?? [])
      if (!(key in record)) problems.push(`${at}: missing ${key}`)
    for (const [key, child] of Object.entries(record)) {
      const property = schema.properties?.[key]
      if (property !== undefined) problems.push(...check(property, child, `${at}.${key}`))
      else if (typeof schema.additionalProperties === 'object') {
        problems.push(...check(schema.additionalProperties, child, `${at}.${key}`))
      } else if (closed && schema.properties !== undefined) {
        problems.push(`${at}: undocumented ${key}`)
      }
    }
    if (schema.maxProperties !== undefined && Object.keys(record).length > schema.maxProperties) {
      problems.push(`${at}: more than ${schema.maxProperties} properties`)
    }
  }
  if (actual === 'array' && schema.items !== undefined) {
    const items = schema.items
    ;(value as unknown[]).forEach((child, index) => {
      problems.push(...check(items, child, `${at}[${index}]`))
    })
  }
  return problems
}
