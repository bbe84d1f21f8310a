// What the activity call reads: its query, validated by `routes.ts` and declared with the same
// schema in `openapi.ts` (decision 013).
import { z } from 'zod'
import { pageQuery } from '../http/paging.ts'
import { ACTIVITY_FAMILIES, ACTIVITY_KINDS } from './activity.ts'

/** Entries per page by default. */
export const ACTIVITY_PAGE_SIZE = 50

const KINDS: readonly string[] = [...ACTIVITY_KINDS, ...ACTIVITY_FAMILIES]
const DAY = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'is not a date')

export const activityQuery = z.object({
  ...pageQuery(ACTIVITY_PAGE_SIZE),
  kind: z
    .string()
    .refine(
      (value) => KINDS.includes(value),
      'must be a kind such as file.upload, or a family such as file',
    )
    .optional()
    .describe('A kind (file.upload) or a family (file: every file.*)'),
  member: z
    .uuid({ error: 'must be a user id' })
    .optional()
    .describe('Only what this member did (their user id)'),
  search: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'is too long')
    .optional()
    .describe('Text found in who acted (an e-mail) or what it was done to'),
  from: DAY.optional().describe('From this day, UTC'),
  to: DAY.optional().describe('Up to and including this day, UTC'),
})
