// The declared calls of signed uploads (decision 016): Pixelbin's createSignedUrl and
// createSignedUrlV2, the console's mirror, and the signed URL browsers upload to.
import { ORG_SEGMENT, PANEL_API_PATHS } from '@tessera/url'
import { z } from 'zod'
import {
  type ApiPart,
  calls,
  failure,
  formatted,
  JSON_BODY_ERRORS,
  json,
  orgCalls,
  ref,
  TOKEN_ERRORS,
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

const uploadParams = {
  uploadId: formatted('uuid').meta({ example: '00000000-0000-4000-8000-000000000000' }),
}
const uploadQuery = z.object({
  signature: z.string().describe('From the URL'),
})

const signed = calls('', 'signed uploads')
const consoleUploads = orgCalls(`${PANEL_API_PATHS.assets}/${ORG_SEGMENT}`, 'signed uploads')

/** Pixelbin's createSignedUrl (1.0) and createSignedUrlV2 (2.0): the URL under `key`. */
const pixelbinSignedUrl = (version: '1.0' | '2.0', key: string, summary: string) =>
  signed.post(
    `${PLATFORM_ASSETS_ROOT}/v${version}/upload/signed-url`,
    version === '1.0' ? 'createSignedUrl' : 'createSignedUrlV2',
    {
      summary,
      body: { schema: ref('SignedUrlRequest') },
      responses: {
        '200': json(z.object({ [key]: ref('PresignedUrl') }), 'The URL'),
        ...JSON_BODY_ERRORS,
        ...TOKEN_ERRORS,
      },
    },
  )

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
    pixelbinSignedUrl(
      '1.0',
      's3PresignedUrl',
      "Pixelbin's createSignedUrl: a URL that takes the whole file in one multipart POST",
    ),
    pixelbinSignedUrl(
      '2.0',
      'presignedUrl',
      "Pixelbin's createSignedUrlV2: a URL that takes numbered parts, then a completion",
    ),
    consoleUploads.post('/upload/signed-url', 'createConsoleSignedUrl', 'member', {
      summary: 'A parts upload URL for the console (as createSignedUrlV2)',
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
    signed.put(`${SIGNED_UPLOAD_BASE}/{uploadId}`, 'putSignedUploadPart', {
      summary: `Upload part ?partNumber=N (multipart: the fields and a file part of at most ${PART_MAX_BYTES} bytes)`,
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
    signed.post(`${SIGNED_UPLOAD_BASE}/{uploadId}`, 'completeSignedUpload', {
      summary: 'Complete: JSON { parts: [1..n], …fields }, or the whole file as multipart',
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
