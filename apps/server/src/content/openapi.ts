// The OpenAPI part of the public content calls: dynamic apps, the predictions catalogue, the
// Strapi-shaped CMS and announcements. Examples name real entries of the content.

import {
  arrayOf,
  badQuery,
  bool,
  cached,
  dateTime,
  failure,
  int,
  json,
  type OpenApiPart,
  object,
  pageNo,
  pageSize,
  ref,
  str,
} from '../http/openapi-kit.ts'
import { CMS_PATHS, CMS_SCHEMAS } from './cms-openapi.ts'
import { ANNOUNCEMENTS, APPS, APPS_PAGE_SIZE, TRANSFORMATION } from './paths.ts'

export function contentOpenApi(options: { appSlug: string; predictionId: string }): OpenApiPart {
  return {
    tags: [
      { name: 'apps', description: 'Dynamic apps: the AI tools the website lists' },
      { name: 'predictions', description: 'Runnable models and their input schemas' },
      { name: 'cms', description: 'Strapi-shaped website content' },
      { name: 'website', description: 'Website calls on the main domain' },
    ],
    schemas: {
      DynamicApp: object({
        _id: str('Same as slug'),
        slug: str(),
        tags: arrayOf(str()),
        config: object({
          title: str("Defaults to 'Untitled App'"),
          description: str('Defaults to a generic description'),
          thumbnailURL: { type: 'string', format: 'uri', description: 'Defaults to a demo image' },
          isFeatured: bool,
          url: str('Where the app lives: a site path or an absolute URL'),
          transformation: str('The delivery-URL pattern the app runs, e.g. erase.bg(i:general)'),
          operations: arrayOf(str('plugin.method')),
        }),
        createdAt: dateTime,
        updatedAt: dateTime,
      }),
      DynamicAppList: object({ items: arrayOf(ref('DynamicApp')), page: ref('Page') }),
      Prediction: object(
        {
          _id: str(),
          id: str('e.g. erase_bg'),
          name: str('Same as id'),
          displayName: str(),
          description: str(),
          operation: str('The catalogue operation it runs, plugin.method'),
          plugin: str(),
          method: str(),
          runnable: { type: 'boolean', description: "Whether this server's engine runs it" },
          slow: { type: 'boolean', description: 'Runs as a background job (delivery answers 202)' },
          tags: arrayOf(str()),
          thumbnailURL: { type: 'string', format: 'uri' },
        },
        [
          '_id',
          'id',
          'name',
          'displayName',
          'description',
          'operation',
          'plugin',
          'method',
          'runnable',
          'slow',
          'tags',
        ],
      ),
      PredictionList: object({ items: arrayOf(ref('Prediction')) }),
      PredictionSchema: {
        type: 'object',
        description: 'A prediction with the JSON Schema of its input and how to call it',
        properties: {
          id: str(),
          operation: str(),
          schema: {
            type: 'object',
            description:
              'JSON Schema of the input: a required image URL, then the parameters of the operation by name (type, title, default, enum, minimum, maximum; x-param is the key in delivery URLs)',
          },
          apiDetails: object(
            {
              method: str(),
              urlTemplate: str(),
              example: { type: 'string', format: 'uri' },
              runnable: bool,
              async: bool,
              notes: str(),
            },
            ['method', 'urlTemplate', 'runnable', 'async'],
          ),
        },
        required: ['id', 'operation', 'schema', 'apiDetails'],
      },
      ...CMS_SCHEMAS,
      AnnouncementList: object({
        items: arrayOf(
          object(
            {
              id: int(),
              title: str(),
              description: str(),
              link: str(),
              linkText: str(),
              startsAt: dateTime,
              endsAt: dateTime,
            },
            ['id', 'title', 'startsAt'],
          ),
        ),
      }),
    },
    paths: {
      [`${APPS}/dynamicApps`]: {
        get: {
          operationId: 'listDynamicApps',
          summary: 'List dynamic apps (AI tools)',
          tags: ['apps'],
          parameters: [
            {
              name: 'tags',
              in: 'query',
              description: 'Comma-separated; apps carrying any of them',
              schema: str(),
              example: 'ai-tools',
            },
            pageNo,
            pageSize(APPS_PAGE_SIZE),
            {
              name: 'sortBy',
              in: 'query',
              schema: { type: 'string', enum: ['createdAt', 'title'], default: 'createdAt' },
            },
            {
              name: 'sortOrder',
              in: 'query',
              description: 'Default desc for createdAt, asc for title',
              schema: { type: 'string', enum: ['asc', 'desc'] },
            },
            {
              name: 'searchQuery',
              in: 'query',
              description: 'Trimmed; case-insensitive substring of the title or description',
              schema: { type: 'string', maxLength: 100 },
            },
          ],
          responses: {
            '200': cached(json(ref('DynamicAppList'), 'One page of apps')),
            '400': badQuery,
          },
        },
      },
      [`${APPS}/dynamicApps/{slug}`]: {
        get: {
          operationId: 'getDynamicApp',
          summary: 'One dynamic app',
          tags: ['apps'],
          parameters: [
            { name: 'slug', in: 'path', required: true, schema: str(), example: options.appSlug },
          ],
          responses: {
            '200': cached(json(ref('DynamicApp'), 'The app')),
            '404': failure('No app has this slug (code not_found)'),
          },
        },
      },
      [`${TRANSFORMATION}/predictions`]: {
        get: {
          operationId: 'listPredictions',
          summary: 'List the runnable models',
          tags: ['predictions'],
          responses: { '200': cached(json(ref('PredictionList'), 'Every prediction')) },
        },
      },
      [`${TRANSFORMATION}/predictions/schema/{id}`]: {
        get: {
          operationId: 'getPredictionSchema',
          summary: 'A prediction with its input schema',
          tags: ['predictions'],
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: str(),
              example: options.predictionId,
            },
          ],
          responses: {
            '200': cached(json(ref('PredictionSchema'), 'The prediction and its schema')),
            '404': json(
              { type: 'object', maxProperties: 0 },
              'No prediction has this id; the body is an empty object (SPEC §7.2)',
            ),
          },
        },
      },
      ...CMS_PATHS,
      [`${ANNOUNCEMENTS}`]: {
        get: {
          operationId: 'listAnnouncements',
          summary: 'Current announcements, newest first',
          tags: ['website'],
          responses: { '200': cached(json(ref('AnnouncementList'), 'Announcements shown now')) },
        },
      },
    },
  }
}
