// Tables of tenants and what they own: organisations, zones, domains, signing keys, files,
// presets, derived images, jobs, plans and addons, folders, contact messages. `schema.ts` gathers
// every table.
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

/** What a stored video is (issue 23): read once at upload, listed in the file JSON. */
export interface VideoProperties {
  /** Seconds. */
  duration: number
  /** The video stream's codec (`h264`, `vp9`, `mpeg1video`…). */
  codec: string
  /** Frames per second. */
  frameRate: number
  frames: number
  /** The first audio stream's codec, when there is one. */
  audioCodec?: string
}

// Every table keeps to the PostgreSQL 15 subset: the embedded PGlite is PostgreSQL 18, the
// packaged server is 15, and one migration folder serves both.

export const id = () => uuid('id').primaryKey().defaultRandom()
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
export const organisationRef = () =>
  uuid('organisation_id')
    .notNull()
    .references(() => organisations.id, { onDelete: 'cascade' })
/** The first columns of a row an organisation owns: its id and the organisation. */
export const owned = () => ({ id: id(), organisationId: organisationRef() })
/** When a row was made and last changed. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() })

/** The states a job moves through: queued → running → done, or back to queued until failed. */
export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

/** A tenant. Its cloud name is the first segment of every delivery URL. */
export const organisations = pgTable(
  'organisations',
  {
    id: id(),
    cloudName: text('cloud_name').notNull(),
    name: text('name').notNull(),
    requireSignedUrls: boolean('require_signed_urls').notNull().default(false),
    /**
     * Strict transformations (Cloudinary's name): when on, a delivery URL may run operations that
     * cost credits only when it is signed or the operation comes from one of the organisation's
     * presets. On by default for new organisations.
     */
    strictTransformations: boolean('strict_transformations').notNull().default(true),
    /** Whether uploads may store files that are not images (served as attachments). */
    allowRawFiles: boolean('allow_raw_files').notNull().default(false),
    /**
     * Origins whose pages may read delivered images (`fetch`, canvas): `['*']` (any, the
     * default, as Cloudinary and ImageKit answer), a list of origins, or none (no CORS header).
     */
    corsOrigins: text('cors_origins').array().notNull().default(sql`'{*}'::text[]`),
    /** The plan the organisation is on (the free plan, -994, until it subscribes). */
    planId: integer('plan_id').notNull().default(-994),
    /** The credit balance; always the sum of the organisation's ledger entries. */
    credits: integer('credits').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('organisations_cloud_name_key').on(table.cloudName),
    check('organisations_credits_check', sql`${table.credits} >= 0`),
    check('organisations_cloud_name_check', sql`${table.cloudName} ~ '^[A-Za-z0-9_-]{3,}$'`),
  ],
)

