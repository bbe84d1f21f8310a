// The declared calls of uploads (direct and by URL) and the download proxy.
import { z } from 'zod'
import {
  type ApiPart,
  calls,
  dateTime,
  failure,
  formatted,
  json,
  orgIdParam,
  ref,
  SOURCE_ERRORS,
  TOKEN_ERRORS,
} from '../http/openapi-kit.ts'
import { MEDIA_FIELDS, PIXEL_FIELDS } from './openapi.ts'

import { ASSETS } from './paths.ts'

const uploads = calls(ASSETS, 'assets', TOKEN_ERRORS)
const MEMBERS = { role: 'member' } as const
const stored = json(ref('StoredFile'), 'The stored file')

export const UPLOAD_OPENAPI: ApiPart = {
  tags: [{ name: 'assets', description: 'Uploads and the download proxy' }],
  schemas: {
    StoredFile: z.object({
      _id: formatted('uuid'),
      fileId: formatted('uuid').describe('The same as _id'),
      orgId: formatted('uuid'),
      type: z.literal('file'),
      name: z.string(),
      path: z.string(),
      fullPath: z.string(),
      format: z.string(),
      contentType: z.string(),
      size: z.int(),
      ...PIXEL_FIELDS,
      hash: z.string().describe('sha256, hex'),
      version: z.int(),
      access: z.enum(['public-read', 'private']),
      tags: z.array(z.string()),
      metadata: z.record(z.string(), z.unknown()),
      isActive: z.literal(true),
      ...MEDIA_FIELDS,
      url: formatted('uri'),
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
  },
  routes: [
    uploads.post('/upload/direct', 'uploadDirect', {
      access: MEMBERS,
      summary: 'Upload a file (multipart/form-data)',
      description:
        "Stored in the caller's organisation: an API token's own, or for a signed-in member (a signed request) the orgId query parameter's, by default the active one (docs/upload-api.md).",
      query: z.object({ orgId: orgIdParam.optional() }),
      body: {
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: formatted('binary'),
              path: z.string().describe('Folder, e.g. products/shoes').optional(),
              name: z.string().describe('File name without extension').optional(),
              overwrite: z.enum(['true', 'false']).optional(),
              access: z
                .enum(['public-read', 'private'])
                .describe('private: delivered only through signed URLs')
                .optional(),
              tags: z.array(z.string()).describe('One field per tag').optional(),
              metadata: z.string().describe('A JSON object').optional(),
              filenameOverride: z
                .enum(['true', 'false'])
                .describe('true: a taken name gets a few random characters added')
                .optional(),
            }),
          },
        },
      },
      responses: {
        '200': stored,
        '400': failure(
          'invalid_multipart (malformed, cut short or interrupted), too_many_fields, too_many_files, too_many_parts, field_too_long, missing_file, invalid_path or invalid_field',
        ),
        '404': failure('organisation_not_found: orgId is not an organisation of yours'),
        '409': failure('A file exists at the path and overwrite is false'),
        '413': failure('Larger than UPLOAD_MAX_BYTES'),
        '415': failure(
          'unsupported_media_type (not multipart), unsupported_type (not an image and the organisation takes no raw files) or extension_mismatch',
        ),
        '422': failure('Corrupt image or too many pixels'),
      },
    }),
    uploads.post('/upload/url', 'uploadFromUrl', {
      access: MEMBERS,
      summary: 'Upload a file fetched from a URL',
      description: "Stored in the caller's organisation, as for uploadDirect.",
      body: {
        schema: z.object({
          url: formatted('uri'),
          path: z.string().optional(),
          name: z.string().optional(),
          overwrite: z.boolean().optional(),
          access: z.enum(['public-read', 'private']).optional(),
          tags: z.array(z.string()).optional(),
          metadata: z.record(z.string(), z.unknown()).optional(),
          filenameOverride: z.boolean().optional(),
        }),
      },
      responses: {
        '200': stored,
        '400': failure('Invalid body or refused address'),
        '413': failure('Body or file too large'),
        '415': failure('unsupported_type or extension_mismatch, as for uploadDirect'),
        ...SOURCE_ERRORS,
      },
    }),
    uploads.get('/proxy/download', 'proxyDownload', {
      access: MEMBERS,
      summary: 'Fetch a remote file through the server',
      description:
        'For callers who may upload: an API token, or a signed-in member (orgId as for uploadDirect). Same remote rules as uploadFromUrl.',
      query: z.object({ url: formatted('uri') }),
      responses: {
        '200': {
          description: 'The remote bytes',
          content: { '*/*': { schema: formatted('binary') } },
        },
        '400': failure('Missing or refused URL'),
        ...SOURCE_ERRORS,
      },
    }),
  ],
}
