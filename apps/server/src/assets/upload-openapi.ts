// The OpenAPI part of uploads and the download proxy.
import {
  arrayOf,
  bool,
  dateTime,
  failure,
  int,
  json,
  type OpenApiPart,
  object,
  ref,
  str,
} from '../http/openapi-kit.ts'
import { ASSETS } from './paths.ts'

export const UPLOAD_OPENAPI: OpenApiPart = {
  tags: [{ name: 'assets', description: 'Uploads and the download proxy' }],
  schemas: {
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
  },
  paths: {
    [`${ASSETS}/upload/direct`]: {
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
          '400': failure(
            'invalid_multipart (malformed, cut short or interrupted), too_many_fields, too_many_files, too_many_parts, field_too_long, missing_file, invalid_path or invalid_field',
          ),
          '401': failure('unauthenticated or invalid_token'),
          '404': failure('organisation_not_found: orgId is not an organisation of yours'),
          '409': failure('A file exists at the path and overwrite is false'),
          '413': failure('Larger than UPLOAD_MAX_BYTES'),
          '415': failure(
            'unsupported_media_type (not multipart), unsupported_type (not an image and the organisation takes no raw files) or extension_mismatch',
          ),
          '422': failure('Corrupt image or too many pixels'),
        },
      },
    },
    [`${ASSETS}/upload/url`]: {
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
          '415': failure('unsupported_type or extension_mismatch, as for uploadDirect'),
          '502': failure('The source failed'),
          '504': failure('The source was too slow'),
        },
      },
    },
    [`${ASSETS}/proxy/download`]: {
      get: {
        operationId: 'proxyDownload',
        summary: 'Fetch a remote file through the server',
        description:
          'For callers who may upload: an API token, or a signed-in member (orgId as for uploadDirect). Same remote rules as uploadFromUrl.',
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
          '401': failure('unauthenticated or invalid_token'),
          '502': failure('The source failed'),
          '504': failure('The source was too slow'),
        },
      },
    },
  },
}
