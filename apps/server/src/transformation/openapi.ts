// The declared call of the transformation context.
import { z } from 'zod'
import { type ApiPart, calls, failure, formatted, ref } from '../http/openapi-kit.ts'

import { TRANSFORMATION_CONTEXT, TRANSFORMATION_PREVIEW } from './paths.ts'

const context = calls('', 'transformation context')

/** The delivery URL both calls take, `example` as the route test calls it. */
const urlQuery = (example: string) =>
  z.object({
    url: z.string().meta({ example }).describe('A delivery URL of this server, or its path'),
  })

/** A caller not signed in, or the URL of a file not of its organisation. */
const NOT_YOURS = {
  '401': failure('unauthenticated (no session) or invalid_token'),
  '404': failure(
    'Not a file of an organisation of yours (answered as for a cloud name no organisation has)',
  ),
}

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
    context.get(TRANSFORMATION_CONTEXT, 'getTransformationContext', {
      access: { role: 'viewer' },
      summary:
        'The transformation context of a delivery URL (members and API tokens of its organisation)',
      description:
        'Computed with the image cache: a stored image answers at once; an AI chain not derived yet is queued like delivery (202, Retry-After) and charged once — only by a signed call (x-ebg-param, x-ebg-signature) or an API token: with the session cookie alone the call answers what was already run and queues nothing (400 signature_missing).',
      query: urlQuery('/v2/demo/t.resize(w:300)/samples/astronaut.png'),
      responses: {
        '200': {
          description: "Each step of the chain with what it found (Pixelbin's context shape)",
          schema: ref('TransformationContext'),
        },
        '202': failure('An AI operation is running; retry after Retry-After seconds'),
        '400': failure(
          'invalid_url, invalid_path, an invalid transformation, or signature_missing (an AI chain not run yet, asked with the session cookie alone)',
        ),
        ...NOT_YOURS,
        '402': failure('insufficient_credits: the AI chain was not queued'),
        '422': failure('transformation_failed or image_too_large'),
        '501': failure('operation_unavailable: this server cannot run an operation of the chain'),
      },
    }),
    context.get(TRANSFORMATION_PREVIEW, 'getPreview', {
      summary: "The image of a delivery URL of the caller's organisation, without a URL signature",
      description:
        "The console's own previews (library thumbnails, Home, the file panel): authorised by the session or an API token of the URL's organisation instead of a signature, so they work when the organisation requires signed URLs. Never spends credits: an AI chain answers only once it has run. Answers are private (Cache-Control: private).",
      query: urlQuery('/v2/demo/t.resize(w:320,h:320)/samples/astronaut.png'),
      responses: {
        '200': {
          description: 'The image',
          content: { 'image/*': { schema: formatted('binary') } },
        },
        '304': { description: 'Not modified (If-None-Match)' },
        '400': failure('invalid_url, invalid_path or an invalid transformation'),
        ...NOT_YOURS,
        '409': failure('not_run: an AI chain that has not run yet (a preview never runs it)'),
      },
    }),
  ],
}
