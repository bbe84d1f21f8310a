// The OpenAPI 3.1 description of the server's HTTP calls, served at /service/openapi.json. It is
// a typed object rather than a file so the compiler keeps it well-formed; a test checks that
// every route the app registers under /service, /cms and /api is described here and answers.
// Each feature describes its own calls (its `*openapi.ts`); this file puts them together in one
// fixed order, so the document is the same byte for byte whatever changes inside a part.
import { IDENTITY_OPENAPI } from './accounts/identity-openapi.ts'
import { ACCOUNT_API } from './accounts/openapi.ts'
import { ASSET_API } from './assets/openapi.ts'
import { UPLOAD_OPENAPI } from './assets/upload-openapi.ts'
import { BILLING_API } from './billing/openapi.ts'
import { PLAN_OPENAPI } from './billing/plan-openapi.ts'
import { contentOpenApi } from './content/openapi.ts'
import { DELIVERY_OPENAPI } from './delivery/openapi.ts'
import {
  cached,
  failure,
  int,
  type JsonSchema,
  json,
  OPENAPI_PATH,
  type OpenApiDocument,
  type OpenApiPart,
  object,
  ref,
  str,
} from './http/openapi-kit.ts'
import { PLAYGROUND_OPENAPI } from './playground/openapi.ts'
import { PREDICTIONS_API } from './predictions/openapi.ts'
import { TRANSFORMATION_OPENAPI } from './transformation/openapi.ts'

export type {
  HttpMethod,
  JsonSchema,
  JsonType,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
} from './http/openapi-kit.ts'

/** Where the document points its examples: real slugs and ids of the content. */
export interface OpenApiOptions {
  publicUrl: string
  appSlug: string
  predictionId: string
}

/** The error and page shapes every API answers with. */
const COMMON_SCHEMAS: Record<string, JsonSchema> = {
  Error: object({
    code: str('Stable machine-readable code, e.g. invalid_query, not_found'),
    message: str('What went wrong, for people'),
  }),
  Page: object({
    current: int('This page number (from 1)'),
    size: int('Page size'),
    hasNext: { type: 'boolean', description: 'Whether a later page has items' },
    itemTotal: int('Number of items on all pages'),
    type: { type: 'string', const: 'number' },
  }),
}

/** Health, readiness and metrics, and this document. */
const OPERATIONS: OpenApiPart = {
  tags: [{ name: 'operations', description: 'Health, readiness and metrics' }],
  schemas: {
    Health: object({ status: { type: 'string', const: 'ok' } }),
    Ready: object({
      status: { type: 'string', enum: ['ok', 'unavailable'] },
      database: { type: 'string', enum: ['ok', 'unavailable'] },
      storage: { type: 'string', enum: ['ok', 'unavailable'] },
    }),
  },
  paths: {
    '/healthz': {
      get: {
        operationId: 'healthz',
        summary: 'Alive',
        tags: ['operations'],
        responses: { '200': json(ref('Health'), 'The process answers') },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz',
        summary: 'Database and storage reachable',
        tags: ['operations'],
        responses: {
          '200': json(ref('Ready'), 'Ready'),
          '503': json(ref('Ready'), 'Something is unavailable'),
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        description:
          'With METRICS_TOKEN set, requires Authorization: Bearer <token>; without it, answers loopback clients only.',
        tags: ['operations'],
        responses: {
          '200': { description: 'Prometheus text', content: { 'text/plain': { schema: str() } } },
          '401': failure('METRICS_TOKEN is set and the bearer token is missing or wrong'),
          '403': failure('No METRICS_TOKEN is set and the client is not on this machine'),
        },
      },
    },
  },
}

/** Builds the OpenAPI 3.1 document of every call the server answers. */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const content = contentOpenApi(options)
  // The organisation-owned APIs come first in `paths` and last in `tags` and `schemas`.
  const owned: readonly OpenApiPart[] = [
    ACCOUNT_API,
    BILLING_API,
    PREDICTIONS_API,
    TRANSFORMATION_OPENAPI,
    ASSET_API,
  ]
  const open: readonly OpenApiPart[] = [
    PLAN_OPENAPI,
    content,
    IDENTITY_OPENAPI,
    UPLOAD_OPENAPI,
    DELIVERY_OPENAPI,
    PLAYGROUND_OPENAPI,
    OPERATIONS,
  ]
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera',
      version: '1.0.0',
      description:
        'Image storage, transformation and delivery. Public content calls need no session; errors answer { code, message }.',
      license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
    },
    servers: [{ url: options.publicUrl, description: 'This server' }],
    tags: [...open, ...owned].flatMap((part) => part.tags),
    paths: Object.assign(
      {},
      ...owned.map((part) => part.paths),
      PLAN_OPENAPI.paths,
      content.paths,
      {
        [OPENAPI_PATH]: {
          get: {
            operationId: 'getOpenApi',
            summary: 'This document',
            tags: ['operations'],
            responses: { '200': cached(json({ type: 'object' }, 'OpenAPI 3.1 document')) },
          },
        },
      },
      IDENTITY_OPENAPI.paths,
      UPLOAD_OPENAPI.paths,
      DELIVERY_OPENAPI.paths,
      PLAYGROUND_OPENAPI.paths,
      OPERATIONS.paths,
    ),
    components: {
      schemas: Object.assign(
        {},
        IDENTITY_OPENAPI.schemas,
        COMMON_SCHEMAS,
        PLAN_OPENAPI.schemas,
        content.schemas,
        UPLOAD_OPENAPI.schemas,
        PLAYGROUND_OPENAPI.schemas,
        OPERATIONS.schemas,
        ...owned.map((part) => part.schemas),
      ),
    },
  }
}
