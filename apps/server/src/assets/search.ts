// The library's search (issue 22; SPEC's "search" and "explore"): one reading of the query and
// one answer, shared by the panel's `GET …/org/{orgId}/listFiles` and Pixelbin's platform
// `listFiles`. Without filters it lists one folder level (folders first, then files); with any
// filter it searches every file under the folder, and folders by name.
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import {
  type FileSearch,
  type Folder,
  type Organisation,
  SEARCH_SORTS,
  type SearchSort,
} from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { offsetOf, pageOf, pageQuery } from '../http/paging.ts'
import { booleanText, invalidQuery, parseQuery, type QueryParams } from '../http/query.ts'
import { isWellFormedText } from '../http/text.ts'
import { readAccess, readMetadata, readTags } from './file-fields.ts'
import { fileJson, parentOf } from './file-json.ts'
import { assertValidFilePath } from './files.ts'
import { ASSET_PAGE_SIZE } from './paths.ts'
import { MAX_QUERY_VALUE } from './requests.ts'

/** Older names of orders (the console's folder listing) and what they mean in a search. */
const SORT_ALIASES: Record<string, SearchSort> = { '-updated': '-updatedAt', type: 'format' }

const date = (field: string) =>
  z
    .string()
    .refine((text) => !Number.isNaN(Date.parse(text)), `must be a date (ISO 8601)`)
    .transform((text) => new Date(text))
    .describe(`${field} (ISO 8601 date or time)`)

const size = z
  .string()
  .regex(/^[0-9]{1,15}$/, 'must be a whole number of bytes')
  .transform(Number)
  .meta({ type: 'integer', minimum: 0 })

/** The search's query parameters (tags may also come as `tags[]` or `tags[0]`, `tags[1]`, …). */
export const searchQuery = z.object({
  ...pageQuery(ASSET_PAGE_SIZE),
  path: z
    .string()
    .meta({ maxLength: MAX_QUERY_VALUE })
    .describe('The folder to list or search; absent or "" for the whole library')
    .optional(),
  name: z.string().max(255).describe('Names containing this text (case-insensitive)').optional(),
  pathText: z.string().max(1024).describe('Whole paths containing this text').optional(),
  format: z.string().max(255).describe('Formats, comma-separated (jpeg,png)').optional(),
  tags: z.string().max(255).describe('A tag every file found carries (repeat for more)').optional(),
  metadata: z
    .string()
    .max(2048)
    .describe('A JSON object the files\' metadata holds, e.g. {"sku":"A1"}')
    .optional(),
  access: z.enum(['public-read', 'private']).optional(),
  minSize: size.describe('Files of at least this many bytes').optional(),
  maxSize: size.describe('Files of at most this many bytes').optional(),
  createdAfter: date('Created at or after').optional(),
  createdBefore: date('Created before').optional(),
  updatedAfter: date('Updated at or after').optional(),
  updatedBefore: date('Updated before').optional(),
  onlyFiles: booleanText.describe('true: files only').optional(),
  onlyFolders: booleanText.describe('true: folders only').optional(),
  recursive: booleanText
    .describe('true: search under sub-folders too (any filter implies it)')
    .optional(),
  sort: z
    .string()
    .refine(
      (value) => (SEARCH_SORTS as readonly string[]).includes(value) || value in SORT_ALIASES,
      `must be one of ${SEARCH_SORTS.join(', ')}`,
    )
    .describe(`The order of the files: ${SEARCH_SORTS.join(', ')} (default name)`)
    .optional(),
})

/** Every value of the tag parameters, in order: `tags`, `tags[]` and `tags[N]`. */
function tagValues(params: QueryParams): string[] | undefined {
  const found: string[] = []
  let any = false
  const indexed: [number, string][] = []
  for (const [key, values] of params) {
    if (key === 'tags' || key === 'tags[]') {
      any = true
      found.push(...values)
    } else {
      const match = /^tags\[(\d{1,3})\]$/.exec(key)
      if (match !== null) {
        any = true
        for (const value of values) indexed.push([Number(match[1]), value])
      }
    }
  }
  indexed.sort((a, b) => a[0] - b[0])
  return any ? [...found, ...indexed.map(([, value]) => value)] : undefined
}

