// The declared calls of Pixelbin's platform API (`/service/platform/*`, issue 22): the paths of
// `@pixelbin/admin` 4.2, each mapped onto a Tessera feature (pixelbin/routes.ts).
import { z } from 'zod'
import { searchQuery } from '../assets/search.ts'
import {
  type Answer,
  type ApiPart,
  failure,
  formatted,
  JSON_BODY_ERRORS,
  type RouteDeclaration,
  ref,
  route,
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

const platform = (
  declaration: Omit<RouteDeclaration, 'tags' | 'params'> & { params?: z.ZodRawShape },
): RouteDeclaration => {
  const { params, ...rest } = declaration
  return route({
    ...rest,
    tags: ['platform'],
    ...(params === undefined ? {} : { params: z.object(params) }),
    responses: { ...TOKEN_ERRORS, ...declaration.responses },
  })
}

const fileIdParam = z
  .string()
  .describe("The file's folder and name without extension, slashes kept: dir/sub/name")
  .meta({ example: 'samples/astronaut' })
const folderIdParam = uuidParam("The folder's _id")
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
const file = { description: 'The file', schema: ref('AssetFile') }
const folder = { description: 'The folder', schema: ref('AssetFolder') }
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
    platform({
      method: 'post',
      path: `${PLATFORM_ASSETS}/upload/direct`,
      operationId: 'platformFileUpload',
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
        '200': { description: 'The stored file', schema: ref('StoredFile') },
        '400': failure('invalid_field or unknown_field (naming it), or a multipart problem'),
        '409': failure('already_exists: overwrite and filenameOverride are false'),
        '413': failure('Larger than UPLOAD_MAX_BYTES'),
        '415': failure('unsupported_media_type, unsupported_type or extension_mismatch'),
      },
    }),
    platform({
      method: 'post',
      path: `${PLATFORM_ASSETS}/upload/url`,
      operationId: 'platformUrlUpload',
      summary: 'urlUpload: store a file fetched from a URL (same fields, JSON)',
      body: { schema: passThrough() },
      responses: {
        '200': { description: 'The stored file', schema: ref('StoredFile') },
        ...JSON_BODY_ERRORS,
        '409': failure('already_exists'),
        '502': failure('The source failed'),
        '504': failure('The source was too slow'),
      },
    }),
    platform({
      method: 'get',
      path: `${PLATFORM_ASSETS}/listFiles`,
      operationId: 'platformListFiles',
      summary: 'listFiles: one folder level, or a search with any filter',
      query: searchQuery,
      responses: {
        '200': { description: 'One page of folders and files', schema: ref('AssetListing') },
        '400': failure('invalid_query or invalid_field, naming the parameter'),
        '404': failure('folder_not_found'),
      },
    }),
    platform({
      method: 'get',
      path: `${PLATFORM_ASSETS}/files/id/{id}`,
      operationId: 'platformGetFileById',
      summary: 'getFileById',
      params: { id: uuidParam("The file's _id") },
      responses: { '200': file, '404': failure('file_not_found') },
    }),
    platform({
      method: 'post',
      path: `${PLATFORM_ASSETS}/files/delete`,
      operationId: 'platformDeleteFiles',
      summary: 'deleteFiles: { ids: [_id…] } (ids of no file are skipped)',
      body: { schema: z.object({ ids: z.array(z.string()) }) },
      responses: {
        '200': { description: 'The files deleted', schema: z.array(ref('AssetFile')) },
        ...JSON_BODY_ERRORS,
      },
    }),
    ...(['get', 'patch', 'delete'] as const).map((method) =>
      platform({
        method,
        path: `${PLATFORM_ASSETS}/files/{fileId}`,
        operationId: `platform${{ get: 'GetFileByFileId', patch: 'UpdateFile', delete: 'DeleteFile' }[method]}`,
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
      }),
    ),
    platform({
      method: 'post',
      path: `${PLATFORM_ASSETS}/folders`,
      operationId: 'platformCreateFolder',
      summary: 'createFolder: { name, path }',
      body: { schema: z.object({ name: z.string(), path: z.string().optional() }) },
      responses: { '200': folder, ...JSON_BODY_ERRORS, '409': failure('already_exists') },
    }),
    platform({
      method: 'get',
      path: `${PLATFORM_ASSETS}/folders`,
      operationId: 'platformGetFolderDetails',
      summary: 'getFolderDetails: the folder named name in path (a list of 0 or 1)',
      query: z.object({ name: z.string(), path: z.string().optional() }),
      responses: {
        '200': { description: 'The folder, if it exists', schema: z.array(ref('AssetFolder')) },
        '400': failure('invalid_query or invalid_path'),
      },
    }),
    platform({
      method: 'patch',
      path: `${PLATFORM_ASSETS}/folders/{id}`,
      operationId: 'platformUpdateFolder',
      summary: 'updateFolder: { isActive } (false, a soft delete, is refused)',
      params: { id: folderIdParam },
      body: { schema: z.object({ isActive: z.boolean().optional() }) },
      responses: { '200': folder, ...JSON_BODY_ERRORS, '404': failure('folder_not_found') },
    }),
    platform({
      method: 'delete',
      path: `${PLATFORM_ASSETS}/folders/{id}`,
      operationId: 'platformDeleteFolder',
      summary: 'deleteFolder: the folder and everything under it',
      params: { id: folderIdParam },
      responses: {
        '200': { description: 'The deleted folder', schema: z.array(ref('AssetFolder')) },
        '404': failure('folder_not_found'),
      },
    }),
    platform({
      method: 'get',
      path: `${PLATFORM_ASSETS}/folders/{id}/ancestors`,
      operationId: 'platformGetFolderAncestors',
      summary: 'getFolderAncestors: the folder and its ancestors from the top',
      params: { id: folderIdParam },
      responses: {
        '200': {
          description: 'The folder and its ancestors',
          schema: z.object({ folder: ref('AssetFolder'), ancestors: z.array(ref('AssetFolder')) }),
        },
        '404': failure('folder_not_found'),
      },
    }),
    ...(['get', 'post'] as const).map((method) =>
      platform({
        method,
        path: `${PLATFORM_ASSETS}/presets`,
        operationId: method === 'get' ? 'platformGetPresets' : 'platformAddPreset',
        summary: `${method === 'get' ? 'getPresets' : 'addPreset'}: the panel's preset call for the token's organisation`,
        ...(method === 'post' ? { body: { schema: passThrough() } } : {}),
        responses: {
          '200': { description: 'As the panel answers it', schema: passThrough() },
          '201': { description: 'The new preset', schema: passThrough() },
          '400': failure('As the panel answers it'),
        },
      }),
    ),
    ...(['get', 'patch', 'delete'] as const).map((method) =>
      platform({
        method,
        path: `${PLATFORM_ASSETS}/presets/{presetName}`,
        operationId: `platform${{ get: 'GetPreset', patch: 'UpdatePreset', delete: 'DeletePreset' }[method]}`,
        summary: `${{ get: 'getPreset', patch: 'updatePreset ({ archived })', delete: 'deletePreset' }[method]}`,
        params: { presetName: presetNameParam },
        ...(method === 'patch' ? { body: { schema: passThrough() } } : {}),
        responses: {
          '200': { description: 'The preset', schema: passThrough() },
          '404': failure('preset_not_found'),
        },
      }),
    ),
    platform({
      method: 'get',
      path: `${PLATFORM_ASSETS}/playground/default`,
      operationId: 'platformGetDefaultAssetForPlayground',
      summary: "getDefaultAssetForPlayground: the organisation's newest public image",
      responses: { '200': file, '404': failure('no_default_asset: no image yet') },
    }),
    platform({
      method: 'get',
      path: `${PLATFORM_ASSETS}/playground/plugins`,
      operationId: 'platformGetModules',
      summary: 'getModules: the operation catalogue, by plugin',
      responses: { '200': { description: '{ plugins, presets }', schema: passThrough() } },
    }),
    platform({
      method: 'get',
      path: `${PLATFORM_ASSETS}/playground/plugins/{identifier}`,
      operationId: 'platformGetModule',
      summary: 'getModule: one plugin of the catalogue',
      params: { identifier: z.string().describe('Plugin id (t, erase, …)').meta({ example: 't' }) },
      responses: {
        '200': { description: 'The plugin', schema: passThrough() },
        '404': failure('plugin_not_found'),
      },
    }),
    platform({
      method: 'post',
      path: `${PLATFORM_ASSETS}/credentials`,
      operationId: 'platformAddCredentials',
      summary: 'addCredentials: refused, the models run on this server',
      body: { schema: passThrough() },
      responses: { '400': failure('credentials_not_needed') },
    }),
    ...(['patch', 'delete'] as const).map((method) =>
      platform({
        method,
        path: `${PLATFORM_ASSETS}/credentials/{pluginId}`,
        operationId: method === 'patch' ? 'platformUpdateCredentials' : 'platformDeleteCredentials',
        summary: `${method === 'patch' ? 'updateCredentials' : 'deleteCredentials'}: refused, the models run on this server`,
        params: { pluginId: z.string().meta({ example: 'erase' }) },
        ...(method === 'patch' ? { body: { schema: passThrough() } } : {}),
        responses: { '400': failure('credentials_not_needed') },
      }),
    ),
    platform({
      method: 'get',
      path: `${PLATFORM_ORGANIZATION}/apps/info`,
      operationId: 'platformGetAppOrgDetails',
      summary: 'getAppOrgDetails: the token (app) and its organisation',
      responses: {
        '200': {
          description: '{ app, org }',
          schema: z.object({ app: passThrough(), org: passThrough() }),
        },
      },
    }),
    platform({
      method: 'get',
      path: `${PLATFORM_TRANSFORMATION}/context`,
      operationId: 'platformGetTransformationContext',
      summary: "getTransformationContext: the panel's context call, as { context }",
      query: z.object({ url: z.string().describe('A delivery URL or its path') }),
      responses: {
        '200': { description: '{ context }', schema: passThrough() },
        '202': { description: 'Queued', schema: passThrough() },
        '400': failure('invalid_url'),
        '404': failure('not_found'),
      },
    }),
    platform({
      method: 'get',
      path: `${PLATFORM_PAYMENT}/usage`,
      operationId: 'platformGetUsageV2',
      summary: 'getUsageV2: storage and credits, used and total',
      responses: { '200': { description: 'Usage', schema: ref('PlatformUsage') } },
    }),
    platform({
      method: 'get',
      path: `${PLATFORM_PAYMENT}/usage/subscription`,
      operationId: 'platformGetUsage',
      summary: 'getUsage (deprecated in the SDK): the same figures, Pixelbin v1 shape',
      responses: { '200': { description: 'Usage', schema: passThrough() } },
    }),
  ],
}
