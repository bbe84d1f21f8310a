// What the dynamic-app list reads from its query, validated by `routes.ts` and declared with the
// same schema in `openapi.ts` (decision 013).
import { z } from 'zod'
import { pageQuery } from '../http/paging.ts'
import { freeText, tagList } from '../http/query.ts'
import { APPS_PAGE_SIZE } from './paths.ts'

export const appsQuery = z.object({
  tags: tagList(20, 64)
    .meta({ example: 'ai-tools' })
    .describe('Comma-separated; apps carrying any of them')
    .optional(),
  ...pageQuery(APPS_PAGE_SIZE),
  sortBy: z
    .enum(['createdAt', 'title'], { error: 'must be createdAt or title' })
    .meta({ default: 'createdAt' })
    .optional(),
  sortOrder: z
    .enum(['asc', 'desc'], { error: 'must be asc or desc' })
    .describe('Default desc for createdAt, asc for title')
    .optional(),
  searchQuery: freeText(100)
    .describe('Trimmed; case-insensitive substring of the title or description')
    .optional(),
})
