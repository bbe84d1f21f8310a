// The declared calls of Pixelbin's platform predictions (`@pixelbin/admin`'s predictions).
import { z } from 'zod'
import {
  type ApiPart,
  calls,
  dateTime,
  failure,
  formatted,
  ref,
  TOKEN_ERRORS,
} from '../http/openapi-kit.ts'
import { PLATFORM_PREDICTIONS } from '../predictions/platform-json.ts'

const predictions = calls(PLATFORM_PREDICTIONS, 'platform predictions', TOKEN_ERRORS)

export const PLATFORM_PREDICTION_OPENAPI: ApiPart = {
  tags: [
    {
      name: 'platform predictions',
      description: "Pixelbin's predictions API (the organisation is the token's)",
    },
  ],
  schemas: {
    PlatformPrediction: z.object({
      _id: z.string().describe('plugin--operation--<uuid>, e.g. ic--crop--…'),
      status: z.enum(['ACCEPTED', 'SUCCESS', 'FAILURE']),
      urls: z.object({ get: formatted('uri') }),
      input: z.record(z.string(), z.unknown()).describe('The input as given (a file by its name)'),
      orgId: z.string(),
      retention: z.string(),
      webhook: z.string().optional(),
      createdAt: dateTime,
      updatedAt: dateTime,
      output: z.array(formatted('uri')).describe('SUCCESS: the output image').optional(),
      consumedCredits: z.int().optional(),
      data: z.record(z.string(), z.unknown()).describe('What a detection found').optional(),
      error: z.string().describe('FAILURE: why (its credits were refunded)').optional(),
    }),
  },
  routes: [
    predictions.post('/{plugin}/{operation}', 'createPlatformPrediction', {
      summary: 'Run a prediction (multipart input.<field>, optional webhook); costs credits',
      params: {
        plugin: z.string().meta({ example: 'ic' }),
        operation: z.string().meta({ example: 'crop' }),
      },
      body: {
        content: {
          'multipart/form-data': {
            schema: z.object({
              'input.image': z.string().describe('A file part, or a URL or file path as text'),
              webhook: formatted('uri').describe('Told when it finishes (unsigned)').optional(),
            }),
          },
        },
      },
      responses: {
        '202': { description: 'Accepted', schema: ref('PlatformPrediction') },
        '400': failure('invalid_input (naming the field), invalid_webhook_url, webhook_*'),
        '402': failure('insufficient_credits'),
        '404': failure('prediction_not_found, file_not_found'),
        '413': failure('too_large'),
        '415': failure('unsupported_media_type: not multipart/form-data'),
        '501': failure('model_unavailable'),
      },
    }),
    predictions.get('/{id}', 'getPlatformPrediction', {
      summary: 'A prediction by its id',
      params: {
        id: z.string().meta({ example: 'ic--crop--00000000-0000-4000-8000-000000000000' }),
      },
      responses: {
        '200': { description: 'The prediction', schema: ref('PlatformPrediction') },
        '404': failure('prediction_not_found'),
      },
    }),
  ],
}
