// What the file and folder calls read: their bodies and queries, validated by `routes.ts` and
// declared with the same schemas in `openapi.ts` (decision 013).
import { z } from 'zod'
import { FILE_ACCESS, FILE_SORTS } from '../db/index.ts'
import { pageQuery } from '../http/paging.ts'
import { booleanText, freeText } from '../http/query.ts'
import { plainText as text } from '../http/text.ts'
import { MAX_METADATA_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from './file-fields.ts'
import { ASSET_PAGE_SIZE } from './paths.ts'

/** Longest query value: a folder path may be as long as a file path. */
export const MAX_QUERY_VALUE = 1024

/** A folder path in the query, as long as `readQuery` lets a value be. */
const folderInQuery = (description: string) =>
  z.string({ error: 'is required' }).meta({ maxLength: MAX_QUERY_VALUE }).describe(description)

export const moveBody = z
  .object({
    name: text(255).describe('New name (one segment, no /)').optional(),
    path: text(1024).describe('New folder; "" is the top level').optional(),
  })
  .strict()

/** A file update: a move (name, path) and the fields of issue 22 (access, tags, metadata). */
export const updateFileBody = z
  .object({
    name: text(255).describe('New name (one segment, no /)').optional(),
    path: text(1024).describe('New folder; "" is the top level').optional(),
    access: z.enum(FILE_ACCESS).describe('public-read, or private (signed URLs only)').optional(),
    tags: z
      .array(text(MAX_TAG_LENGTH).trim().min(1, 'must not hold an empty tag'))
      .max(MAX_TAGS, `must hold at most ${MAX_TAGS} tags`)
      .describe('The whole list of tags (replaces the old one)')
      .optional(),
    metadata: z
      .record(z.string(), z.unknown())
      .refine(
        (value) => JSON.stringify(value).length <= MAX_METADATA_LENGTH,
        `must be at most ${MAX_METADATA_LENGTH} characters as JSON`,
      )
      .describe('A JSON object (replaces the old one)')
      .optional(),
  })
  .strict()

/** Several files by id (the console's bulk delete; Pixelbin's `deleteFiles`). */
export const deleteFilesBody = z
  .object({
    ids: z
      .array(z.string().max(64))
      .min(1, 'must list at least one id')
      .max(100, 'must list at most 100 ids')
      .describe("The files' _id values"),
  })
  .strict()

export const createFolderBody = z
  .object({
    name: text(255).describe('Folder name (one segment, no /)'),
    path: text(1024).describe('Parent folder; absent or "" for the top level').optional(),
  })
  .strict()

export const filesQuery = z.object({
  ...pageQuery(ASSET_PAGE_SIZE),
  path: folderInQuery('The folder to list; absent or "" for the top level').optional(),
  name: freeText(255)
    .describe('Only names containing this text (case-insensitive, literal)')
    .optional(),
  sort: z
    .enum(FILE_SORTS)
    .describe(
      'The order of the whole level, folders first: name (default), -name, -updated, -size or type',
    )
    .optional(),
})

export const folderQuery = z.object({
  path: folderInQuery('The folder to move, e.g. products/shoes'),
})

export const deleteFolderQuery = z.object({
  path: folderInQuery('The folder to delete, e.g. products/shoes'),
  recursive: booleanText
    .default(false)
    .describe('true: delete every file and folder under it too (default false)'),
})
