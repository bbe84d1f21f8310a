// The declared calls of signed uploads (decision 016): Pixelbin's createSignedUrl and
// createSignedUrlV2, the console's mirror, and the signed URL browsers upload to.
import { ORG_SEGMENT, PANEL_API_PATHS } from '@tessera/url'
import { z } from 'zod'
import {
  type ApiPart,
  failure,
  formatted,
  JSON_BODY_ERRORS,
  orgRoute,
  ref,
  route,
} from '../http/openapi-kit.ts'
import { PLATFORM_ASSETS_ROOT } from './paths.ts'
import { PART_MAX_BYTES, SIGNED_UPLOAD_BASE } from './signed-upload.ts'
import { DEFAULT_EXPIRY_SECONDS, MAX_EXPIRY_SECONDS } from './signed-upload-request.ts'

const request = z.object({
  name: z.string().describe('File name without extension').optional(),
  path: z.string().describe('Folder, e.g. products/shoes').optional(),
  format: z.string().describe('The format the bytes must be (jpeg, png, webp, …)').optional(),
  access: z.enum(['public-read', 'private']).describe('private: delivered only signed').optional(),
  tags: z.array(z.string()).max(50).describe('Tags given to the file').optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .describe('A JSON object kept with the file')
    .optional(),
  overwrite: z.boolean().optional(),
  filenameOverride: z.boolean().describe('Add characters to a name already taken').optional(),
  expiry: z
    .int()
    .min(1)
    .max(MAX_EXPIRY_SECONDS)
    .describe(`Seconds the URL lives (default ${DEFAULT_EXPIRY_SECONDS})`)
    .optional(),
})

const presigned = z.object({
  url: formatted('uri').describe('The upload URL; its signature is the only credential'),
  fields: z.record(z.string(), z.string()).describe('Sent back with every part and completion'),
})

const uploadParams = z.object({
  uploadId: formatted('uuid').meta({ example: '00000000-0000-4000-8000-000000000000' }),
})
const uploadQuery = z.object({
  signature: z.string().describe('From the URL'),
})

export const SIGNED_UPLOAD_OPENAPI: ApiPart = {
  tags: [
    {
      name: 'signed uploads',
      description:
        'Upload URLs browsers and apps use without another credential (docs/upload-api.md)',
    },
  ],
  schemas: { SignedUrlRequest: request, PresignedUrl: presigned },
  routes: [
    route({
      method: 'post',
      path: `${PLATFORM_ASSETS_ROOT}/v1.0/upload/signed-url`,
      operationId: 'createSignedUrl',
      summary: "Pixelbin's createSignedUrl: a URL that takes the whole file in one multipart POST",
      tags: ['signed uploads'],
      body: { schema: ref('SignedUrlRequest') },
      responses: {
        '200': {
          description: 'The URL',
          schema: z.object({ s3PresignedUrl: ref('PresignedUrl') }),
        },
        ...JSON_BODY_ERRORS,
        '401': failure('unauthenticated or invalid_token'),
      },
    }),
    route({
      method: 'post',
      path: `${PLATFORM_ASSETS_ROOT}/v2.0/upload/signed-url`,
      operationId: 'createSignedUrlV2',
      summary: "Pixelbin's createSignedUrlV2: a URL that takes numbered parts, then a completion",
      tags: ['signed uploads'],
      body: { schema: ref('SignedUrlRequest') },
      responses: {
        '200': { description: 'The URL', schema: z.object({ presignedUrl: ref('PresignedUrl') }) },
        ...JSON_BODY_ERRORS,
        '401': failure('unauthenticated or invalid_token'),
      },
    }),
    orgRoute({
      method: 'post',
      path: `${PANEL_API_PATHS.assets}/${ORG_SEGMENT}/{orgId}/upload/signed-url`,
      operationId: 'createConsoleSignedUrl',
      access: { role: 'member' },
      summary: 'A parts upload URL for the console (as createSignedUrlV2)',
      tags: ['signed uploads'],
      body: { schema: ref('SignedUrlRequest') },
      responses: {
        '200': {
          description: 'The URL, when it expires and the largest part',
          schema: z.object({
            presignedUrl: ref('PresignedUrl'),
            expiresAt: formatted('date-time'),
            partMaxBytes: z.int(),
          }),
        },
        ...JSON_BODY_ERRORS,
      },
    }),
    route({
      method: 'put',
      path: `${SIGNED_UPLOAD_BASE}/{uploadId}`,
      operationId: 'putSignedUploadPart',
      summary: `Upload part ?partNumber=N (multipart: the fields and a file part of at most ${PART_MAX_BYTES} bytes)`,
      tags: ['signed uploads'],
      params: uploadParams,
      query: uploadQuery.extend({ partNumber: z.string().describe('1 to 10000') }),
      body: {
        content: {
          'multipart/form-data': { schema: z.object({ file: formatted('binary') }) },
        },
      },
      responses: {
        '200': {
          description: 'Stored (duplicate: the same bytes were already there)',
          schema: z.object({
            partNumber: z.int(),
            size: z.int(),
            duplicate: z.boolean().optional(),
          }),
        },
        '400': failure(
          'invalid_field (partNumber, signature), missing_file, empty_part, wrong_upload_kind',
        ),
        '404': failure('upload_not_found: no upload, or a wrong signature'),
        '409': failure('duplicate_part (other bytes), upload_used, upload_closed'),
        '410': failure('upload_expired'),
        '413': failure('part_too_large, or too_large: the parts together over UPLOAD_MAX_BYTES'),
        '415': failure('unsupported_media_type: not multipart/form-data'),
      },
    }),
    route({
      method: 'post',
      path: `${SIGNED_UPLOAD_BASE}/{uploadId}`,
      operationId: 'completeSignedUpload',
      summary: 'Complete: JSON { parts: [1..n], …fields }, or the whole file as multipart',
      tags: ['signed uploads'],
      params: uploadParams,
      query: uploadQuery,
      body: {
        content: {
          'application/json': {
            schema: z.object({ parts: z.array(z.int()).describe('1, 2, … n in order, each once') }),
          },
          'multipart/form-data': { schema: z.object({ file: formatted('binary') }) },
        },
      },
      responses: {
        '200': { description: 'The stored file', schema: ref('StoredFile') },
        '400': failure(
          'no_parts, invalid_parts, missing_part, unlisted_part, invalid_json, invalid_field',
        ),
        '404': failure('upload_not_found'),
        '409': failure('upload_used, upload_closed, parts_pending, already_exists'),
        '410': failure('upload_expired'),
        '413': failure('too_large'),
        '415': failure('unexpected_type (not the format asked for), unsupported_type'),
      },
    }),
  ],
}
