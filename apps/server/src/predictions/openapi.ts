// The declared calls of prediction jobs: run a prediction on an image of the organisation as a
// background job, and poll it.
import { z } from 'zod'
import {
  type ApiPart,
  dateTime,
  failure,
  formatted,
  JSON_BODY_LIMITS,
  json,
  orgCalls,
  ref,
  uuidParam,
} from '../http/openapi-kit.ts'

import { PREDICTIONS_ORG_BASE } from './paths.ts'

const jobs = orgCalls(PREDICTIONS_ORG_BASE, 'prediction jobs')

export const PREDICTIONS_API: ApiPart = {
  tags: [
    {
      name: 'prediction jobs',
      description:
        'Run a prediction on an image of the organisation as a background job and poll it',
    },
  ],
  schemas: {
    PredictionJobQueued: z.object({
      jobId: z.string(),
      status: z.literal('queued'),
      predictionId: z.string(),
      credits: z.int().describe('Credits the job spent'),
      balance: z.int().describe('The balance after it'),
    }),
    PredictionJob: z.object({
      jobId: z.string(),
      predictionId: z.string(),
      status: z.enum(['queued', 'running', 'done', 'failed']),
      attempts: z.int(),
      createdAt: dateTime,
      updatedAt: dateTime,
      result: z
        .object({
          fileId: z.string(),
          path: z.string().describe('predictions/<prediction>/<job id>.<format>'),
          url: formatted('uri').describe('Delivery URL of the output'),
          format: z.string(),
          contentType: z.string(),
          width: z.int(),
          height: z.int(),
          size: z.int(),
          data: z
            .looseObject({})
            .describe(
              "What a detection found (the transformation context's steps[].data); {} otherwise",
            ),
        })
        .optional(),
      error: z
        .string()
        .describe('Why it failed (when failed; its credits were refunded)')
        .optional(),
    }),
  },
  routes: [
    jobs.post('/predictions/{predictionId}', 'createPredictionJob', 'member', {
      summary: 'Run a prediction as a background job (members and API tokens); costs credits',
      params: { predictionId: z.string().meta({ example: 'ic_crop' }) },
      body: {
        schema: z
          .object({ image: z.unknown() })
          .describe(
            'The input schema of the prediction (GET …/predictions/schema/{id}): image is a file path of the organisation, the delivery URL of its original, or an http(s) URL; the other fields are the parameters by name',
          ),
        example: { image: 'photos/portrait.jpg', requiredWidth: 400, requiredHeight: 400 },
      },
      responses: {
        '202': {
          ...json(ref('PredictionJobQueued'), 'Queued; poll the Location'),
          headers: { Location: { schema: z.string() } },
        },
        '400': failure(
          'invalid_input (naming the field), invalid_path, invalid_body, invalid_json',
        ),
        '402': failure('insufficient_credits: nothing was queued'),
        '404': failure('organisation_not_found, prediction_not_found or file_not_found'),
        ...JSON_BODY_LIMITS,
        '501': failure('model_unavailable: this server cannot run the model'),
      },
    }),
    jobs.get('/predictions/jobs/{jobId}', 'getPredictionJob', 'viewer', {
      summary: 'Poll a prediction job',
      params: { jobId: uuidParam('The jobId of the created job') },
      responses: {
        '200': json(ref('PredictionJob'), 'The job; result when done, error when failed'),
        '404': failure('organisation_not_found or job_not_found'),
      },
    }),
  ],
}
