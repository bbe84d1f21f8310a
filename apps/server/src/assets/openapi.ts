// The OpenAPI part of an organisation's files, folders and presets.
import { MAX_TRANSFORMATIONS, PARAM_TYPES } from '@tessera/url'
import { FILE_SORTS } from '../db/index.ts'
import {
  arrayOf,
  bool,
  dateTime,
  EXAMPLE_ID,
  failure,
  int,
  type JsonSchema,
  json,
  jsonBody,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiPart,
  type OpenApiResponse,
  object,
  orgIdParam,
  pageNo,
  pageSize,
  ref,
  str,
} from '../http/openapi-kit.ts'
import { ASSET_API_BASE, ASSET_PAGE_SIZE } from './paths.ts'
import { PRESET_MAX_VARIABLES } from './presets.ts'
import { USAGE_PATHS, USAGE_SCHEMAS } from './usage-openapi.ts'

const BASE = `${ASSET_API_BASE}/{orgId}`

const fileId: OpenApiParameter = {
  name: 'fileId',
  in: 'path',
  required: true,
  description: 'The file (`_id` from the listing or the upload answer)',
  schema: { type: 'string', format: 'uuid' },
  example: EXAMPLE_ID,
}
const presetName: OpenApiParameter = {
  name: 'presetName',
  in: 'path',
  required: true,
  description: 'The preset name (letters, digits, _ and -)',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
  example: 'thumbnail',
}
const folderPath = (description: string, required: boolean): OpenApiParameter => ({
  name: 'path',
  in: 'query',
  required,
  description,
  schema: { type: 'string', maxLength: 1024 },
})

const COMMON: Record<string, OpenApiResponse> = {
  '400': failure(
    'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
  ),
  '401': failure('unauthenticated (no session) or invalid_token'),
  '404': failure('organisation_not_found: not an organisation of yours (or not an id at all)'),
}
const WITH_BODY: Record<string, OpenApiResponse> = {
  '413': failure('too_large: the JSON body is over 64 KB'),
  '415': failure('unsupported_media_type: send application/json'),
}

const operation = (
  operationId: string,
  summary: string,
  tag: 'files' | 'presets',
  responses: Record<string, OpenApiResponse>,
  extra: Partial<OpenApiOperation> = {},
): OpenApiOperation => ({
  operationId,
  summary,
  tags: [tag],
  ...extra,
  parameters: [orgIdParam, ...(extra.parameters ?? [])],
  responses: {
    ...COMMON,
    ...(extra.requestBody === undefined ? {} : WITH_BODY),
    ...responses,
  },
})

const nullableDate: JsonSchema = {
  type: ['string', 'null'],
  format: 'date-time',
}
const nullableInt: JsonSchema = { type: ['integer', 'null'] }
const variable: JsonSchema = {
  type: 'object',
  properties: {
    type: {
      type: 'string',
      enum: PARAM_TYPES,
    },
    default: { type: ['string', 'number', 'boolean', 'null'] },
    enum: arrayOf(str()),
    min: { type: 'number' },
    max: { type: 'number' },
  },
  required: ['type'],
  additionalProperties: false,
}
const params: JsonSchema = {
  type: 'object',
  description: 'The `$variables` of the transformation: `{ name: { type, default } }`',
  additionalProperties: variable,
  maxProperties: PRESET_MAX_VARIABLES,
}
const move: JsonSchema = {
  type: 'object',
  properties: {
    name: str('New name (one segment, no /)'),
    path: str('New folder; "" is the top level'),
  },
  additionalProperties: false,
}

