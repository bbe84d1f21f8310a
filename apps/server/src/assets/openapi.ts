// The declared calls of an organisation's files and folders, its usage and recent files.
import { z } from 'zod'
import {
  type ApiPart,
  dateTime,
  failure,
  formatted,
  JSON_BODY_LIMITS,
  json,
  notFoundIn,
  orgCalls,
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

/** A stored file's dimensions (the file and upload answers). */
export const PIXEL_FIELDS = {
  width: z.int().nullable(),
  height: z.int().nullable(),
  pages: z
    .int()
    .nullable()
    .describe("A PDF's page count, an animation's frames, 1 for a still image; null for others"),
}

/** What a call on files, folders or presets answers for a bad request. */
export const badRequest = failure(
  'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
)
const READ_400 = { '400': failure('invalid_query, or a signature_* problem') }
const FOLDER_404 = notFoundIn('folder_not_found')
/** The failures of a call on a folder, and on a file. */
const IN_FOLDER = { '400': badRequest, ...FOLDER_404 }
const ON_FILE = { '400': badRequest, ...notFoundIn('file_not_found') }
const FILE_ID = { fileId: uuidParam('The file (`_id` from the listing or the upload answer)') }
const files = orgCalls(ASSET_API_BASE, 'files')

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
      ...PIXEL_FIELDS,
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
    files.get('/listFiles', 'searchFiles', 'viewer', {
      summary: 'Search the library (the platform listFiles): folders by name, then files, paged',
      description:
        'Without filters: one folder level, as …/files. With name, tags (repeat tags, or tags[0], tags[1]…), metadata, format, size, dates, access or pathText: every file under path that matches all of them, and folders whose name contains name.',
      query: searchQuery,
      responses: {
        '200': json(ref('AssetListing'), 'One page of folders and files'),
        '400': failure('invalid_query, invalid_field, invalid_path, or a signature_* problem'),
        ...FOLDER_404,
      },
    }),
    files.get('/tags', 'listTags', 'viewer', {
      summary: 'The tags on the organisation’s files, most used first (at most 200)',
      responses: { '200': json(ref('TagList'), 'Tags and how many files carry each'), ...READ_400 },
    }),
    files.post('/files/delete', 'deleteFiles', 'member', {
      summary: 'Delete several files by id (ids of no file of the organisation are skipped)',
      body: { schema: deleteFilesBody },
      responses: {
        '200': json(z.array(ref('AssetFile')), 'The files deleted'),
        '400': failure('invalid_json, invalid_body, or a signature_* problem'),
        ...JSON_BODY_LIMITS,
      },
    }),
    files.get('/files', 'listFiles', 'viewer', {
      summary: 'One folder level: its sub-folders (first) and files, by name, paged',
      query: filesQuery,
      responses: {
        '200': json(ref('AssetListing'), 'One page of folders and files'),
        ...IN_FOLDER,
      },
    }),
    files.get('/files/{fileId}', 'getFile', 'viewer', {
      summary: 'One file',
      params: FILE_ID,
      responses: { '200': json(ref('AssetFile'), 'The file'), ...ON_FILE },
    }),
    files.patch('/files/{fileId}', 'moveFile', 'member', {
      summary: 'Rename and/or move a file; set its access, tags or metadata',
      description:
        'The delivery URL changes with the path: the old one answers 404 at once. A moved file gets a new version; its derived images are deleted and made again on request. tags and metadata replace the old ones; access private makes delivery ask for a signed URL at once.',
      params: FILE_ID,
      body: { schema: updateFileBody },
      responses: {
        '200': json(ref('AssetFile'), 'The file at its new path'),
        ...ON_FILE,
        '409': failure('already_exists: a file or folder is at the new path'),
        ...JSON_BODY_LIMITS,
      },
    }),
    files.delete('/files/{fileId}', 'deleteFile', 'member', {
      summary: 'Delete a file, its stored original and every derived image',
      params: FILE_ID,
      responses: { '200': json(ref('AssetFile'), 'The file that was deleted'), ...ON_FILE },
    }),
    files.post('/folders', 'createFolder', 'member', {
      summary: 'Make a folder (and any missing parent folders)',
      body: { schema: createFolderBody },
      responses: {
        '201': json(ref('AssetFolder'), 'The new folder'),
        '400': badRequest,
        '409': failure('already_exists: a folder or file is at this path'),
        ...JSON_BODY_LIMITS,
      },
    }),
    files.patch('/folders', 'moveFolder', 'member', {
      summary: 'Rename and/or move a folder with everything in it',
      query: folderQuery,
      body: { schema: moveBody },
      responses: {
        '200': json(ref('AssetFolder'), 'The folder at its new path'),
        ...IN_FOLDER,
        '409': failure('already_exists: something is at the new path'),
        ...JSON_BODY_LIMITS,
      },
    }),
    files.delete('/folders', 'deleteFolder', 'member', {
      summary: 'Delete an empty folder, or with recursive=true everything in it',
      query: deleteFolderQuery,
      responses: {
        '200': json(ref('FolderDeleted'), 'What was deleted'),
        ...IN_FOLDER,
        '409': failure('folder_not_empty: send recursive=true to delete what is in it'),
      },
    }),
    files.get('/usage', 'getUsage', 'viewer', {
      summary: 'Storage, derived-image cache and credits of the organisation, counted now',
      responses: { '200': json(ref('Usage'), 'What the organisation uses'), ...READ_400 },
    }),
    files.get('/usage/daily', 'getDailyUsage', 'viewer', {
      summary:
        'Usage per day (UTC): delivery requests and bytes, renders, AI runs and credits spent; every day of the range present',
      query: dailyUsageQuery,
      responses: {
        '200': json(ref('DailyUsage'), 'The days and their totals'),
        '400': failure('invalid_query: not a date, from after to, or over 400 days'),
      },
    }),
    files.get('/recent-files', 'listRecentFiles', 'viewer', {
      summary: 'Files in every folder, the most recently uploaded or changed first, paged',
      query: z.object(pageQuery(RECENT_PAGE_SIZE)),
      responses: { '200': json(ref('RecentFiles'), 'One page of files'), ...READ_400 },
    }),
  ],
}
