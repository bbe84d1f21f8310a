// The types and small builders every part of the OpenAPI document is written with.

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null'

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), as far as this document needs. */
export interface JsonSchema {
  $ref?: string
  type?: JsonType | readonly JsonType[]
  description?: string
  format?: string
  enum?: readonly (string | number | boolean)[]
  const?: string | number | boolean
  default?: string | number | boolean
  minimum?: number
  maximum?: number
  maxLength?: number
  pattern?: string
  properties?: Record<string, JsonSchema>
  required?: readonly string[]
  additionalProperties?: boolean | JsonSchema
  maxProperties?: number
  items?: JsonSchema
  oneOf?: readonly JsonSchema[]
  anyOf?: readonly JsonSchema[]
  examples?: readonly unknown[]
}

export interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header'
  description?: string
  required?: boolean
  schema: JsonSchema
  /** Path parameters always carry one: the route test calls every path with its examples. */
  example?: string | number | boolean
  style?: 'form' | 'deepObject' | 'simple'
  explode?: boolean
}

export interface OpenApiMediaType {
  schema: JsonSchema
  example?: unknown
}

export interface OpenApiResponse {
  description: string
  headers?: Record<string, { description?: string; schema: JsonSchema }>
  content?: Record<string, OpenApiMediaType>
}

export interface OpenApiOperation {
  operationId: string
  summary: string
  description?: string
  tags: readonly string[]
  parameters?: readonly OpenApiParameter[]
  requestBody?: { required?: boolean; content: Record<string, OpenApiMediaType> }
  responses: Record<string, OpenApiResponse>
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>>

export interface OpenApiDocument {
  openapi: '3.1.0'
  info: {
    title: string
    version: string
    description: string
    license: { name: string; identifier: string }
  }
  servers: readonly { url: string; description: string }[]
  tags: readonly { name: string; description: string }[]
  paths: Record<string, OpenApiPathItem>
  components: { schemas: Record<string, JsonSchema> }
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
export const str = (description?: string): JsonSchema =>
  description === undefined ? { type: 'string' } : { type: 'string', description }
export const int = (description?: string): JsonSchema =>
  description === undefined ? { type: 'integer' } : { type: 'integer', description }
export const bool: JsonSchema = { type: 'boolean' }
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' }
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items })
export const object = (
  properties: Record<string, JsonSchema>,
  required: readonly string[] = Object.keys(properties),
): JsonSchema => ({ type: 'object', properties, required })

export const json = (schema: JsonSchema, description: string): OpenApiResponse => ({
  description,
  content: { 'application/json': { schema } },
})
export const cached = (response: OpenApiResponse): OpenApiResponse => ({
  ...response,
  headers: {
    'Cache-Control': { description: 'public, max-age=60', schema: { type: 'string' } },
  },
})
export const withCookie = (response: OpenApiResponse): OpenApiResponse => ({
  ...response,
  headers: {
    'Set-Cookie': {
      description: 'bg.session=<token>; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax[; Secure]',
      schema: { type: 'string' },
    },
  },
})
export const failure = (description: string): OpenApiResponse => json(ref('Error'), description)
export const badQuery = failure('A query parameter is invalid, repeated, too long or out of range')

export const pageNo: OpenApiParameter = {
  name: 'pageNo',
  in: 'query',
  description: 'Page to answer, from 1 (default 1)',
  schema: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
}
export const pageSize = (fallback: number): OpenApiParameter => ({
  name: 'pageSize',
  in: 'query',
  description: `Items per page (default ${fallback})`,
  schema: { type: 'integer', minimum: 1, maximum: 100, default: fallback },
})

/** A slice of the document that one API module describes (merged by buildOpenApiDocument). */
export interface OpenApiPart {
  tags: readonly { name: string; description: string }[]
  paths: Record<string, OpenApiPathItem>
  schemas: Record<string, JsonSchema>
}
