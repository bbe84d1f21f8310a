// The OpenAPI part of delivery: images by URL, in the v2 and v1 forms.
import { DPR_RANGE } from '@tessera/url'
import {
  failure,
  type OpenApiOperation,
  type OpenApiPart,
  type OpenApiResponse,
  str,
} from '../http/openapi-kit.ts'

const image = (description: string): OpenApiResponse => ({
  description,
  content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
})

const delivery = (version: 'v1' | 'v2'): OpenApiOperation => ({
  operationId: `deliver${version.toUpperCase()}`,
  summary: `Deliver an image, transformed by the pattern in its URL (${version})`,
  description:
    'The path is /{cloudName}/{zone?}/{pattern}/{filePath}: pattern is `original` or operations joined by ~ (docs/delivery.md); filePath may contain slashes. Query options dpr and f_auto; signed URLs carry pbs/pbe/pbt.',
  tags: ['delivery'],
  parameters: [
    { name: 'cloudName', in: 'path', required: true, schema: str(), example: 'demo' },
    {
      name: 'pattern',
      in: 'path',
      required: true,
      schema: str(),
      example: 't.resize(w:300)',
    },
    {
      name: 'filePath',
      in: 'path',
      required: true,
      description: 'May contain slashes',
      schema: str(),
      example: 'samples/astronaut.png',
    },
    {
      name: 'dpr',
      in: 'query',
      schema: str(`auto, or ${DPR_RANGE.min} to ${DPR_RANGE.max.toFixed(1)}`),
    },
    { name: 'f_auto', in: 'query', schema: { type: 'string', enum: ['true', 'false'] } },
  ],
  responses: {
    '200': image('The image'),
    '202': failure('An AI operation is running; retry (SPEC §4)'),
    '304': { description: 'Not modified (If-None-Match)' },
    '400': failure('The URL or pattern is invalid, or a parameter or option is repeated'),
    '401': failure('A signed URL is required and missing, altered, expired or has extra query'),
    '404': failure('No such organisation or file'),
    '429': failure(
      'too_many_renders: too many cache misses from this address (RENDER_LIMIT_PER_MINUTE); daily_limit_exceeded: a visitor started its ANON_AI_RUNS_PER_DAY new AI renders of the demo today',
    ),
  },
})

export const DELIVERY_OPENAPI: OpenApiPart = {
  tags: [{ name: 'delivery', description: 'Images by URL' }],
  schemas: {},
  paths: {
    '/v2/{cloudName}/{pattern}/{filePath}': { get: delivery('v2') },
    '/v1/{cloudName}/{pattern}/{filePath}': { get: delivery('v1') },
  },
}
