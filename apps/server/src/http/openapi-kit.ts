// Routes declared once, documented from their zod schemas. A feature lists its calls as
// `route({ method, path, summary, tags, params, query, body, responses })`, or those of one tag
// under one base path as a router lists them: `files.get('/files/{fileId}', 'getFile', 'viewer',
// { summary, params, responses })` (`orgCalls`, `calls`); the document builder
// (`../openapi.ts`) turns every declaration into an OpenAPI 3.1 operation with zod's own JSON
// Schema output (`z.toJSONSchema`), so no operation, parameter or body is written as JSON by hand.
import { PUBLIC_API_PATHS } from '@tessera/url'
import { z } from 'zod'

/** Where the server serves its OpenAPI document. */
export const OPENAPI_PATH = PUBLIC_API_PATHS.openapi

import type { HttpMethod } from './openapi-types.ts'

export type { HttpMethod, JsonSchema, OpenApiDocument } from './openapi-types.ts'

/** One answer of a call: a JSON schema (`schema`) or other media types (`content`). */
export interface Answer {
  description: string
  schema?: z.ZodType
  example?: unknown
  content?: Record<string, { schema: z.ZodType; example?: unknown }>
  headers?: Record<string, { description?: string; schema: z.ZodType }>
}

/** A request body: JSON (`schema`) or other media types (`content`). */
export interface Body {
  required?: boolean
  schema?: z.ZodType
  example?: unknown
  content?: Record<string, { schema: z.ZodType; example?: unknown }>
}

/**
 * One call the server answers. Parameters are zod objects whose fields carry their description
 * (`.describe`) and, for path parameters, the `example` the route test calls (`.meta`).
 */
export interface RouteDeclaration {
  method: HttpMethod
  /** The OpenAPI form, `/dynamicApps/{slug}`. */
  path: string
  operationId: string
  summary: string
  description?: string
  tags: readonly string[]
  params?: z.ZodObject
  query?: z.ZodObject
  headers?: z.ZodObject
  body?: Body
  responses: Record<string, Answer>
  /** Who may make a call on an organisation (`orgRoute`): its weakest role, and API tokens. */
  access?: OrgAccess
}

/**
 * The roles of an organisation, weakest first (decision 019): viewers read, members also upload
 * and edit files, folders and presets and run AI, admins also manage settings, keys, tokens and
 * members, owners also pay and make owners.
 */
export const ORG_ROLES = ['viewer', 'member', 'admin', 'owner'] as const
export type OrgRole = (typeof ORG_ROLES)[number]

/** The role API tokens act with: they upload and edit, never administer or pay. */
export const TOKEN_ROLE: OrgRole = 'member'

/** Who may make a call on an organisation. */
export interface OrgAccess {
  /** The weakest role that may make the call. */
  role: OrgRole
  /** Whether API tokens may: `true` lets them past the role, `false` never; by default when
   * `TOKEN_ROLE` is strong enough. */
  tokens?: boolean
}

/** Whether `role` is `needed` or stronger. */
export const roleAtLeast = (role: OrgRole, needed: OrgRole) =>
  ORG_ROLES.indexOf(role) >= ORG_ROLES.indexOf(needed)

/** Whether API tokens may make a call of this access. */
export const tokensMay = (access: OrgAccess) =>
  access.tokens ?? roleAtLeast(TOKEN_ROLE, access.role)

/** Declares a route; the declaration is what the document describes. */
export function route(declaration: RouteDeclaration): RouteDeclaration {
  return declaration
}

/** The calls, shared schemas (components) and tags one feature declares. */
export interface ApiPart {
  tags: readonly { name: string; description: string }[]
  schemas: Record<string, z.ZodType>
  routes: readonly RouteDeclaration[]
}

const refs = new WeakMap<z.ZodType, string>()

/** A reference to the shared schema `name` (a component of some part). */
export function ref(name: string): z.ZodType {
  const schema = z.unknown()
  refs.set(schema, name)
  return schema
}

/** The component a `ref` placeholder names, if `schema` is one. */
export function refName(schema: z.ZodType): string | undefined {
  return refs.get(schema)
}

/** `type: 'string', format` without the long pattern zod adds to its own string formats. */
export const formatted = (format: string, description?: string) =>
  z.string().meta(description === undefined ? { format } : { format, description })
export const dateTime = formatted('date-time')

/** The error body every API answers with. */
export const ErrorBody = z.object({
  code: z.string().describe('Stable machine-readable code, e.g. invalid_query, not_found'),
  message: z.string().describe('What went wrong, for people'),
})

/** The `page` object of paged answers (`paging.ts`). */
export const PageBody = z.object({
  current: z.int().describe('This page number (from 1)'),
  size: z.int().describe('Page size'),
  hasNext: z.boolean().describe('Whether a later page has items'),
  itemTotal: z.int().describe('Number of items on all pages'),
  type: z.literal('number'),
})

export const json = (schema: z.ZodType, description: string): Answer => ({ description, schema })
export const cached = (answer: Answer): Answer => ({
  ...answer,
  headers: { 'Cache-Control': { description: 'public, max-age=60', schema: z.string() } },
})
export const withCookie = (answer: Answer): Answer => ({
  ...answer,
  headers: {
    'Set-Cookie': {
      description: 'bg.session=<token>; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax[; Secure]',
      schema: z.string(),
    },
  },
})
export const failure = (description: string): Answer => json(ref('Error'), description)
export const badQuery = failure('A query parameter is invalid, repeated, too long or out of range')

