// The declared calls of Pixelbin's platform API (`/service/platform/*`, issue 22): the paths of
// `@pixelbin/admin` 4.2, each mapped onto a Tessera feature (pixelbin/routes.ts).
import { z } from 'zod'
import { searchQuery } from '../assets/search.ts'
import {
  type Answer,
  type ApiPart,
  calls,
  failure,
  formatted,
  JSON_BODY_ERRORS,
  json,
  ref,
  SOURCE_ERRORS,
  uuidParam,
} from '../http/openapi-kit.ts'
import {
  PLATFORM_ASSETS,
  PLATFORM_ORGANIZATION,
  PLATFORM_PAYMENT,
  PLATFORM_TRANSFORMATION,
} from './paths.ts'

const TOKEN_ERRORS: Record<string, Answer> = {
  '401': failure('unauthenticated (no Bearer token) or invalid_token'),
}

const platform = calls('', 'platform', TOKEN_ERRORS)
const assets = calls(PLATFORM_ASSETS, 'platform', TOKEN_ERRORS)

const fileIdParam = z
  .string()
  .describe("The file's folder and name without extension, slashes kept: dir/sub/name")
  .meta({ example: 'samples/astronaut' })
const FOLDER_ID = { id: uuidParam("The folder's _id") }
const FOLDER_404 = { '404': failure('folder_not_found') }
const presetNameParam = z.string().describe('The preset name').meta({ example: 'thumbnail' })
/** updateFile's body (the panel's file update, and isActive). */
const platformUpdateBody = () =>
  z.object({
    name: z.string().describe('New name, without extension (the extension is kept)').optional(),
    path: z.string().describe('New folder').optional(),
    access: z.enum(['public-read', 'private']).optional(),
    tags: z.array(z.string()).describe('Replaces the tags').optional(),
    metadata: z.record(z.string(), z.unknown()).describe('Replaces the metadata').optional(),
    isActive: z.boolean().describe('true only: no soft delete').optional(),
  })
const file = json(ref('AssetFile'), 'The file')
const folder = json(ref('AssetFolder'), 'The folder')
/** A JSON object answered as another call answers it (a fresh schema each time it is used). */
const passThrough = () => z.record(z.string(), z.unknown())