/** An optional second URL segment grouping an organisation's delivery settings. */
export const zones = pgTable(
  'zones',
  {
    ...owned(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('zones_organisation_slug_key').on(table.organisationId, table.slug),
    check('zones_slug_check', sql`${table.slug} ~ '^[A-Za-z0-9_-]{6}$'`),
  ],
)

/** How far a custom domain is proven: delivery answers on `verified` ones only. */
export const DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const
export type DomainStatus = (typeof DOMAIN_STATUSES)[number]

/**
 * Host names an organisation serves delivery from (the host names the organisation). Rows an
 * operator added before verification existed are `verified`; a registration starts `pending`
 * with a challenge token the domain must show (DNS TXT or an HTTP file).
 */
export const customDomains = pgTable(
  'custom_domains',
  {
    ...owned(),
    host: text('host').notNull(),
    status: text('status', { enum: DOMAIN_STATUSES }).notNull().default('verified'),
    /** The challenge token (random, shown to the owner to publish); not a secret. */
    token: text('token'),
    /** When control was last checked, and what that check found wrong (null when it passed). */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    lastError: text('last_error'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('custom_domains_host_key').on(table.host),
    index('custom_domains_organisation_idx').on(table.organisationId),
    check('custom_domains_host_check', sql`${table.host} ~ '^[a-z0-9.-]+$'`),
    check('custom_domains_status_check', sql`${table.status} in ('pending', 'verified', 'failed')`),
  ],
)

/** Keys that sign delivery URLs; the secret is kept because verification recomputes the HMAC. */
export const signingKeys = pgTable(
  'signing_keys',
  {
    ...owned(),
    accessKey: text('access_key').notNull(),
    secret: text('secret').notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('signing_keys_access_key_key').on(table.accessKey),
    index('signing_keys_organisation_idx').on(table.organisationId),
  ],
)

/** Who may fetch a stored original through delivery. */
export const FILE_ACCESS = ['public-read', 'private'] as const
export type FileAccess = (typeof FILE_ACCESS)[number]

/** Original uploads. `version` is bumped on every overwrite so derived images of the old bytes miss. */
export const files = pgTable(
  'files',
  {
    ...owned(),
    path: text('path').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    format: text('format').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    /** A PDF's page count, an animation's frames, 1 for a still image; null when not read. */
    pages: integer('pages'),
    hash: text('hash').notNull(),
    version: integer('version').notNull().default(1),
    storageKey: text('storage_key').notNull(),
    /** `public-read`, or `private`: delivered only through a signed URL (issue 22). */
    access: text('access').$type<FileAccess>().notNull().default('public-read'),
    /** The owner's labels, kept as given (the search matches them exactly). */
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** The owner's JSON object about the file. */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** A video's properties as ffprobe read them at upload (`VideoProperties`); null otherwise. */
    video: jsonb('video').$type<VideoProperties>(),
    ...timestamps(),
  },
  (table) => [
    uniqueIndex('files_organisation_path_key').on(table.organisationId, table.path),
    // The library search's tag filter (`tags @> array[…]`).
    index('files_tags_idx').using('gin', table.tags),
    check('files_access_check', sql`${table.access} in ('public-read', 'private')`),
    // The console's recent files (`listRecentFiles`): an organisation's rows in `updated_at desc,
    // id desc` order. Ascending columns, read backwards, give exactly that order (desc nulls first).
    index('files_organisation_updated_idx').on(table.organisationId, table.updatedAt, table.id),
    check('files_hash_check', sql`${table.hash} ~ '^[0-9a-f]{64}$'`),
    check('files_version_check', sql`${table.version} >= 1`),
    check('files_size_check', sql`${table.size} >= 0`),
  ],
)

/** Named transformations an organisation can reference from delivery URLs. */
export const presets = pgTable(
  'presets',
  {
    ...owned(),
    name: text('name').notNull(),
    transformation: text('transformation').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    archived: boolean('archived').notNull().default(false),
    ...timestamps(),
  },
  (table) => [uniqueIndex('presets_organisation_name_key').on(table.organisationId, table.name)],
)

/** The derived-image index: one row per rendered (file version, pattern, format, dpr). */
export const derivedImages = pgTable(
  'derived_images',
  {
    ...owned(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    fileVersion: integer('file_version').notNull(),
    cacheKey: text('cache_key').notNull(),
    storageKey: text('storage_key').notNull(),
    format: text('format').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    /**
     * The transformation context of the chain that made the image (each step with what it
     * found), so a cached image's context is served without running its models again; null for
     * images stored before contexts were kept.
     */
    context: jsonb('context').$type<Record<string, unknown>[]>(),
    createdAt: createdAt(),
    lastAccessedAt: timestamp('last_accessed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('derived_images_cache_key_key').on(table.cacheKey),
    index('derived_images_file_idx').on(table.fileId),
    index('derived_images_organisation_idx').on(table.organisationId),
    // The derived-cache budget evicts the least recently used rows first.
    index('derived_images_last_accessed_idx').on(table.lastAccessedAt),
  ],
)

/** Background work shared by every server process; see `claimJob` for the locking rules. */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    // Insertion order breaks ties between jobs created in the same millisecond (PGlite's clock).
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    organisationId: uuid('organisation_id').references(() => organisations.id, {
      onDelete: 'cascade',
    }),
    kind: text('kind').notNull(),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('queued'),
    dedupeKey: text('dedupe_key'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    result: jsonb('result').$type<unknown>(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    ...timestamps(),
  },
  (table) => [
    uniqueIndex('jobs_dedupe_key_key').on(table.dedupeKey),
    index('jobs_status_run_after_idx').on(table.status, table.runAfter),
    index('jobs_organisation_idx').on(table.organisationId),
    check('jobs_status_check', sql`${table.status} in ('queued', 'running', 'done', 'failed')`),
    check('jobs_max_attempts_check', sql`${table.maxAttempts} >= 1`),
  ],
)

/** One named feature of a plan or addon, as the pricing page lists it. */
export interface BillingFeature {
  /** The key clients look the feature up by, e.g. `credits`. */
  name: string
  displayName: string
  value: string | number | boolean
  unit?: string | undefined
  description?: string | undefined
}

// Plans and addons are seeded from `apps/server/content/` at every start (upserted by id); a
// plan leaves the listings by `active: false` in its file, so subscriptions that point at it
// keep their row.
const billingColumns = () => ({
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  credits: integer('credits').notNull().default(0),
  // A list rather than an object: jsonb reorders object keys, and the pricing page shows the
  // features in the order of the content file.
  features: jsonb('features').$type<BillingFeature[]>().notNull().default([]),
  tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
  custom: boolean('custom').notNull().default(false),
  active: boolean('active').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  ...timestamps(),
})

/** Subscription plans (the free plan is id -994). */
export const plans = pgTable(
  'plans',
  { ...billingColumns(), interval: text('interval').notNull() },
  (table) => [
    index('plans_listing_idx').on(table.active, table.custom, table.sort),
    check('plans_amount_check', sql`${table.amount} >= 0`),
    check('plans_credits_check', sql`${table.credits} >= 0`),
  ],
)

/** One-time credit top-ups. */
export const addons = pgTable('addons', billingColumns(), (table) => [
  index('addons_listing_idx').on(table.active, table.custom, table.sort),
  check('addons_amount_check', sql`${table.amount} >= 0`),
  check('addons_credits_check', sql`${table.credits} >= 0`),
])

/** Folders an organisation made explicitly (a folder also exists while a file path runs through it). */
export const folders = pgTable(
  'folders',
  {
    ...owned(),
    /** The folder's whole path without leading or trailing slash, e.g. `products/shoes`. */
    path: text('path').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('folders_organisation_path_key').on(table.organisationId, table.path)],
)

/** Messages sent through the website's contact form. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company').notNull().default(''),
    topic: text('topic').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('contact_messages_created_at_idx').on(table.createdAt)],
)