/** The id every uuid path parameter shows as its example (the route test calls it). */
export const EXAMPLE_ID = '00000000-0000-4000-8000-000000000000'

/** A required uuid path parameter. */
export const uuidParam = (description: string) =>
  formatted('uuid', description).meta({ example: EXAMPLE_ID })

/** The `{orgId}` of every organisation-owned path. */
export const orgIdParam = uuidParam('The organisation (`_id` from the organisation list)')

/** The failures of every call on an organisation. */
export const ORG_ERRORS: Record<string, Answer> = {
  '401': failure('unauthenticated (no session) or invalid_token'),
  '404': failure('organisation_not_found: not an organisation of yours (or not an id at all)'),
}

/** The failures of a JSON body too large or of another type (`readJsonBody`'s limits). */
export const JSON_BODY_LIMITS: Record<string, Answer> = {
  '413': failure('too_large: body over 64 KB'),
  '415': failure('unsupported_media_type: not application/json'),
}

/** The failures of reading a JSON body. */
export const JSON_BODY_ERRORS: Record<string, Answer> = {
  '400': failure('invalid_json, invalid_body (naming the field), or a signature_* problem'),
  ...JSON_BODY_LIMITS,
}

/** A call that needs a session or an API token, made with neither. */
export const TOKEN_ERRORS: Record<string, Answer> = {
  '401': failure('unauthenticated or invalid_token'),
}

/** The failures of fetching a remote source (uploads and downloads by URL). */
export const SOURCE_ERRORS: Record<string, Answer> = {
  '502': failure('The source failed'),
  '504': failure('The source was too slow'),
}

/** Something of an organisation not found: `organisation_not_found, or ${what}`. */
export const notFoundIn = (what: string) => ({
  '404': failure(`organisation_not_found, or ${what}`),
})

/** A page of the shared schema `item`: `{ items, page }` (`paging.ts`). */
export const pagedList = (item: string) =>
  z.object({ items: z.array(ref(item)), page: ref('Page') })

/**
 * A call on an organisation: `{orgId}` among its path parameters, `ORG_ERRORS` among answers, and
 * the access it needs (required: a call without a role fails to compile, and the role × call test
 * reads it from the document).
 */
export const orgRoute = (
  declaration: Omit<RouteDeclaration, 'params' | 'access'> & {
    params?: z.ZodRawShape
    access: OrgAccess
  },
): RouteDeclaration => {
  const { access } = declaration
  const needs = `Needs the ${access.role} role or above${tokensMay(access) ? '; API tokens may call it' : '; API tokens may not'}.`
  const refused =
    access.role !== 'viewer' || !tokensMay(access) ? { '403': failure(`forbidden: ${needs}`) } : {}
  return {
    ...declaration,
    description:
      declaration.description === undefined ? needs : `${declaration.description}\n\n${needs}`,
    params: z.object({ orgId: orgIdParam, ...declaration.params }),
    responses: { ...ORG_ERRORS, ...refused, ...declaration.responses },
  }
}

/** What a call declares besides its method, path, operationId, tag and access. */
export type CallParts = Omit<
  RouteDeclaration,
  'method' | 'path' | 'operationId' | 'tags' | 'params' | 'access'
> & { params?: z.ZodRawShape; access?: OrgAccess }

const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete']

const byMethod = <Declare>(declare: (method: HttpMethod) => Declare) =>
  Object.fromEntries(METHODS.map((method) => [method, declare(method)])) as Record<
    HttpMethod,
    Declare
  >

/**
 * The calls of one tag under `base`, by method: `platform.get('/files/id/{id}', 'getFileById',
 * { summary, params, responses })` declares `GET ${base}/files/id/{id}`; every call also answers
 * `shared`.
 */
export const calls = (base: string, tag: string, shared: Record<string, Answer> = {}) =>
  byMethod(
    (method) =>
      (path: string, operationId: string, { params, ...parts }: CallParts): RouteDeclaration => ({
        method,
        path: `${base}${path}`,
        operationId,
        tags: [tag],
        ...(params === undefined ? {} : { params: z.object(params) }),
        ...parts,
        responses: { ...shared, ...parts.responses },
      }),
  )

/**
 * The calls of one tag on an organisation, by method: `files.get('/files/{fileId}', 'getFile',
 * 'viewer', { summary, params, responses })` declares `GET ${base}/{orgId}/files/{fileId}` as
 * `orgRoute` does, for viewers and above (a role, or the whole `OrgAccess`); every call also
 * answers `shared`.
 */
export const orgCalls = (base: string, tag: string, shared: Record<string, Answer> = {}) =>
  byMethod(
    (method) =>
      (
        path: string,
        operationId: string,
        access: OrgRole | OrgAccess,
        parts: Omit<CallParts, 'access'>,
      ) =>
        orgRoute({
          method,
          path: `${base}/{orgId}${path}`,
          operationId,
          access: typeof access === 'string' ? { role: access } : access,
          tags: [tag],
          ...parts,
          responses: { ...shared, ...parts.responses },
        }),
  )