/** The OpenAPI description of files, folders and presets of an organisation. */
export const ASSET_API: OpenApiPart = {
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
    AssetFile: object({
      _id: { type: 'string', format: 'uuid' },
      fileId: {
        type: 'string',
        format: 'uuid',
        description: 'The same as _id',
      },
      orgId: { type: 'string', format: 'uuid' },
      type: { type: 'string', const: 'file' },
      name: str('File name, e.g. astronaut.png'),
      path: str('Its folder; "" at the top level'),
      fullPath: str('Folder and name, as in delivery URLs'),
      format: str('Format found from the bytes (png, jpeg, webp, …)'),
      contentType: str(),
      assetType: { type: 'string', enum: ['image', 'raw'] },
      size: int('Bytes'),
      width: nullableInt,
      height: nullableInt,
      version: int('Bumped when the file is overwritten or moved'),
      url: str('Delivery URL of the original: {PUBLIC_URL}/v2/{cloudName}/original/{fullPath}'),
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    AssetFolder: object({
      _id: {
        type: ['string', 'null'],
        description:
          'Set for folders made with POST …/folders; null for folders that exist because something lies in them',
      },
      orgId: { type: 'string', format: 'uuid' },
      type: { type: 'string', const: 'folder' },
      name: str(),
      path: str('Its parent folder; "" at the top level'),
      fullPath: str(),
      createdAt: nullableDate,
    }),
    AssetListing: object({
      items: arrayOf({ oneOf: [ref('AssetFolder'), ref('AssetFile')] }),
      page: ref('Page'),
    }),
    FolderDeleted: object({
      path: str(),
      deleted: object({
        files: int(),
        folders: int('Folders made explicitly that went'),
      }),
    }),
    Preset: object({
      _id: { type: 'string', format: 'uuid' },
      orgId: { type: 'string', format: 'uuid' },
      presetName: str(),
      name: str('The same as presetName'),
      transformation: str('Operations joined by ~, e.g. t.resize(w:$w)~t.flip()'),
      params,
      archived: bool,
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    PresetList: object({ items: arrayOf(ref('Preset')), page: ref('Page') }),
    ...USAGE_SCHEMAS,
  },
  paths: {
    [`${BASE}/files`]: {
      get: operation(
        'listFiles',
        'One folder level: its sub-folders (first) and files, by name, paged',
        'files',
        {
          '200': json(ref('AssetListing'), 'One page of folders and files'),
          '404': failure('organisation_not_found, or folder_not_found'),
        },
        {
          parameters: [
            folderPath('The folder to list; absent or "" for the top level', false),
            {
              name: 'name',
              in: 'query',
              description: 'Only names containing this text (case-insensitive, literal)',
              schema: { type: 'string', maxLength: 255 },
            },
            {
              name: 'sort',
              in: 'query',
              description:
                'The order of the whole level, folders first: name (default), -name, -updated, -size or type',
              schema: { type: 'string', enum: [...FILE_SORTS] },
            },
            pageNo,
            pageSize(ASSET_PAGE_SIZE),
          ],
        },
      ),
    },
    [`${BASE}/files/{fileId}`]: {
      get: operation(
        'getFile',
        'One file',
        'files',
        {
          '200': json(ref('AssetFile'), 'The file'),
          '404': failure('organisation_not_found, or file_not_found'),
        },
        { parameters: [fileId] },
      ),
      patch: operation(
        'moveFile',
        'Rename and/or move a file',
        'files',
        {
          '200': json(ref('AssetFile'), 'The file at its new path'),
          '404': failure('organisation_not_found, or file_not_found'),
          '409': failure('already_exists: a file or folder is at the new path'),
        },
        {
          description:
            'The delivery URL changes with the path: the old one answers 404 at once. The file gets a new version; its derived images are deleted and made again on request.',
          parameters: [fileId],
          requestBody: jsonBody(move),
        },
      ),
      delete: operation(
        'deleteFile',
        'Delete a file, its stored original and every derived image',
        'files',
        {
          '200': json(ref('AssetFile'), 'The file that was deleted'),
          '404': failure('organisation_not_found, or file_not_found'),
        },
        { parameters: [fileId] },
      ),
    },
    [`${BASE}/folders`]: {
      post: operation(
        'createFolder',
        'Make a folder (and any missing parent folders)',
        'files',
        {
          '201': json(ref('AssetFolder'), 'The new folder'),
          '409': failure('already_exists: a folder or file is at this path'),
        },
        {
          requestBody: jsonBody({
            type: 'object',
            properties: {
              name: str('Folder name (one segment, no /)'),
              path: str('Parent folder; absent or "" for the top level'),
            },
            required: ['name'],
            additionalProperties: false,
          }),
        },
      ),
      patch: operation(
        'moveFolder',
        'Rename and/or move a folder with everything in it',
        'files',
        {
          '200': json(ref('AssetFolder'), 'The folder at its new path'),
          '404': failure('organisation_not_found, or folder_not_found'),
          '409': failure('already_exists: something is at the new path'),
        },
        {
          parameters: [folderPath('The folder to move, e.g. products/shoes', true)],
          requestBody: jsonBody(move),
        },
      ),
      delete: operation(
        'deleteFolder',
        'Delete an empty folder, or with recursive=true everything in it',
        'files',
        {
          '200': json(ref('FolderDeleted'), 'What was deleted'),
          '404': failure('organisation_not_found, or folder_not_found'),
          '409': failure('folder_not_empty: send recursive=true to delete what is in it'),
        },
        {
          parameters: [
            folderPath('The folder to delete, e.g. products/shoes', true),
            {
              name: 'recursive',
              in: 'query',
              description: 'true: delete every file and folder under it too (default false)',
              schema: { type: 'boolean', default: false },
            },
          ],
        },
      ),
    },
    [`${BASE}/presets`]: {
      post: operation(
        'createPreset',
        'Create a preset',
        'presets',
        {
          '201': json(ref('Preset'), 'The new preset'),
          '409': failure('already_exists: the organisation has a preset of this name'),
        },
        {
          description: `The transformation is checked as delivery would use it: a pattern the URL language refuses, an undeclared $variable, a missing or archived preset it refers to, a cycle or more than ${MAX_TRANSFORMATIONS} operations answer 400 invalid_transformation with the language’s message.`,
          requestBody: jsonBody({
            type: 'object',
            properties: {
              presetName: presetName.schema,
              transformation: str(),
              params,
              archived: bool,
            },
            required: ['presetName', 'transformation'],
            additionalProperties: false,
          }),
        },
      ),
      get: operation(
        'listPresets',
        'Presets by name, paged',
        'presets',
        { '200': json(ref('PresetList'), 'One page of presets') },
        {
          parameters: [
            {
              name: 'archived',
              in: 'query',
              description: 'false: only usable presets; true: only archived ones; absent: both',
              schema: { type: 'boolean' },
            },
            pageNo,
            pageSize(ASSET_PAGE_SIZE),
          ],
        },
      ),
    },
    [`${BASE}/presets/{presetName}`]: {
      get: operation(
        'getPreset',
        'One preset',
        'presets',
        {
          '200': json(ref('Preset'), 'The preset'),
          '404': failure('organisation_not_found, or preset_not_found'),
        },
        { parameters: [presetName] },
      ),
      patch: operation(
        'updatePreset',
        'Change the transformation or params, or archive (archived: true) / restore',
        'presets',
        {
          '200': json(ref('Preset'), 'The changed preset'),
          '404': failure('organisation_not_found, or preset_not_found'),
        },
        {
          parameters: [presetName],
          requestBody: jsonBody({
            type: 'object',
            properties: { transformation: str(), params, archived: bool },
            additionalProperties: false,
          }),
        },
      ),
      delete: operation(
        'deletePreset',
        'Delete a preset (delivery URLs using it answer 400 afterwards)',
        'presets',
        {
          '200': json(ref('Preset'), 'The preset that was deleted'),
          '404': failure('organisation_not_found, or preset_not_found'),
        },
        { parameters: [presetName] },
      ),
    },
    ...USAGE_PATHS,
  },
}