export const PLATFORM_OPENAPI: ApiPart = {
  tags: [
    {
      name: 'platform',
      description:
        "Pixelbin's platform API as @pixelbin/admin 4.2 calls it (docs/migration.md): an API token's organisation, Authorization: Bearer <token or its base64>. Errors carry message (read by the SDK) and code.",
    },
  ],
  schemas: {
    PlatformUsage: z.object({
      storage: z.object({
        used: z.int().describe('Bytes of stored originals'),
        total: z.null().describe('No storage limit on this server'),
        files: z.int(),
      }),
      credits: z.object({
        used: z.int().describe('Credits spent this month (or subscription period)'),
        total: z.int().describe('used + what is left'),
        balance: z.int(),
      }),
    }),
  },
  routes: [
    assets.post('/upload/direct', 'platformFileUpload', {
      summary:
        'fileUpload: multipart upload (file, path, name, access, tags, metadata, overwrite, filenameOverride)',
      body: {
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: formatted('binary'),
              path: z.string().optional(),
              name: z.string().optional(),
              access: z.enum(['public-read', 'private']).optional(),
              tags: z.array(z.string()).optional(),
              metadata: z.string().describe('A JSON object').optional(),
              overwrite: z.enum(['true', 'false']).optional(),
              filenameOverride: z.enum(['true', 'false']).optional(),
            }),
          },
        },
      },
      responses: {
        '200': json(ref('StoredFile'), 'The stored file'),
        '400': failure('invalid_field or unknown_field (naming it), or a multipart problem'),
        '409': failure('already_exists: overwrite and filenameOverride are false'),
        '413': failure('Larger than UPLOAD_MAX_BYTES'),
        '415': failure('unsupported_media_type, unsupported_type or extension_mismatch'),
      },
    }),
    assets.post('/upload/url', 'platformUrlUpload', {
      summary: 'urlUpload: store a file fetched from a URL (same fields, JSON)',
      body: { schema: passThrough() },
      responses: {
        '200': json(ref('StoredFile'), 'The stored file'),
        ...JSON_BODY_ERRORS,
        '409': failure('already_exists'),
        ...SOURCE_ERRORS,
      },
    }),
    assets.get('/listFiles', 'platformListFiles', {
      summary: 'listFiles: one folder level, or a search with any filter',
      query: searchQuery,
      responses: {
        '200': json(ref('AssetListing'), 'One page of folders and files'),
        '400': failure('invalid_query or invalid_field, naming the parameter'),
        '404': failure('folder_not_found'),
      },
    }),
    assets.get('/files/id/{id}', 'platformGetFileById', {
      summary: 'getFileById',
      params: { id: uuidParam("The file's _id") },
      responses: { '200': file, '404': failure('file_not_found') },
    }),
    assets.post('/files/delete', 'platformDeleteFiles', {
      summary: 'deleteFiles: { ids: [_id…] } (ids of no file are skipped)',
      body: { schema: z.object({ ids: z.array(z.string()) }) },
      responses: {
        '200': json(z.array(ref('AssetFile')), 'The files deleted'),
        ...JSON_BODY_ERRORS,
      },
    }),
    ...(['get', 'patch', 'delete'] as const).map((method) =>
      assets[method](
        '/files/{fileId}',
        `platform${{ get: 'GetFileByFileId', patch: 'UpdateFile', delete: 'DeleteFile' }[method]}`,
        {
          summary: {
            get: 'getFileByFileId',
            patch: 'updateFile: name, path, access, tags, metadata (isActive false is refused)',
            delete: 'deleteFile',
          }[method],
          params: { fileId: fileIdParam },
          ...(method === 'patch' ? { body: { schema: platformUpdateBody() } } : {}),
          responses: {
            '200': file,
            '400': failure('invalid_field or unknown_field, naming it'),
            '404': failure('file_not_found'),
            ...(method === 'patch' ? { '409': failure('already_exists') } : {}),
          },
        },
      ),
    ),
    assets.post('/folders', 'platformCreateFolder', {
      summary: 'createFolder: { name, path }',
      body: { schema: z.object({ name: z.string(), path: z.string().optional() }) },
      responses: { '200': folder, ...JSON_BODY_ERRORS, '409': failure('already_exists') },
    }),
    assets.get('/folders', 'platformGetFolderDetails', {
      summary: 'getFolderDetails: the folder named name in path (a list of 0 or 1)',
      query: z.object({ name: z.string(), path: z.string().optional() }),
      responses: {
        '200': json(z.array(ref('AssetFolder')), 'The folder, if it exists'),
        '400': failure('invalid_query or invalid_path'),
      },
    }),
    assets.patch('/folders/{id}', 'platformUpdateFolder', {
      summary: 'updateFolder: { isActive } (false, a soft delete, is refused)',
      params: FOLDER_ID,
      body: { schema: z.object({ isActive: z.boolean().optional() }) },
      responses: { '200': folder, ...JSON_BODY_ERRORS, ...FOLDER_404 },
    }),
    assets.delete('/folders/{id}', 'platformDeleteFolder', {
      summary: 'deleteFolder: the folder and everything under it',
      params: FOLDER_ID,
      responses: {
        '200': json(z.array(ref('AssetFolder')), 'The deleted folder'),
        ...FOLDER_404,
      },
    }),
    assets.get('/folders/{id}/ancestors', 'platformGetFolderAncestors', {
      summary: 'getFolderAncestors: the folder and its ancestors from the top',
      params: FOLDER_ID,
      responses: {
        '200': json(
          z.object({ folder: ref('AssetFolder'), ancestors: z.array(ref('AssetFolder')) }),
          'The folder and its ancestors',
        ),
        ...FOLDER_404,
      },
    }),
    ...(['get', 'post'] as const).map((method) =>
      assets[method]('/presets', method === 'get' ? 'platformGetPresets' : 'platformAddPreset', {
        summary: `${method === 'get' ? 'getPresets' : 'addPreset'}: the panel's preset call for the token's organisation`,
        ...(method === 'post' ? { body: { schema: passThrough() } } : {}),
        responses: {
          '200': json(passThrough(), 'As the panel answers it'),
          '201': json(passThrough(), 'The new preset'),
          '400': failure('As the panel answers it'),
        },
      }),
    ),
    ...(['get', 'patch', 'delete'] as const).map((method) =>
      assets[method](
        '/presets/{presetName}',
        `platform${{ get: 'GetPreset', patch: 'UpdatePreset', delete: 'DeletePreset' }[method]}`,
        {
          summary: `${{ get: 'getPreset', patch: 'updatePreset ({ archived })', delete: 'deletePreset' }[method]}`,
          params: { presetName: presetNameParam },
          ...(method === 'patch' ? { body: { schema: passThrough() } } : {}),
          responses: {
            '200': json(passThrough(), 'The preset'),
            '404': failure('preset_not_found'),
          },
        },
      ),
    ),
    assets.get('/playground/default', 'platformGetDefaultAssetForPlayground', {
      summary: "getDefaultAssetForPlayground: the organisation's newest public image",
      responses: { '200': file, '404': failure('no_default_asset: no image yet') },
    }),
    assets.get('/playground/plugins', 'platformGetModules', {
      summary: 'getModules: the operation catalogue, by plugin',
      responses: { '200': json(passThrough(), '{ plugins, presets }') },
    }),
    assets.get('/playground/plugins/{identifier}', 'platformGetModule', {
      summary: 'getModule: one plugin of the catalogue',
      params: { identifier: z.string().describe('Plugin id (t, erase, …)').meta({ example: 't' }) },
      responses: {
        '200': json(passThrough(), 'The plugin'),
        '404': failure('plugin_not_found'),
      },
    }),
    assets.post('/credentials', 'platformAddCredentials', {
      summary: 'addCredentials: refused, the models run on this server',
      body: { schema: passThrough() },
      responses: { '400': failure('credentials_not_needed') },
    }),
    ...(['patch', 'delete'] as const).map((method) =>
      assets[method](
        '/credentials/{pluginId}',
        method === 'patch' ? 'platformUpdateCredentials' : 'platformDeleteCredentials',
        {
          summary: `${method === 'patch' ? 'updateCredentials' : 'deleteCredentials'}: refused, the models run on this server`,
          params: { pluginId: z.string().meta({ example: 'erase' }) },
          ...(method === 'patch' ? { body: { schema: passThrough() } } : {}),
          responses: { '400': failure('credentials_not_needed') },
        },
      ),
    ),
    platform.get(`${PLATFORM_ORGANIZATION}/apps/info`, 'platformGetAppOrgDetails', {
      summary: 'getAppOrgDetails: the token (app) and its organisation',
      responses: {
        '200': json(z.object({ app: passThrough(), org: passThrough() }), '{ app, org }'),
      },
    }),
    platform.get(`${PLATFORM_TRANSFORMATION}/context`, 'platformGetTransformationContext', {
      summary: "getTransformationContext: the panel's context call, as { context }",
      query: z.object({ url: z.string().describe('A delivery URL or its path') }),
      responses: {
        '200': json(passThrough(), '{ context }'),
        '202': json(passThrough(), 'Queued'),
        '400': failure('invalid_url'),
        '404': failure('not_found'),
      },
    }),
    platform.get(`${PLATFORM_PAYMENT}/usage`, 'platformGetUsageV2', {
      summary: 'getUsageV2: storage and credits, used and total',
      responses: { '200': json(ref('PlatformUsage'), 'Usage') },
    }),
    platform.get(`${PLATFORM_PAYMENT}/usage/subscription`, 'platformGetUsage', {
      summary: 'getUsage (deprecated in the SDK): the same figures, Pixelbin v1 shape',
      responses: { '200': json(passThrough(), 'Usage') },
    }),
  ],
}
