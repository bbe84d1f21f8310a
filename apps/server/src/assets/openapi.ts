// The declared calls of an organisation's files and folders, its usage and recent files.
import { z } from 'zod'
import {
  type ApiPart,
  dateTime,
  failure,
  formatted,
  JSON_BODY_LIMITS,
  orgRoute,
  pagedList,
  ref,
  uuidParam,
} from '../http/openapi-kit.ts'
import { pageQuery } from '../http/paging.ts'

import { ASSET_API_BASE, RECENT_PAGE_SIZE } from './paths.ts'
import {
  createFolderBody,
  deleteFilesBody,
  deleteFolderQuery,
  filesQuery,
  folderQuery,
  moveBody,
  updateFileBody,
} from './requests.ts'
import { searchQuery } from './search.ts'
import { dailyUsageQuery } from './usage-requests.ts'

/** The kind of a stored file and, for a video, what ffprobe read (the file and upload answers). */
export const MEDIA_FIELDS = {
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
}

/** What a call on files or folders answers for a bad request. */
const badRequest = failure(
  'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
)

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
      ...MEDIA_FIELDS,
      size: z.int().describe('Bytes'),
      width: z.int().nullable(),
      height: z.int().nullable(),
      pages: z
        .int()
        .nullable()
        .describe(
          "A PDF's page count, an animation's frames, 1 for a still image; null for others",
        ),
      version: z.int().describe('Bumped when the file is overwritten or moved'),
      access: z
        .enum(['public-read', 'private'])
        .describe('private: delivered only through a signed URL'),
      tags: z.array(z.string()).describe("The owner's labels"),
      metadata: z.record(z.string(), z.unknown()).describe("The owner's JSON object"),
      isActive: z.literal(true).describe('Always true (no soft delete), as Pixelbin answers'),
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
      isActive: z.literal(true).optional(),
      createdAt: dateTime.nullable(),
      updatedAt: dateTime.nullable().optional(),
    }),
    TagCount: z.object({ tag: z.string(), files: z.int().describe('Files carrying it') }),
    TagList: z.object({ items: z.array(ref('TagCount')) }),
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
    DailyUsage: z.object({
      from: z.string().describe('First day, YYYY-MM-DD'),
      to: z.string().describe('Last day, YYYY-MM-DD'),
      days: z.array(
        z.object({
          day: z.string().describe('YYYY-MM-DD, UTC'),
          requests: z.int().describe('Delivery answers (images, originals, 304s)'),
          bytes: z.int().describe('Bytes of their bodies'),
          renders: z.int().describe('Derived images rendered on request (cache misses)'),
          aiRuns: z.int().describe('AI renders queued and charged'),
          credits: z.int().describe('Credits spent'),
        }),
      ),
      totals: z.object({
        requests: z.int(),
        bytes: z.int(),
        renders: z.int(),
        aiRuns: z.int(),
        credits: z.int(),
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
    RecentFiles: pagedList('AssetFile'),
  },
  routes: [
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/listFiles`,
      operationId: 'searchFiles',
      access: { role: 'viewer' },
      summary: 'Search the library (the platform listFiles): folders by name, then files, paged',
      description:
        'Without filters: one folder level, as …/files. With name, tags (repeat tags, or tags[0], tags[1]…), metadata, format, size, dates, access or pathText: every file under path that matches all of them, and folders whose name contains name.',
      tags: ['files'],
      query: searchQuery,
      responses: {
        '200': { description: 'One page of folders and files', schema: ref('AssetListing') },
        '400': failure('invalid_query, invalid_field, invalid_path, or a signature_* problem'),
        '404': failure('organisation_not_found, or folder_not_found'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/tags`,
      operationId: 'listTags',
      access: { role: 'viewer' },
      summary: 'The tags on the organisation’s files, most used first (at most 200)',
      tags: ['files'],
      responses: {
        '200': { description: 'Tags and how many files carry each', schema: ref('TagList') },
        '400': failure('invalid_query, or a signature_* problem'),
      },
    }),
    orgRoute({
      method: 'post',
      path: `${ASSET_API_BASE}/{orgId}/files/delete`,
      operationId: 'deleteFiles',
      access: { role: 'member' },
      summary: 'Delete several files by id (ids of no file of the organisation are skipped)',
      tags: ['files'],
      body: { schema: deleteFilesBody },
      responses: {
        '200': { description: 'The files deleted', schema: z.array(ref('AssetFile')) },
        '400': failure('invalid_json, invalid_body, or a signature_* problem'),
        ...JSON_BODY_LIMITS,
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/files`,
      operationId: 'listFiles',
      access: { role: 'viewer' },
      summary: 'One folder level: its sub-folders (first) and files, by name, paged',
      tags: ['files'],
      query: filesQuery,
      responses: {
        '200': { description: 'One page of folders and files', schema: ref('AssetListing') },
        '400': badRequest,
        '404': failure('organisation_not_found, or folder_not_found'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/files/{fileId}`,
      operationId: 'getFile',
      access: { role: 'viewer' },
      summary: 'One file',
      tags: ['files'],
      params: { fileId: uuidParam('The file (`_id` from the listing or the upload answer)') },
      responses: {
        '200': { description: 'The file', schema: ref('AssetFile') },
        '400': badRequest,
        '404': failure('organisation_not_found, or file_not_found'),
      },
    }),
    orgRoute({
      method: 'patch',
      path: `${ASSET_API_BASE}/{orgId}/files/{fileId}`,
      operationId: 'moveFile',
      access: { role: 'member' },
      summary: 'Rename and/or move a file; set its access, tags or metadata',
      description:
        'The delivery URL changes with the path: the old one answers 404 at once. A moved file gets a new version; its derived images are deleted and made again on request. tags and metadata replace the old ones; access private makes delivery ask for a signed URL at once.',
      tags: ['files'],
      params: { fileId: uuidParam('The file (`_id` from the listing or the upload answer)') },
      body: { schema: updateFileBody },
      responses: {
        '200': { description: 'The file at its new path', schema: ref('AssetFile') },
        '400': badRequest,
        '404': failure('organisation_not_found, or file_not_found'),
        '409': failure('already_exists: a file or folder is at the new path'),
        ...JSON_BODY_LIMITS,
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${ASSET_API_BASE}/{orgId}/files/{fileId}`,
      operationId: 'deleteFile',
      access: { role: 'member' },
      summary: 'Delete a file, its stored original and every derived image',
      tags: ['files'],
      params: { fileId: uuidParam('The file (`_id` from the listing or the upload answer)') },
      responses: {
        '200': { description: 'The file that was deleted', schema: ref('AssetFile') },
        '400': badRequest,
        '404': failure('organisation_not_found, or file_not_found'),
      },
    }),
    orgRoute({
      method: 'post',
      path: `${ASSET_API_BASE}/{orgId}/folders`,
      operationId: 'createFolder',
      access: { role: 'member' },
      summary: 'Make a folder (and any missing parent folders)',
      tags: ['files'],
      body: { schema: createFolderBody },
      responses: {
        '201': { description: 'The new folder', schema: ref('AssetFolder') },
        '400': badRequest,
        '409': failure('already_exists: a folder or file is at this path'),
        ...JSON_BODY_LIMITS,
      },
    }),
    orgRoute({
      method: 'patch',
      path: `${ASSET_API_BASE}/{orgId}/folders`,
      operationId: 'moveFolder',
      access: { role: 'member' },
      summary: 'Rename and/or move a folder with everything in it',
      tags: ['files'],
      query: folderQuery,
      body: { schema: moveBody },
      responses: {
        '200': { description: 'The folder at its new path', schema: ref('AssetFolder') },
        '400': badRequest,
        '404': failure('organisation_not_found, or folder_not_found'),
        '409': failure('already_exists: something is at the new path'),
        ...JSON_BODY_LIMITS,
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${ASSET_API_BASE}/{orgId}/folders`,
      operationId: 'deleteFolder',
      access: { role: 'member' },
      summary: 'Delete an empty folder, or with recursive=true everything in it',
      tags: ['files'],
      query: deleteFolderQuery,
      responses: {
        '200': { description: 'What was deleted', schema: ref('FolderDeleted') },
        '400': badRequest,
        '404': failure('organisation_not_found, or folder_not_found'),
        '409': failure('folder_not_empty: send recursive=true to delete what is in it'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/usage`,
      operationId: 'getUsage',
      access: { role: 'viewer' },
      summary: 'Storage, derived-image cache and credits of the organisation, counted now',
      tags: ['files'],
      responses: {
        '200': { description: 'What the organisation uses', schema: ref('Usage') },
        '400': failure('invalid_query, or a signature_* problem'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/usage/daily`,
      operationId: 'getDailyUsage',
      access: { role: 'viewer' },
      summary:
        'Usage per day (UTC): delivery requests and bytes, renders, AI runs and credits spent; every day of the range present',
      tags: ['files'],
      query: dailyUsageQuery,
      responses: {
        '200': { description: 'The days and their totals', schema: ref('DailyUsage') },
        '400': failure('invalid_query: not a date, from after to, or over 400 days'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/recent-files`,
      operationId: 'listRecentFiles',
      access: { role: 'viewer' },
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
