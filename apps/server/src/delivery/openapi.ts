// The declared calls of delivery: images by URL, in the v2 and v1 forms.
import { DPR_RANGE } from '@tessera/url'
import { z } from 'zod'
import { type ApiPart, failure, formatted, route } from '../http/openapi-kit.ts'

// The v2 and v1 forms answer alike; only their prefix differs.
const deliver = (version: 'v2' | 'v1') =>
  route({
    method: 'get',
    path: `/${version}/{cloudName}/{pattern}/{filePath}`,
    operationId: `deliver${version.toUpperCase()}`,
    summary: `Deliver an image, transformed by the pattern in its URL (${version})`,
    description:
      'The path is /{cloudName}/{zone?}/{pattern}/{filePath}: pattern is `original` or operations joined by ~ (docs/delivery.md); filePath may contain slashes. Query options dpr and f_auto; signed URLs carry pbs/pbe/pbt.',
    tags: ['delivery'],
    params: z.object({
      cloudName: z.string().meta({ example: 'demo' }),
      pattern: z.string().meta({ example: 't.resize(w:300)' }),
      filePath: z
        .string()
        .meta({ example: 'samples/astronaut.png' })
        .describe('May contain slashes'),
    }),
    query: z.object({
      dpr: z
        .string()
        .describe(`auto, or ${DPR_RANGE.min} to ${DPR_RANGE.max.toFixed(1)}`)
        .optional(),
      f_auto: z.enum(['true', 'false']).optional(),
    }),
    responses: {
      '200': {
        description: 'The image',
        content: { 'image/*': { schema: formatted('binary') } },
      },
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

export const DELIVERY_OPENAPI: ApiPart = {
  tags: [{ name: 'delivery', description: 'Images by URL' }],
  schemas: {},
  routes: [deliver('v2'), deliver('v1')],
}
