// The OpenAPI part of prediction jobs: run a prediction on an image of the organisation as a
// background job, and poll it.
import {
  dateTime,
  failure,
  int,
  JSON_BODY_ERRORS,
  json,
  type OpenApiPart,
  object,
  orgIdParam,
  orgOperation,
  ref,
  str,
  uuidParam,
} from '../http/openapi-kit.ts'
import { PREDICTIONS_ORG_BASE } from './paths.ts'

const PREDICTIONS = `${PREDICTIONS_ORG_BASE}/{orgId}/predictions`

export const PREDICTIONS_API: OpenApiPart = {
  tags: [
    {
      name: 'prediction jobs',
      description:
        'Run a prediction on an image of the organisation as a background job and poll it',
    },
  ],
  schemas: {
    PredictionJobQueued: object({
      jobId: str(),
      status: { type: 'string', const: 'queued' },
      predictionId: str(),
      credits: int('Credits the job spent'),
      balance: int('The balance after it'),
    }),
    PredictionJob: object(
      {
        jobId: str(),
        predictionId: str(),
        status: {
          type: 'string',
          enum: ['queued', 'running', 'done', 'failed'],
        },
        attempts: int(),
        createdAt: dateTime,
        updatedAt: dateTime,
        result: object({
          fileId: str(),
          path: str('predictions/<prediction>/<job id>.<format>'),
          url: {
            type: 'string',
            format: 'uri',
            description: 'Delivery URL of the output',
          },
          format: str(),
          contentType: str(),
          width: int(),
          height: int(),
          size: int(),
          data: {
            type: 'object',
            additionalProperties: true,
            description:
              "What a detection found (the transformation context's steps[].data); {} otherwise",
          },
        }),
        error: str('Why it failed (when failed; its credits were refunded)'),
      },
      ['jobId', 'predictionId', 'status', 'attempts', 'createdAt', 'updatedAt'],
    ),
  },
  paths: {
    [`${PREDICTIONS}/{predictionId}`]: {
      post: orgOperation(
        'createPredictionJob',
        'Run a prediction as a background job (members and API tokens); costs credits',
        ['prediction jobs'],
        {
          ...JSON_BODY_ERRORS,
          '202': {
            ...json(ref('PredictionJobQueued'), 'Queued; poll the Location'),
            headers: { Location: { schema: str() } },
          },
          '400': failure(
            'invalid_input (naming the field), invalid_path, invalid_body, invalid_json',
          ),
          '402': failure('insufficient_credits: nothing was queued'),
          '404': failure('organisation_not_found, prediction_not_found or file_not_found'),
          '501': failure('model_unavailable: this server cannot run the model'),
        },
        {
          parameters: [
            orgIdParam,
            {
              name: 'predictionId',
              in: 'path',
              required: true,
              schema: str(),
              example: 'ic_crop',
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  description:
                    'The input schema of the prediction (GET …/predictions/schema/{id}): image is a file path of the organisation, the delivery URL of its original, or an http(s) URL; the other fields are the parameters by name',
                  required: ['image'],
                },
                example: {
                  image: 'photos/portrait.jpg',
                  requiredWidth: 400,
                  requiredHeight: 400,
                },
              },
            },
          },
        },
      ),
    },
    [`${PREDICTIONS}/jobs/{jobId}`]: {
      get: orgOperation(
        'getPredictionJob',
        'Poll a prediction job',
        ['prediction jobs'],
        {
          '200': json(ref('PredictionJob'), 'The job; result when done, error when failed'),
          '404': failure('organisation_not_found or job_not_found'),
        },
        {
          parameters: [orgIdParam, uuidParam('jobId', 'The jobId of the created job')],
        },
      ),
    },
  },
}
