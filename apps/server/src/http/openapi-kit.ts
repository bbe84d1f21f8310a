// The types and small builders every part of the OpenAPI document is written with.
import { PUBLIC_API_PATHS } from '@tessera/url'
import { MAX_PAGE_NO, MAX_PAGE_SIZE } from './paging.ts'

/** Where the server serves its OpenAPI document. */
export const OPENAPI_PATH = PUBLIC_API_PATHS.openapi

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
  requestBody?: {
    required?: boolean
    content: Record<string, OpenApiMediaType>
  }
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

export const ref = (name: string): JsonSchema => ({
  $ref: `#/components/schemas/${name}`,
})
export const str = (description?: string): JsonSchema =>
  description === undefined ? { type: 'string' } : { type: 'string', description }
export const int = (description?: string): JsonSchema =>
  description === undefined ? { type: 'integer' } : { type: 'integer', description }
export const bool: JsonSchema = { type: 'boolean' }
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' }
export const arrayOf = (items: JsonSchema): JsonSchema => ({
  type: 'array',
  items,
})
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
    'Cache-Control': {
      description: 'public, max-age=60',
      schema: { type: 'string' },
    },
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
  schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NO, default: 1 },
}
export const pageSize = (fallback: number): OpenApiParameter => ({
  name: 'pageSize',
  in: 'query',
  description: `Items per page (default ${fallback})`,
  schema: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: fallback,
  },
})

/** A slice of the document that one API module describes (merged by buildOpenApiDocument). */
export interface OpenApiPart {
  tags: readonly { name: string; description: string }[]
  paths: Record<string, OpenApiPathItem>
  schemas: Record<string, JsonSchema>
}

/** The id every uuid path parameter shows as its example (the route test calls it). */
export const EXAMPLE_ID = '00000000-0000-4000-8000-000000000000'

/** A required uuid path parameter. */
export const uuidParam = (name: string, description: string): OpenApiParameter => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', format: 'uuid' },
  example: EXAMPLE_ID,
})

/** The `{orgId}` of every organisation-owned path. */
export const orgIdParam = uuidParam('orgId', 'The organisation (`_id` from the organisation list)')

/** A required JSON request body. */
export const jsonBody = (schema: JsonSchema) => ({
  required: true,
  content: { 'application/json': { schema } },
})

/** The failures of every call on an organisation. */
export const ORG_ERRORS: Record<string, OpenApiResponse> = {
  '401': failure('unauthenticated (no session) or invalid_token'),
  '404': failure('organisation_not_found: not an organisation of yours (or not an id at all)'),
}

/** The failures of reading a JSON body. */
export const JSON_BODY_ERRORS: Record<string, OpenApiResponse> = {
  '400': failure('invalid_json, invalid_body (naming the field), or a signature_* problem'),
  '413': failure('too_large: body over 64 KB'),
  '415': failure('unsupported_media_type: not application/json'),
}

/** An operation on an organisation (`{orgId}` in its path, `ORG_ERRORS` among its answers). */
export const orgOperation = (
  operationId: string,
  summary: string,
  tags: string[],
  responses: Record<string, OpenApiResponse>,
  extra: Partial<OpenApiOperation> = {},
): OpenApiOperation => ({
  operationId,
  summary,
  tags,
  parameters: [orgIdParam],
  ...extra,
  responses: { ...ORG_ERRORS, ...responses },
})
