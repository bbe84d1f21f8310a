// Turns route declarations (`openapi-kit.ts`) into OpenAPI 3.1 path items and components with
// zod's own JSON Schema output. Every body and answer schema goes through one `z.toJSONSchema`
// pass over a registry, so shared schemas come out once under components and the rest inline.
import { z } from 'zod'
import type { Answer, ApiPart, Body, HttpMethod, RouteDeclaration } from './openapi-kit.ts'
import { refName, tokensMay } from './openapi-kit.ts'
import type {
  JsonSchema,
  OpenApiMediaType,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
} from './openapi-types.ts'

const COMPONENTS = '#/components/schemas/'
const INLINE = '__inline_'
const SAFE = Number.MAX_SAFE_INTEGER

type Mutable = Record<string, unknown>
type Io = 'input' | 'output'

/** Shapes zod's output the way this document writes schemas. */
function override(ctx: { zodSchema: unknown; jsonSchema: Mutable }): void {
  const schema = ctx.jsonSchema
  const name = refName(ctx.zodSchema as z.ZodType)
  if (name !== undefined) {
    for (const key of Object.keys(schema)) delete schema[key]
    schema.$ref = `${COMPONENTS}${name}`
    return
  }
  // A number read from query text (`wholeNumber`) is documented as the integer, not its text.
  if (schema.type === 'integer') delete schema.pattern
  // zod writes its integer bounds and closes every object; the document states neither.
  if (schema.minimum === -SAFE) delete schema.minimum
  if (schema.maximum === SAFE) delete schema.maximum
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string; catchall?: unknown } } })._zod
    ?.def
  if (schema.additionalProperties === false && def?.type === 'object' && !def.catchall) {
    delete schema.additionalProperties
  }
}

function clean(schema: Mutable): JsonSchema {
  delete schema.$schema
  delete schema.$id
  return schema as JsonSchema
}

/** One parameter schema, with `description`, `example`, `style` and `explode` lifted out of it. */
function parametersOf(
  shape: z.ZodObject | undefined,
  where: OpenApiParameter['in'],
): OpenApiParameter[] {
  if (shape === undefined) return []
  return Object.entries(shape.shape).map(([name, field]) => {
    const schema = z.toJSONSchema(field as z.ZodType, {
      io: 'input',
      unrepresentable: 'any',
      override,
    }) as Mutable
    // zod leaves a default out of a schema it writes for input; the reader still wants it.
    const def = (field as { _zod: { def: { type: string; defaultValue?: unknown } } })._zod.def
    if (def.type === 'default' && schema.default === undefined) {
      // The default as a client would write it: `false` for a true/false text is 'false'.
      const value = def.defaultValue
      schema.default = schema.type === 'string' && typeof value !== 'string' ? String(value) : value
    }
    const { description, example, style, explode } = schema
    for (const key of ['description', 'example', 'style', 'explode']) delete schema[key]
    const required = where === 'path' || !(field as z.ZodType).safeParse(undefined).success
    const parameter: OpenApiParameter = { name, in: where, schema: clean(schema) }
    if (typeof description === 'string') parameter.description = description
    if (required) parameter.required = true
    if (example !== undefined) parameter.example = example as string
    if (style !== undefined) parameter.style = style as NonNullable<OpenApiParameter['style']>
    if (explode !== undefined) parameter.explode = explode as boolean
    return parameter
  })
}

