// The OpenAPI 3.1 description of the server's HTTP calls, served at /service/openapi.json. It is
// a typed object rather than a file so the compiler keeps it well-formed; a test checks that
// every route the app registers under /service, /cms and /api is described here and answers.

import { ACCOUNT_API } from './openapi-accounts.ts'
import { ASSET_API } from './openapi-assets.ts'
import { BILLING_API } from './openapi-billing.ts'
import {
  arrayOf,
  badQuery,
  bool,
  cached,
  dateTime,
  failure,
  int,
  type JsonSchema,
  json,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiPart,
  type OpenApiResponse,
  object,
  pageNo,
  pageSize,
  ref,
  str,
  withCookie,
} from './openapi-kit.ts'

export type {
  HttpMethod,
  JsonSchema,
  JsonType,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
} from './openapi-kit.ts'

const PARTS: readonly OpenApiPart[] = [ACCOUNT_API, BILLING_API, ASSET_API]

const SCHEMAS: Record<string, JsonSchema> = {
  User: object({
    _id: { type: 'string', format: 'uuid' },
    email: { type: 'string', format: 'email' },
    firstName: str(),
    lastName: str(),
    createdAt: dateTime,
  }),
  UserAnswer: object({ user: ref('User') }),
  Session: object({
    session: object({ passport: object({ user: ref('User') }) }),
  }),
  MemberOrganisation: object({
    _id: { type: 'string', format: 'uuid' },
    name: str(),
    cloudName: str('First segment of delivery URLs'),
    role: { type: 'string', enum: ['owner', 'member'] },
    createdAt: dateTime,
    joinedAt: dateTime,
  }),
  Error: object({
    code: str('Stable machine-readable code, e.g. invalid_query, not_found'),
    message: str('What went wrong, for people'),
  }),
  Page: object({
    current: int('This page number (from 1)'),
    size: int('Page size'),
    hasNext: { type: 'boolean', description: 'Whether a later page has items' },
    itemTotal: int('Number of items on all pages'),
    type: { type: 'string', const: 'number' },
  }),
  Feature: object(
    {
      name: str('The key the feature is listed under'),
      displayName: str(),
      value: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
      unit: str(),
      description: str(),
    },
    ['name', 'displayName', 'value'],
  ),
  Addon: object({
    _id: int('Addon id'),
    name: str(),
    description: str(),
    amount: { type: 'number', description: 'Price in currency units, e.g. 20 for 20 USD' },
    currency: str('ISO 4217 code'),
    credits: int('Credits the addon adds'),
    features: {
      type: 'object',
      description: 'Named features keyed by name',
      additionalProperties: ref('Feature'),
    },
    tags: arrayOf(str()),
    custom: bool,
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  Plan: object({
    _id: int('Plan id; the free plan is -994'),
    name: str(),
    description: str(),
    amount: { type: 'number', description: 'Price per interval in currency units' },
    currency: str('ISO 4217 code'),
    credits: int('Credits per interval (the free plan: 50)'),
    features: {
      type: 'object',
      description: 'Named features keyed by name',
      additionalProperties: ref('Feature'),
    },
    tags: arrayOf(str()),
    custom: bool,
    interval: str("'monthly', 'yearly', or another interval; yearly ones start with 'yearly'"),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  PlanList: object({ items: arrayOf(ref('Plan')), page: ref('Page') }),
  AddonList: object({ items: arrayOf(ref('Addon')), page: ref('Page') }),
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
  StrapiMeta: object({
    pagination: object({ page: int(), pageSize: int(), pageCount: int(), total: int() }),
  }),
  ProductSectionList: object({
    data: arrayOf(
      object({
        id: int(),
        attributes: object(
          {
            sectionId: str(),
            header: object({ id: int(), title: str(), description: str() }),
            cards: arrayOf(
              object({
                id: int(),
                title: str(),
                description: str(),
                image: { type: 'string', format: 'uri' },
                link: str('Path into the documentation site'),
              }),
            ),
          },
          ['sectionId'],
        ),
      }),
    ),
    meta: ref('StrapiMeta'),
  }),
  WebsiteList: object({
    data: arrayOf(
      object({
        id: int(),
        attributes: object(
          {
            searchTag: str(),
            lastUpdated: dateTime,
            socialMediaLinks: arrayOf(
              object({
                id: int(),
                identifier: {
                  type: 'string',
                  enum: ['discord', 'linkedin', 'instagram', 'youtube', 'twitter'],
                },
                link: { type: 'string', format: 'uri' },
              }),
            ),
            footerBadgeList: arrayOf(
              object({ id: int(), badgeName: str(), badgeUrl: { type: 'string', format: 'uri' } }),
            ),
          },
          ['searchTag', 'lastUpdated'],
        ),
      }),
    ),
    meta: ref('StrapiMeta'),
  }),
  BlogList: object({
    data: arrayOf(
      object({
        id: int(),
        attributes: object(
          {
            title: str(),
            slug: str(),
            excerpt: str(),
            url: { type: 'string', format: 'uri', description: 'The post on the blog' },
            publishedAt: dateTime,
            cover: object({
              data: object({
                id: int(),
                attributes: object({
                  url: { type: 'string', format: 'uri' },
                  alternativeText: str(),
                }),
              }),
            }),
            author: object({ id: int(), name: str(), role: str() }, ['id', 'name']),
          },
          ['title', 'slug', 'excerpt', 'url', 'publishedAt'],
        ),
      }),
    ),
    meta: ref('StrapiMeta'),
  }),
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
  StoredFile: object({
    fileId: { type: 'string', format: 'uuid' },
    orgId: { type: 'string', format: 'uuid' },
    type: { type: 'string', const: 'file' },
    name: str(),
    path: str(),
    fullPath: str(),
    format: str(),
    contentType: str(),
    size: int(),
    width: { type: ['integer', 'null'] },
    height: { type: ['integer', 'null'] },
    hash: str('sha256, hex'),
    version: int(),
    access: str(),
    tags: arrayOf(str()),
    metadata: { type: 'object' },
    assetType: { type: 'string', enum: ['image', 'raw'] },
    url: { type: 'string', format: 'uri' },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  Health: object({ status: { type: 'string', const: 'ok' } }),
  Ready: object({
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    database: { type: 'string', enum: ['ok', 'unavailable'] },
    storage: { type: 'string', enum: ['ok', 'unavailable'] },
  }),
}

/** Where the document points its examples: real slugs and ids of the content. */
export interface OpenApiOptions {
  publicUrl: string
  appSlug: string
  predictionId: string
}

const image = (description: string): OpenApiResponse => ({
  description,
  content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
})

/** Strapi's paging parameters, shared by every CMS collection. */
const STRAPI_PAGING: OpenApiParameter[] = [
  { name: 'pagination[page]', in: 'query', schema: { type: 'integer', minimum: 1 } },
  {
    name: 'pagination[pageSize]',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
  },
]

/** Builds the OpenAPI 3.1 document of every call the server answers. */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const billingParams = (kind: string): OpenApiParameter[] => [
    {
      name: 'custom',
      in: 'query',
      description: `true: only custom (negotiated) ${kind}; false: only public ones; absent: both`,
      schema: { type: 'string', enum: ['true', 'false'] },
      example: 'false',
    },
    {
      name: 'tag',
      in: 'query',
      description: `Only ${kind} with this tag (exact match), e.g. the product tag tessera`,
      schema: { type: 'string', maxLength: 64 },
    },
    pageNo,
    pageSize(3),
  ]
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
      { name: 'dpr', in: 'query', schema: str('auto, or 0.1 to 5.0') },
      { name: 'f_auto', in: 'query', schema: { type: 'string', enum: ['true', 'false'] } },
    ],
    responses: {
      '200': image('The image'),
      '202': failure('An AI operation is running; retry (SPEC §4)'),
      '304': { description: 'Not modified (If-None-Match)' },
      '400': failure('The URL or pattern is invalid'),
      '404': failure('No such organisation or file'),
    },
  })

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
    tags: [
      { name: 'billing', description: 'Plans and addons (credit top-ups)' },
      { name: 'apps', description: 'Dynamic apps: the AI tools the website lists' },
      { name: 'predictions', description: 'Runnable models and their input schemas' },
      { name: 'cms', description: 'Strapi-shaped website content' },
      { name: 'website', description: 'Website calls on the main domain' },
      { name: 'identity', description: 'Sign-up, login, the session cookie and organisations' },
      { name: 'assets', description: 'Uploads and the download proxy' },
      { name: 'delivery', description: 'Images by URL' },
      { name: 'operations', description: 'Health, readiness and metrics' },
      ...PARTS.flatMap((part) => part.tags),
    ],
    paths: {
      ...Object.assign({}, ...PARTS.map((part) => part.paths)),
      '/service/panel/billing/v1.0/plans': {
        get: {
          operationId: 'listPlans',
          summary: 'List subscription plans, a page at a time',
          description:
            'Sorted by sort order, amount and id. Clients loop while page.hasNext and split the plans into free (_id -994), monthly and yearly (interval starting with yearly).',
          tags: ['billing'],
          parameters: billingParams('plans'),
          responses: { '200': cached(json(ref('PlanList'), 'One page of plans')), '400': badQuery },
        },
      },
      '/service/panel/billing/v1.0/addons': {
        get: {
          operationId: 'listAddons',
          summary: 'List addons (credit top-ups), a page at a time',
          tags: ['billing'],
          parameters: billingParams('addons'),
          responses: {
            '200': cached(json(ref('AddonList'), 'One page of addons')),
            '400': badQuery,
          },
        },
      },
      '/service/public/apps/v1.0/dynamicApps': {
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
            pageSize(12),
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
      '/service/public/apps/v1.0/dynamicApps/{slug}': {
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
      '/service/public/transformation/v1.0/predictions': {
        get: {
          operationId: 'listPredictions',
          summary: 'List the runnable models',
          tags: ['predictions'],
          responses: { '200': cached(json(ref('PredictionList'), 'Every prediction')) },
        },
      },
      '/service/public/transformation/v1.0/predictions/schema/{id}': {
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
      '/cms/api/product-sections': {
        get: {
          operationId: 'listProductSections',
          summary: 'Marketing use-case sections (Strapi-shaped)',
          description:
            'Components (header, cards) are present only when populate asks for them, as in Strapi.',
          tags: ['cms'],
          parameters: [
            {
              name: 'populate',
              in: 'query',
              description: '* or a comma list of header, cards (also populate[0]=…)',
              schema: str(),
              example: '*',
            },
            { name: 'filters[sectionId]', in: 'query', schema: str() },
            ...STRAPI_PAGING,
          ],
          responses: {
            '200': cached(json(ref('ProductSectionList'), 'The sections')),
            '400': badQuery,
          },
        },
      },
      '/cms/api/websites': {
        get: {
          operationId: 'listWebsites',
          summary: 'Site configuration: social links and footer badges (Strapi-shaped)',
          tags: ['cms'],
          parameters: [
            {
              name: 'filters[searchTag]',
              in: 'query',
              description: 'Exact match (also filters[searchTag][$eq]); unknown tags give no data',
              schema: str(),
              example: 'tessera',
            },
            {
              name: 'populate',
              in: 'query',
              description: 'Repeatable: socialMediaLinks, footerBadgeList, or *',
              schema: str(),
              example: 'socialMediaLinks',
            },
            ...STRAPI_PAGING,
          ],
          responses: {
            '200': cached(json(ref('WebsiteList'), 'The matching site configurations')),
            '400': badQuery,
          },
        },
      },
      '/cms/api/blogs': {
        get: {
          operationId: 'listBlogPosts',
          summary: 'Blog posts, e.g. the newest few for the home page (Strapi-shaped)',
          description:
            'File order unless sort is given. The cover (a media field) and the author (a component) are present only when populate asks for them, as in Strapi.',
          tags: ['cms'],
          parameters: [
            {
              name: 'sort',
              in: 'query',
              description:
                'field[:asc|desc], comma list or sort[0]=…; fields publishedAt, title, id (ascending when no direction is given)',
              schema: str(),
              example: 'publishedAt:desc',
            },
            {
              name: 'populate',
              in: 'query',
              description: '* or a comma list of cover, author (also populate[0]=…)',
              schema: str(),
              example: '*',
            },
            { name: 'filters[slug]', in: 'query', schema: str() },
            { name: 'pagination[page]', in: 'query', schema: { type: 'integer', minimum: 1 } },
            {
              name: 'pagination[pageSize]',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
              example: 3,
            },
          ],
          responses: {
            '200': cached(json(ref('BlogList'), 'The posts')),
            '400': badQuery,
          },
        },
      },
      '/api/announcements': {
        get: {
          operationId: 'listAnnouncements',
          summary: 'Current announcements, newest first',
          tags: ['website'],
          responses: { '200': cached(json(ref('AnnouncementList'), 'Announcements shown now')) },
        },
      },
      '/service/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document',
          tags: ['operations'],
          responses: { '200': cached(json({ type: 'object' }, 'OpenAPI 3.1 document')) },
        },
      },
      '/service/panel/users/v1.0/auth/signup': {
        post: {
          operationId: 'signup',
          summary: 'Create an account and its organisation; sets the bg.session cookie',
          tags: ['identity'],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: object({
                  email: { type: 'string', format: 'email', maxLength: 254 },
                  password: str('10–128 characters, not one character repeated, not the email'),
                  firstName: { type: 'string', maxLength: 100 },
                  lastName: { type: 'string', maxLength: 100 },
                }),
              },
            },
          },
          responses: {
            '201': withCookie(json(ref('UserAnswer'), 'Signed up and signed in')),
            '400': failure('invalid_json, invalid_body or weak_password'),
            '409': failure('email_taken'),
            '413': failure('Body over 64 KB'),
            '415': failure('Not application/json'),
          },
        },
      },
      '/service/panel/users/v1.0/auth/login': {
        post: {
          operationId: 'login',
          summary: 'Sign in; sets a new bg.session cookie and ends the one sent',
          tags: ['identity'],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: object({ email: { type: 'string', format: 'email' }, password: str() }),
              },
            },
          },
          responses: {
            '200': withCookie(json(ref('UserAnswer'), 'Signed in')),
            '400': failure('invalid_json or invalid_body'),
            '401': failure('invalid_credentials (same for an unknown email)'),
            '413': failure('Body over 64 KB'),
            '415': failure('Not application/json'),
            '429': {
              ...failure('too_many_attempts: 5 failures per account (30 per address) in 15 min'),
              headers: { 'Retry-After': { description: 'Seconds', schema: { type: 'integer' } } },
            },
          },
        },
      },
      '/service/panel/users/v1.0/auth/logout': {
        post: {
          operationId: 'logout',
          summary: 'End the session and clear the cookie',
          tags: ['identity'],
          responses: { '204': { description: 'Signed out (also when no session was sent)' } },
        },
      },
      '/service/panel/users/v1.0/session': {
        get: {
          operationId: 'getSession',
          summary: 'The signed-in user (SPEC §7.2)',
          tags: ['identity'],
          responses: {
            '200': json(ref('Session'), 'The session of the bg.session cookie'),
            '401': failure('unauthenticated: no, unknown, forged or expired cookie'),
          },
        },
      },
      '/service/panel/users/v1.0/profile/meta': {
        patch: {
          operationId: 'setProfileMeta',
          summary: 'Replace the profile meta (any JSON object up to 16 KB)',
          tags: ['identity'],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          responses: {
            '200': json(object({ meta: { type: 'object' } }), 'The stored meta'),
            '400': failure('Not a JSON object, NUL or unpaired surrogate, nested over 32'),
            '401': failure('unauthenticated'),
            '413': failure('Meta over 16 KB or body over 64 KB'),
            '415': failure('Not application/json'),
          },
        },
      },
      '/service/panel/organization/v1.0/all': {
        get: {
          operationId: 'listOrganisations',
          summary: "The user's organisations; the first is the active one",
          tags: ['identity'],
          responses: {
            '200': json(arrayOf(ref('MemberOrganisation')), 'Organisations with the role held'),
            '401': failure('unauthenticated'),
          },
        },
      },
      '/service/panel/assets/v1.0/upload/direct': {
        post: {
          operationId: 'uploadDirect',
          summary: 'Upload a file (multipart/form-data)',
          description:
            "Stored in the caller's organisation: an API token's own, or for a signed-in member (a signed request) the orgId query parameter's, by default the active one (docs/upload-api.md).",
          tags: ['assets'],
          parameters: [
            {
              name: 'orgId',
              in: 'query',
              description: 'Session callers: the organisation to upload to (default: the first)',
              schema: { type: 'string', format: 'uuid' },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: object(
                  {
                    file: { type: 'string', format: 'binary' },
                    path: str('Folder, e.g. products/shoes'),
                    name: str('File name without extension'),
                    overwrite: { type: 'string', enum: ['true', 'false'] },
                  },
                  ['file'],
                ),
              },
            },
          },
          responses: {
            '200': json(ref('StoredFile'), 'The stored file'),
            '400': failure('Malformed body, path or fields'),
            '401': failure('unauthenticated or invalid_token'),
            '404': failure('organisation_not_found: orgId is not an organisation of yours'),
            '409': failure('A file exists at the path and overwrite is false'),
            '413': failure('Larger than UPLOAD_MAX_BYTES'),
            '415': failure('Not multipart, or not an image'),
            '422': failure('Corrupt image or too many pixels'),
          },
        },
      },
      '/service/panel/assets/v1.0/upload/url': {
        post: {
          operationId: 'uploadFromUrl',
          summary: 'Upload a file fetched from a URL',
          description: "Stored in the caller's organisation, as for uploadDirect.",
          tags: ['assets'],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: object(
                  {
                    url: { type: 'string', format: 'uri' },
                    path: str(),
                    name: str(),
                    overwrite: bool,
                  },
                  ['url'],
                ),
              },
            },
          },
          responses: {
            '200': json(ref('StoredFile'), 'The stored file'),
            '400': failure('Invalid body or refused address'),
            '401': failure('unauthenticated or invalid_token'),
            '413': failure('Body or file too large'),
            '502': failure('The source failed'),
            '504': failure('The source was too slow'),
          },
        },
      },
      '/service/panel/assets/v1.0/proxy/download': {
        get: {
          operationId: 'proxyDownload',
          summary: 'Fetch a remote file through the server',
          tags: ['assets'],
          parameters: [
            {
              name: 'url',
              in: 'query',
              required: true,
              schema: { type: 'string', format: 'uri' },
            },
          ],
          responses: {
            '200': {
              description: 'The remote bytes',
              content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
            },
            '400': failure('Missing or refused URL'),
            '502': failure('The source failed'),
            '504': failure('The source was too slow'),
          },
        },
      },
      '/v2/{cloudName}/{pattern}/{filePath}': { get: delivery('v2') },
      '/v1/{cloudName}/{pattern}/{filePath}': { get: delivery('v1') },
      '/healthz': {
        get: {
          operationId: 'healthz',
          summary: 'Alive',
          tags: ['operations'],
          responses: { '200': json(ref('Health'), 'The process answers') },
        },
      },
      '/readyz': {
        get: {
          operationId: 'readyz',
          summary: 'Database and storage reachable',
          tags: ['operations'],
          responses: {
            '200': json(ref('Ready'), 'Ready'),
            '503': json(ref('Ready'), 'Something is unavailable'),
          },
        },
      },
      '/metrics': {
        get: {
          operationId: 'metrics',
          summary: 'Prometheus metrics',
          tags: ['operations'],
          responses: {
            '200': { description: 'Prometheus text', content: { 'text/plain': { schema: str() } } },
          },
        },
      },
    },
    components: {
      schemas: Object.assign({}, SCHEMAS, ...PARTS.map((part) => part.schemas)),
    },
  }
}
