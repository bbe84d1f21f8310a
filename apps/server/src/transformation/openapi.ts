// The OpenAPI part of the transformation context API.
import {
  arrayOf,
  bool,
  failure,
  int,
  json,
  type OpenApiPart,
  object,
  str,
} from '../http/openapi-kit.ts'
import { TRANSFORMATION_CONTEXT } from './paths.ts'

const anyObject = { type: 'object', additionalProperties: true } as const

export const TRANSFORMATION_OPENAPI: OpenApiPart = {
  tags: [
    {
      name: 'transformation context',
      description: "What each step of a delivery URL's chain did and found (detections)",
    },
  ],
  schemas: {
    TransformationContext: object({
      context: object({
        steps: arrayOf(
          object({
            name: str('The method: bg of erase.bg'),
            identifier: str('The plugin: erase'),
            operation: str('Basic for t.*, otherwise the operation name'),
            data: { ...anyObject, description: 'What a detection found; {} otherwise' },
            params: { ...anyObject, description: 'The parameters as written' },
            width: int('Width of the image after the step'),
            height: int(),
            hasAlpha: bool,
            channels: int(),
          }),
        ),
        metadata: { ...anyObject, description: 'The original file: size, format, dimensions' },
        output: object({
          format: str(
            'The format the URL answers in: a cut-out (erase.bg) keeps alpha: png, webp, avif',
          ),
          hasAlpha: { type: ['boolean', 'null'], description: 'null for an original as stored' },
        }),
        headers: { ...anyObject, description: 'Request headers echoed (never credentials)' },
        params: { ...anyObject, description: 'The query options of the URL (dpr, f_auto)' },
      }),
    }),
  },
  paths: {
    [TRANSFORMATION_CONTEXT]: {
      get: {
        operationId: 'getTransformationContext',
        summary:
          'The transformation context of a delivery URL (members and API tokens of its organisation)',
        description:
          'Computed with the image cache: a stored image answers at once; an AI chain not derived yet is queued like delivery (202, Retry-After) and charged once — only by a signed call (x-ebg-param, x-ebg-signature) or an API token: with the session cookie alone the call answers what was already run and queues nothing (400 signature_missing).',
        tags: ['transformation context'],
        parameters: [
          {
            name: 'url',
            in: 'query',
            required: true,
            description: 'A delivery URL of this server, or its path',
            schema: str(),
            example: '/v2/demo/t.resize(w:300)/samples/astronaut.png',
          },
        ],
        responses: {
          '200': json(
            { $ref: '#/components/schemas/TransformationContext' },
            "Each step of the chain with what it found (Pixelbin's context shape)",
          ),
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
      },
    },
  },
}