/** Generates the path items and component schemas of `parts`, in their order. */
export function generateOpenApi(parts: readonly ApiPart[]): {
  paths: Record<string, OpenApiPathItem>
  schemas: Record<string, JsonSchema>
} {
  // Answers are written as the server sends them (zod's output), bodies as a client sends them
  // (input: before defaults and transforms). Each pass knows the components, so both refer to them.
  const passes = { output: z.registry<{ id: string }>(), input: z.registry<{ id: string }>() }
  const components = new Map<z.ZodType, string>()
  for (const part of parts) {
    for (const [id, schema] of Object.entries(part.schemas)) {
      components.set(schema, id)
      passes.output.add(schema, { id })
      passes.input.add(schema, { id })
    }
  }
  // Every inline schema gets a placeholder id so one pass writes them all; they are put back.
  const inline: { io: Io; id: string; set: (schema: JsonSchema) => void }[] = []
  const inlineIds = new Map<z.ZodType, string>()
  let io: Io = 'output'
  const use = (schema: z.ZodType, set: (value: JsonSchema) => void) => {
    const component = components.get(schema) ?? refName(schema)
    if (component !== undefined) {
      set({ $ref: `${COMPONENTS}${component}` })
      return
    }
    const registry = passes[io]
    let id = registry.get(schema)?.id
    if (id === undefined) {
      id = `${INLINE}${inlineIds.size}`
      inlineIds.set(schema, id)
      registry.add(schema, { id })
    }
    inline.push({ io, id, set })
  }
  const media = (
    content: Record<string, { schema: z.ZodType; example?: unknown }>,
  ): Record<string, OpenApiMediaType> =>
    Object.fromEntries(
      Object.entries(content).map(([type, { schema, example }]) => {
        const entry: OpenApiMediaType = { schema: {} }
        use(schema, (value) => {
          entry.schema = value
        })
        if (example !== undefined) entry.example = example
        return [type, entry]
      }),
    )
  const contentOf = (item: Answer | Body) =>
    item.content ??
    (item.schema === undefined
      ? undefined
      : { 'application/json': { schema: item.schema, example: item.example } })
  const response = (answer: Answer): OpenApiResponse => {
    const result: OpenApiResponse = { description: answer.description }
    if (answer.headers !== undefined) {
      result.headers = Object.fromEntries(
        Object.entries(answer.headers).map(([name, header]) => {
          const entry: { description?: string; schema: JsonSchema } = { schema: {} }
          if (header.description !== undefined) entry.description = header.description
          use(header.schema, (value) => {
            entry.schema = value
          })
          return [name, entry]
        }),
      )
    }
    const content = contentOf(answer)
    if (content !== undefined) result.content = media(content)
    return result
  }
  const operation = (declaration: RouteDeclaration): OpenApiOperation => {
    const result: OpenApiOperation = {
      operationId: declaration.operationId,
      summary: declaration.summary,
      tags: declaration.tags,
      responses: {},
    }
    if (declaration.description !== undefined) result.description = declaration.description
    if (declaration.access !== undefined) {
      result['x-required-role'] = declaration.access.role
      result['x-api-tokens'] = tokensMay(declaration.access)
    }
    const parameters = [
      ...parametersOf(declaration.params, 'path'),
      ...parametersOf(declaration.query, 'query'),
      ...parametersOf(declaration.headers, 'header'),
    ]
    if (parameters.length > 0) result.parameters = parameters
    if (declaration.body !== undefined) {
      io = 'input'
      const content = contentOf(declaration.body)
      result.requestBody = {
        ...(declaration.body.required === false ? {} : { required: true }),
        content: media(content ?? {}),
      }
      io = 'output'
    }
    const statuses = Object.keys(declaration.responses).sort()
    for (const status of statuses) {
      const answer = declaration.responses[status]
      if (answer !== undefined) result.responses[status] = response(answer)
    }
    return result
  }

  const paths: Record<string, OpenApiPathItem> = {}
  for (const part of parts) {
    for (const declaration of part.routes) {
      const item = paths[declaration.path] ?? {}
      item[declaration.method as HttpMethod] = operation(declaration)
      paths[declaration.path] = item
    }
  }
  const write = (pass: Io) =>
    z.toJSONSchema(passes[pass], {
      target: 'draft-2020-12',
      io: pass,
      unrepresentable: 'any',
      uri: (id) => `${COMPONENTS}${id}`,
      override,
    }).schemas as Record<string, Mutable>
  const generated = { output: write('output'), input: write('input') }
  for (const { io: pass, id, set } of inline) {
    const schema = generated[pass][id]
    if (schema !== undefined) set(structuredClone(clean(schema)))
  }
  const schemas: Record<string, JsonSchema> = {}
  for (const [id, schema] of Object.entries(generated.output)) {
    if (!id.startsWith(INLINE)) schemas[id] = clean(schema)
  }
  return { paths, schemas }
}
