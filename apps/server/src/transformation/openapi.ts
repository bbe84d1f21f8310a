// The declared call of the transformation context.
import { z } from 'zod'
import { type ApiPart, failure, formatted, ref, route } from '../http/openapi-kit.ts'

import { TRANSFORMATION_CONTEXT, TRANSFORMATION_PREVIEW } from './paths.ts'

export const TRANSFORMATION_OPENAPI: ApiPart = {
  tags: [
    {
      name: 'transformation context',
      description: "What each step of a delivery URL's chain did and found (detections)",
    },
  ],
  schemas: {
    TransformationContext: z.object({
      context: z.object({
        steps: z.array(
          z.object({
            name: z.string().describe('The method: bg of erase.bg'),
            identifier: z.string().describe('The plugin: erase'),
            operation: z.string().describe('Basic for t.*, otherwise the operation name'),
            data: z.looseObject({}).describe('What a detection found; {} otherwise'),
            params: z.looseObject({}).describe('The parameters as written'),
            width: z.int().describe('Width of the image after the step'),
            height: z.int(),
            hasAlpha: z.boolean(),
            channels: z.int(),
          }),
        ),
        metadata: z.looseObject({}).describe('The original file: size, format, dimensions'),
        output: z.object({
          format: z
            .string()
            .describe(
              'The format the URL answers in: a cut-out (erase.bg) keeps alpha: png, webp, avif',
            ),
          hasAlpha: z.boolean().nullable().describe('null for an original as stored'),
        }),
        headers: z.looseObject({}).describe('Request headers echoed (never credentials)'),
        params: z.looseObject({}).describe('The query options of the URL (dpr, f_auto)'),
      }),
    }),
  },
  routes: [
    route({
      method: 'get',
      path: TRANSFORMATION_CONTEXT,
      access: { role: 'viewer' },
      operationId: 'getTransformationContext',
      summary:
        'The transformation context of a delivery URL (members and API tokens of its organisation)',
      description:
        'Computed with the image cache: a stored image answers at once; an AI chain not derived yet is queued like delivery (202, Retry-After) and charged once — only by a signed call (x-ebg-param, x-ebg-signature) or an API token: with the session cookie alone the call answers what was already run and queues nothing (400 signature_missing).',
      tags: ['transformation context'],
      query: z.object({
        url: z
          .string()
          .meta({ example: '/v2/demo/t.resize(w:300)/samples/astronaut.png' })
          .describe('A delivery URL of this server, or its path'),
      }),
      responses: {
        '200': {
          description: "Each step of the chain with what it found (Pixelbin's context shape)",
          schema: ref('TransformationContext'),
        },
        '202': failure('An AI operation is running; retry after Retry-After seconds'),
        '400': failure(
          'invalid_url, invalid_path, an invalid transformation, or signature_missing (an AI chain not run yet, asked with the session cookie alone)',
        ),
        '401': failure('unauthenticated (no session) or invalid_token'),
        '402': failure('insufficient_credits: the AI chain was not queued'),
        '404': failure(
          'Not a file of an organisation of yours (answered as for a cloud name no organisation has)',
        ),
        '422': failure('transformation_failed or image_too_large'),
        '501': failure('operation_unavailable: this server cannot run an operation of the chain'),
      },
    }),
    route({
      method: 'get',
      path: TRANSFORMATION_PREVIEW,
      operationId: 'getPreview',
      summary: "The image of a delivery URL of the caller's organisation, without a URL signature",
      description:
        "The console's own previews (library thumbnails, Home, the file panel): authorised by the session or an API token of the URL's organisation instead of a signature, so they work when the organisation requires signed URLs. Never spends credits: an AI chain answers only once it has run. Answers are private (Cache-Control: private).",
      tags: ['transformation context'],
      query: z.object({
        url: z
          .string()
          .meta({ example: '/v2/demo/t.resize(w:320,h:320)/samples/astronaut.png' })
          .describe('A delivery URL of this server, or its path'),
      }),
      responses: {
        '200': {
          description: 'The image',
          content: { 'image/*': { schema: formatted('binary') } },
        },
        '304': { description: 'Not modified (If-None-Match)' },
        '400': failure('invalid_url, invalid_path or an invalid transformation'),
        '401': failure('unauthenticated (no session) or invalid_token'),
        '404': failure(
          'Not a file of an organisation of yours (answered as for a cloud name no organisation has)',
        ),
        '409': failure('not_run: an AI chain that has not run yet (a preview never runs it)'),
      },
    }),
  ],
}
