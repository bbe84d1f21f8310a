// What the daily usage call reads (issue 24): its query, validated by `usage-routes.ts` and
// declared with the same schema in `openapi.ts`.
import { z } from 'zod'

/** The longest range the daily usage call answers, in days. */
export const MAX_USAGE_DAYS = 400
const DAY = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'is not a date',
  )
export const dailyUsageQuery = z.object({
  from: DAY.optional().describe('First day, UTC (default: 29 days before to)'),
  to: DAY.optional().describe('Last day, UTC (default: today)'),
})
