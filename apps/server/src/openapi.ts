// The OpenAPI 3.1 description of the server's HTTP calls, served at /service/openapi.json. It is
// generated from the features' route declarations (`http/openapi-kit.ts`: each call declared once
// with its zod schemas); a test checks that every route the app registers under /service, /cms
// and /api is declared and answers, and that the document validates as OpenAPI 3.1. The parts
// come in one fixed order, so the document is the same byte for byte whatever changes inside one.
import { z } from 'zod'
import { IDENTITY_OPENAPI } from './accounts/identity-openapi.ts'
import { ACCOUNT_API } from './accounts/openapi.ts'
import { SETTINGS_API } from './accounts/settings-openapi.ts'
import { ACTIVITY_API } from './activity/openapi.ts'
import { ASSET_API } from './assets/openapi.ts'
import { PRESET_API } from './assets/preset-openapi.ts'
import { UPLOAD_OPENAPI } from './assets/upload-openapi.ts'
import { BILLING_API } from './billing/openapi.ts'
import { PLAN_OPENAPI } from './billing/plan-openapi.ts'
import { contentOpenApi } from './content/openapi.ts'
import { DELIVERY_OPENAPI } from './delivery/openapi.ts'
import { DOMAINS_API } from './domains/openapi.ts'
import { generateOpenApi } from './http/openapi-generate.ts'
import {
  type ApiPart,
  cached,
  ErrorBody,
  failure,
  json,
  OPENAPI_PATH,
  PageBody,
  ref,
  route,
} from './http/openapi-kit.ts'
import type { OpenApiDocument } from './http/openapi-types.ts'
import { PLATFORM_OPENAPI } from './pixelbin/openapi.ts'
import { PLATFORM_PREDICTION_OPENAPI } from './pixelbin/prediction-openapi.ts'
import { SIGNED_UPLOAD_OPENAPI } from './pixelbin/signed-upload-openapi.ts'
import { PLAYGROUND_OPENAPI } from './playground/openapi.ts'
import { PREDICTIONS_API } from './predictions/openapi.ts'
import { TRANSFORMATION_OPENAPI } from './transformation/openapi.ts'
import { WEBHOOK_OPENAPI } from './webhooks/openapi.ts'

export type {
  HttpMethod,
  JsonSchema,
  JsonType,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
} from './http/openapi-types.ts'

/** Where the document points its examples: real slugs and ids of the content. */
export interface OpenApiOptions {
  publicUrl: string
  appSlug: string
  predictionId: string
}

const status = z.enum(['ok', 'unavailable'])

/** The error and page shapes every API answers with. */
const COMMON: ApiPart = { tags: [], schemas: { Error: ErrorBody, Page: PageBody }, routes: [] }

/** Health, readiness and metrics, and this document. */
const OPERATIONS: ApiPart = {
  tags: [{ name: 'operations', description: 'Health, readiness and metrics' }],
  schemas: {
    Health: z.object({ status: z.literal('ok') }),
    Ready: z.object({ status, database: status, storage: status }),
  },
  routes: [
    route({
      method: 'get',
      path: '/healthz',
      operationId: 'healthz',
      summary: 'Alive',
      tags: ['operations'],
      responses: { '200': json(ref('Health'), 'The process answers') },
    }),
    route({
      method: 'get',
      path: '/readyz',
      operationId: 'readyz',
      summary: 'Database and storage reachable',
      tags: ['operations'],
      responses: {
        '200': json(ref('Ready'), 'Ready'),
        '503': json(ref('Ready'), 'Something is unavailable'),
      },
    }),
    route({
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      description:
        'With METRICS_TOKEN set, requires Authorization: Bearer <token>; without it, answers loopback clients only.',
      tags: ['operations'],
      responses: {
        '200': {
          description: 'Prometheus text',
          content: { 'text/plain': { schema: z.string() } },
        },
        '401': failure('METRICS_TOKEN is set and the bearer token is missing or wrong'),
        '403': failure('No METRICS_TOKEN is set and the client is not on this machine'),
      },
    }),
  ],
}

/** This document's own call. */
const DOCUMENT: ApiPart = {
  tags: [],
  schemas: {},
  routes: [
    route({
      method: 'get',
      path: OPENAPI_PATH,
      operationId: 'getOpenApi',
      summary: 'This document',
      tags: ['operations'],
      responses: {
        '200': cached(json(z.record(z.string(), z.unknown()), 'OpenAPI 3.1 document')),
      },
    }),
  ],
}

/** Builds the OpenAPI 3.1 document of every call the server answers. */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const content = contentOpenApi(options)
  // The organisation-owned APIs come first in `paths` and last in `tags` and `schemas`.
  const owned: readonly ApiPart[] = [
    ACCOUNT_API,
    SETTINGS_API,
    DOMAINS_API,
    ACTIVITY_API,
    BILLING_API,
    PREDICTIONS_API,
    TRANSFORMATION_OPENAPI,
    ASSET_API,
    PRESET_API,
    SIGNED_UPLOAD_OPENAPI,
    PLATFORM_PREDICTION_OPENAPI,
    WEBHOOK_OPENAPI,
  ]
  const rest: readonly ApiPart[] = [
    IDENTITY_OPENAPI,
    UPLOAD_OPENAPI,
    DELIVERY_OPENAPI,
    PLAYGROUND_OPENAPI,
    PLATFORM_OPENAPI,
    OPERATIONS,
  ]
  const open: readonly ApiPart[] = [PLAN_OPENAPI, content, ...rest]
  // This document's own call sits among the paths of the open parts; it adds no tag.
  const { paths, schemas } = generateOpenApi([
    COMMON,
    ...owned,
    PLAN_OPENAPI,
    content,
    DOCUMENT,
    ...rest,
  ])
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
    paths,
    components: { schemas },
  }
}
