// The declared calls of an organisation's files and folders, its usage and recent files.
import { z } from 'zod'
import {
  type ApiPart,
  dateTime,
  failure,
  formatted,
  orgRoute,
  ref,
  uuidParam,
} from '../http/openapi-kit.ts'
import { pageQuery } from '../http/paging.ts'

import { ASSET_API_BASE, RECENT_PAGE_SIZE } from './paths.ts'
import {
  createFolderBody,
  deleteFolderQuery,
  filesQuery,
  folderQuery,
  moveBody,
} from './requests.ts'

export const ASSET_API: ApiPart = {
  tags: [
    {
      name: 'files',
      description:
        "An organisation's files and folders: list one folder level, rename, move and delete files, make, move and delete folders. Members and the organisation's API tokens may call them.",
    },
    {
      name: 'presets',
      description:
        'Named transformations used in delivery URLs as p:name or p:name(var:value). Archived presets stay listed (archived: true) and are refused by delivery.',
    },
  ],
  schemas: {
    AssetFile: z.object({
      _id: formatted('uuid'),
      fileId: formatted('uuid').describe('The same as _id'),
      orgId: formatted('uuid'),
      type: z.literal('file'),
      name: z.string().describe('File name, e.g. astronaut.png'),
      path: z.string().describe('Its folder; "" at the top level'),
      fullPath: z.string().describe('Folder and name, as in delivery URLs'),
      format: z.string().describe('Format found from the bytes (png, jpeg, webp, …)'),
      contentType: z.string(),
      assetType: z.enum(['image', 'video', 'raw']),
      duration: z.number().optional().describe('A video: its length in seconds'),
      codec: z.string().optional().describe('A video: its video codec (h264, vp9, …)'),
      video: z
        .object({
          duration: z.number(),
          codec: z.string(),
          frameRate: z.number(),
          frames: z.int(),
          audioCodec: z.string().optional(),
        })
        .optional()
        .describe('A video: what ffprobe read at upload (docs/delivery.md#video)'),
      size: z.int().describe('Bytes'),
      width: z.int().nullable(),
      height: z.int().nullable(),
      version: z.int().describe('Bumped when the file is overwritten or moved'),
      url: z
        .string()
        .describe('Delivery URL of the original: {PUBLIC_URL}/v2/{cloudName}/original/{fullPath}'),
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    AssetFolder: z.object({
      _id: z
        .string()
        .nullable()
        .describe(
          'Set for folders made with POST …/folders; null for folders that exist because something lies in them',
        ),
      orgId: formatted('uuid'),
      type: z.literal('folder'),
      name: z.string(),
      path: z.string().describe('Its parent folder; "" at the top level'),
      fullPath: z.string(),
      createdAt: dateTime.nullable(),
    }),
    AssetListing: z.object({
      items: z.array(z.xor([ref('AssetFolder'), ref('AssetFile')])),
      page: ref('Page'),
    }),
    FolderDeleted: z.object({
      path: z.string(),
      deleted: z.object({
        files: z.int(),
        folders: z.int().describe('Folders made explicitly that went'),
      }),
    }),
    Usage: z.object({
      storage: z.object({
        files: z.int().describe('Files stored, in every folder'),
        bytes: z.int().describe('Bytes of the stored originals'),
      }),
      derivedCache: z.object({
        entries: z.int().describe("Derived images of this organisation's files that are stored"),
        bytes: z.int().describe('Their bytes'),
        budgetBytes: z
          .int()
          .describe(
            "DERIVED_CACHE_MAX_BYTES: the byte budget of every organisation's derived images on this server together (least recently used go first)",
          ),
      }),
      credits: z.object({ balance: z.int().describe('Credits left') }),
    }),
    RecentFiles: z.object({ items: z.array(ref('AssetFile')), page: ref('Page') }),
  },
  routes: [
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/files`,
      operationId: 'listFiles',
      summary: 'One folder level: its sub-folders (first) and files, by name, paged',
      tags: ['files'],
      query: filesQuery,
      responses: {
        '200': { description: 'One page of folders and files', schema: ref('AssetListing') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '404': failure('organisation_not_found, or folder_not_found'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/files/{fileId}`,
      operationId: 'getFile',
      summary: 'One file',
      tags: ['files'],
      params: { fileId: uuidParam('The file (`_id` from the listing or the upload answer)') },
      responses: {
        '200': { description: 'The file', schema: ref('AssetFile') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '404': failure('organisation_not_found, or file_not_found'),
      },
    }),
    orgRoute({
      method: 'patch',
      path: `${ASSET_API_BASE}/{orgId}/files/{fileId}`,
      operationId: 'moveFile',
      summary: 'Rename and/or move a file',
      description:
        'The delivery URL changes with the path: the old one answers 404 at once. The file gets a new version; its derived images are deleted and made again on request.',
      tags: ['files'],
      params: { fileId: uuidParam('The file (`_id` from the listing or the upload answer)') },
      body: { schema: moveBody },
      responses: {
        '200': { description: 'The file at its new path', schema: ref('AssetFile') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '404': failure('organisation_not_found, or file_not_found'),
        '409': failure('already_exists: a file or folder is at the new path'),
        '413': failure('too_large: the JSON body is over 64 KB'),
        '415': failure('unsupported_media_type: send application/json'),
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${ASSET_API_BASE}/{orgId}/files/{fileId}`,
      operationId: 'deleteFile',
      summary: 'Delete a file, its stored original and every derived image',
      tags: ['files'],
      params: { fileId: uuidParam('The file (`_id` from the listing or the upload answer)') },
      responses: {
        '200': { description: 'The file that was deleted', schema: ref('AssetFile') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '404': failure('organisation_not_found, or file_not_found'),
      },
    }),
    orgRoute({
      method: 'post',
      path: `${ASSET_API_BASE}/{orgId}/folders`,
      operationId: 'createFolder',
      summary: 'Make a folder (and any missing parent folders)',
      tags: ['files'],
      body: { schema: createFolderBody },
      responses: {
        '201': { description: 'The new folder', schema: ref('AssetFolder') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '409': failure('already_exists: a folder or file is at this path'),
        '413': failure('too_large: the JSON body is over 64 KB'),
        '415': failure('unsupported_media_type: send application/json'),
      },
    }),
    orgRoute({
      method: 'patch',
      path: `${ASSET_API_BASE}/{orgId}/folders`,
      operationId: 'moveFolder',
      summary: 'Rename and/or move a folder with everything in it',
      tags: ['files'],
      query: folderQuery,
      body: { schema: moveBody },
      responses: {
        '200': { description: 'The folder at its new path', schema: ref('AssetFolder') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '404': failure('organisation_not_found, or folder_not_found'),
        '409': failure('already_exists: something is at the new path'),
        '413': failure('too_large: the JSON body is over 64 KB'),
        '415': failure('unsupported_media_type: send application/json'),
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${ASSET_API_BASE}/{orgId}/folders`,
      operationId: 'deleteFolder',
      summary: 'Delete an empty folder, or with recursive=true everything in it',
      tags: ['files'],
      query: deleteFolderQuery,
      responses: {
        '200': { description: 'What was deleted', schema: ref('FolderDeleted') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '404': failure('organisation_not_found, or folder_not_found'),
        '409': failure('folder_not_empty: send recursive=true to delete what is in it'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/usage`,
      operationId: 'getUsage',
      summary: 'Storage, derived-image cache and credits of the organisation, counted now',
      tags: ['files'],
      responses: {
        '200': { description: 'What the organisation uses', schema: ref('Usage') },
        '400': failure('invalid_query, or a signature_* problem'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/recent-files`,
      operationId: 'listRecentFiles',
      summary: 'Files in every folder, the most recently uploaded or changed first, paged',
      tags: ['files'],
      query: z.object({
        ...pageQuery(RECENT_PAGE_SIZE),
      }),
      responses: {
        '200': { description: 'One page of files', schema: ref('RecentFiles') },
        '400': failure('invalid_query, or a signature_* problem'),
      },
    }),
  ],
}
