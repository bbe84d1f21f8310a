// Tables the console reads over time: an organisation's usage per day (written in batches by
// `usage/recorder.ts`, never a row per request) and its activity log (who did what and when).
import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core'
import { createdAt, organisationRef, owned } from './tenant-schema.ts'

/**
 * Usage per organisation per UTC day. Each process adds its counts every few seconds with one
 * `INSERT … ON CONFLICT DO UPDATE` of sums, so the hot delivery path only bumps counters in
 * memory. Days older than the retention are deleted by housekeeping.
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    organisationId: organisationRef(),
    day: date('day', { mode: 'string' }).notNull(),
    /** Delivery requests answered (any status but the process's own errors). */
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    /** Body bytes of delivery answers. */
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    /** Derived images rendered (cache misses that ran the engine, AI jobs included). */
    renders: integer('renders').notNull().default(0),
    /** AI renders queued (new ones, charged). */
    aiRuns: integer('ai_runs').notNull().default(0),
    /** Credits spent. */
    credits: integer('credits').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.organisationId, table.day] }),
    check('usage_daily_counts_check', sql`${table.requests} >= 0 and ${table.bytes} >= 0`),
  ],
)

/** One thing a member, token or the system did to an organisation. */
export const activityLog = pgTable(
  'activity_log',
  {
    ...owned(),
    /** The user who acted (null for an API token or the system; the user may since be gone). */
    actorUserId: uuid('actor_user_id'),
    /** How the actor is shown: an e-mail, `token <prefix>` or `system`. */
    actor: text('actor').notNull(),
    /** What was done: `file.upload`, `preset.update`, `member.remove`, … (ACTIVITY_KINDS). */
    kind: text('kind').notNull(),
    /** What it was done to: a path, a preset name, an e-mail, a domain. */
    target: text('target').notNull().default(''),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [
    index('activity_log_organisation_created_idx').on(table.organisationId, table.createdAt),
    index('activity_log_organisation_kind_idx').on(
      table.organisationId,
      table.kind,
      table.createdAt,
    ),
  ],
)