/** What a search query asks, checked: the search, whether folders are listed, the page. */
export function readSearch(params: QueryParams) {
  const tagKeys = [...params.keys()].filter((key) => /^tags(\[\d*\])?$/.test(key))
  const others = new Map([...params].filter(([key]) => !tagKeys.includes(key)))
  const query = parseQuery(others, searchQuery)
  const tags = readTags(tagValues(params), 'tags')
  const folder = (query.path ?? '').replace(/^\/+|\/+$/g, '')
  if (folder !== '') assertValidFilePath(folder)
  for (const text of [query.name, query.pathText, query.format]) {
    if (text !== undefined && !isWellFormedText(text)) {
      throw invalidQuery('Query text must not contain control characters')
    }
  }
  let metadata: Record<string, unknown> | undefined
  try {
    metadata = readMetadata(query.metadata)
  } catch (error) {
    if (error instanceof HttpError) throw invalidQuery(`metadata ${error.message.slice(9)}`)
    throw error
  }
  const formats = query.format
    ?.split(',')
    .map((each) => each.trim().toLowerCase())
    .filter((each) => each !== '')
    .map((each) => (each === 'jpg' ? 'jpeg' : each))
  const name = query.name?.trim() === '' ? undefined : query.name?.trim()
  const fileOnly =
    (tags?.length ?? 0) > 0 ||
    metadata !== undefined ||
    (formats?.length ?? 0) > 0 ||
    query.access !== undefined ||
    query.minSize !== undefined ||
    query.maxSize !== undefined ||
    query.createdAfter !== undefined ||
    query.createdBefore !== undefined ||
    query.updatedAfter !== undefined ||
    query.updatedBefore !== undefined ||
    query.pathText !== undefined
  if (query.onlyFiles === true && query.onlyFolders === true) {
    throw invalidQuery('onlyFiles and onlyFolders cannot both be true')
  }
  const sort = query.sort === undefined ? undefined : (SORT_ALIASES[query.sort] ?? query.sort)
  const search: FileSearch = {
    folder,
    recursive: query.recursive ?? (fileOnly || name !== undefined),
    name,
    pathText: query.pathText,
    tags,
    metadata,
    formats,
    access: readAccess(query.access),
    minSize: query.minSize,
    maxSize: query.maxSize,
    createdAfter: query.createdAfter,
    createdBefore: query.createdBefore,
    updatedAfter: query.updatedAfter,
    updatedBefore: query.updatedBefore,
    sort: sort as SearchSort | undefined,
    limit: query.pageSize,
    offset: offsetOf(query),
  }
  return {
    search,
    withFolders: query.onlyFiles !== true && !fileOnly,
    withFiles: query.onlyFolders !== true,
    pageNo: query.pageNo,
    pageSize: query.pageSize,
  }
}

/** A folder as the asset calls answer it; `folder` is its row (every folder has one now). */
export function folderJson(organisationId: string, path: string, folder: Folder | undefined) {
  return {
    _id: folder?.id ?? null,
    orgId: organisationId,
    type: 'folder' as const,
    name: path.slice(path.lastIndexOf('/') + 1),
    path: parentOf(path),
    fullPath: path,
    isActive: true,
    createdAt: folder?.createdAt.toISOString() ?? null,
    updatedAt: folder?.createdAt.toISOString() ?? null,
  }
}

/** Runs a search for `organisation`: folders first, then files, one page of the whole list. */
export async function runSearch(
  app: AppContext,
  organisation: Pick<Organisation, 'id' | 'cloudName'>,
  asked: ReturnType<typeof readSearch>,
) {
  const { repo } = app
  const { search } = asked
  const organisationId = organisation.id
  if (search.folder !== '' && (await repo.pathKind(organisationId, search.folder)) !== 'folder') {
    throw new HttpError(404, 'folder_not_found', `No folder ${JSON.stringify(search.folder)}`)
  }
  const { limit, offset } = search
  // Counted first, so the page can be cut across the two lists.
  const folderCount = asked.withFolders
    ? (
        await repo.searchFolders(organisationId, {
          folder: search.folder,
          name: search.name ?? '',
          recursive: search.recursive,
          limit: 0,
          offset: 0,
        })
      ).total
    : 0
  const folderRows =
    asked.withFolders && offset < folderCount
      ? (
          await repo.searchFolders(organisationId, {
            folder: search.folder,
            name: search.name ?? '',
            recursive: search.recursive,
            limit,
            offset,
          })
        ).folders
      : []
  const fileLimit = limit - folderRows.length
  const found = asked.withFiles
    ? await repo.searchFiles(organisationId, {
        ...search,
        limit: Math.max(fileLimit, 0),
        offset: Math.max(0, offset - folderCount),
      })
    : { files: [], total: 0 }
  return {
    items: [
      ...folderRows.map((row) => folderJson(organisationId, row.path, row)),
      ...(fileLimit > 0 ? found.files : []).map((file) =>
        fileJson(app, organisation.cloudName, file),
      ),
    ],
    page: pageOf(asked.pageNo, asked.pageSize, folderCount + found.total),
  }
}
