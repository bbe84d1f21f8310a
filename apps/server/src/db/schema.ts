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

// Every table keeps to the PostgreSQL 15 subset: the embedded PGlite is PostgreSQL 18, the
// packaged server is 15, and one migration folder serves both.

const id = () => uuid('id').primaryKey().defaultRandom()
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
const organisationRef = () =>
  uuid('organisation_id')
    .notNull()
    .references(() => organisations.id, { onDelete: 'cascade' })

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
    id: id(),
    organisationId: organisationRef(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('zones_organisation_slug_key').on(table.organisationId, table.slug),
    check('zones_slug_check', sql`${table.slug} ~ '^[A-Za-z0-9_-]{6}$'`),
  ],
)

/** Host names an organisation serves delivery from (the host names the organisation). */
export const customDomains = pgTable(
  'custom_domains',
  {
    id: id(),
    organisationId: organisationRef(),
    host: text('host').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('custom_domains_host_key').on(table.host),
    check('custom_domains_host_check', sql`${table.host} ~ '^[a-z0-9.-]+$'`),
  ],
)

/** Keys that sign delivery URLs; the secret is kept because verification recomputes the HMAC. */
export const signingKeys = pgTable(
  'signing_keys',
  {
    id: id(),
    organisationId: organisationRef(),
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

/** Original uploads. `version` is bumped on every overwrite so derived images of the old bytes miss. */
export const files = pgTable(
  'files',
  {
    id: id(),
    organisationId: organisationRef(),
    path: text('path').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    format: text('format').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    hash: text('hash').notNull(),
    version: integer('version').notNull().default(1),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('files_organisation_path_key').on(table.organisationId, table.path),
    check('files_hash_check', sql`${table.hash} ~ '^[0-9a-f]{64}$'`),
    check('files_version_check', sql`${table.version} >= 1`),
    check('files_size_check', sql`${table.size} >= 0`),
  ],
)

/** Named transformations an organisation can reference from delivery URLs. */
export const presets = pgTable(
  'presets',
  {
    id: id(),
    organisationId: organisationRef(),
    name: text('name').notNull(),
    transformation: text('transformation').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    archived: boolean('archived').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('presets_organisation_name_key').on(table.organisationId, table.name)],
)

/** The derived-image index: one row per rendered (file version, pattern, format, dpr). */
export const derivedImages = pgTable(
  'derived_images',
  {
    id: id(),
    organisationId: organisationRef(),
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
    createdAt: createdAt(),
    lastAccessedAt: timestamp('last_accessed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('derived_images_cache_key_key').on(table.cacheKey),
    index('derived_images_file_idx').on(table.fileId),
    index('derived_images_organisation_idx').on(table.organisationId),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
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
  createdAt: createdAt(),
  updatedAt: updatedAt(),
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

/** The roles a user can hold in an organisation. */
export const MEMBERSHIP_ROLES = ['owner', 'member'] as const
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number]

/** Accounts. The email is kept trimmed and lower-cased, so the unique index is case-blind. */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    /** Null for accounts created through Google one-tap that never set a password. */
    passwordHash: text('password_hash'),
    /** The Google account (`sub` of its ID tokens) linked to this user, if any. */
    googleSub: text('google_sub'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    profileMeta: jsonb('profile_meta').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    uniqueIndex('users_google_sub_key').on(table.googleSub),
    check('users_email_check', sql`${table.email} = lower(btrim(${table.email}))`),
  ],
)

/** Signed-in sessions. `id` is the sha256 (hex) of the cookie token; the token is never stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('sessions_user_idx').on(table.userId),
    index('sessions_expires_at_idx').on(table.expiresAt),
    check('sessions_id_check', sql`${table.id} ~ '^[0-9a-f]{64}$'`),
  ],
)

/** Which users belong to which organisations, and as what. */
export const memberships = pgTable(
  'memberships',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organisationId: organisationRef(),
    role: text('role', { enum: MEMBERSHIP_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('memberships_user_organisation_key').on(table.userId, table.organisationId),
    index('memberships_organisation_idx').on(table.organisationId),
    check('memberships_role_check', sql`${table.role} in ('owner', 'member')`),
  ],
)

/** API tokens: how a customer's servers call the API without a browser. Only the hash is kept. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    organisationId: organisationRef(),
    name: text('name').notNull(),
    /** sha256 (hex) of the whole token. */
    tokenHash: text('token_hash').notNull(),
    /** The token's first characters, shown in lists so a user can tell tokens apart. */
    prefix: text('prefix').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('api_tokens_token_hash_key').on(table.tokenHash),
    index('api_tokens_organisation_idx').on(table.organisationId),
    check('api_tokens_token_hash_check', sql`${table.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
)

/** Invitations by email to join an organisation; the emailed token is kept as a hash. */
export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    organisationId: organisationRef(),
    email: text('email').notNull(),
    role: text('role', { enum: MEMBERSHIP_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('invitations_token_hash_key').on(table.tokenHash),
    index('invitations_organisation_idx').on(table.organisationId),
    check('invitations_role_check', sql`${table.role} in ('owner', 'member')`),
    check('invitations_email_check', sql`${table.email} = lower(btrim(${table.email}))`),
  ],
)

/**
 * Attempts counted against a limit (failed logins per account and per address, sign-ups per
 * address), shared by every server process.
 */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('rate_limit_events_key_at_idx').on(table.key, table.at)],
)

/** Request signatures seen within their time window, so a captured request cannot be replayed. */
export const usedSignatures = pgTable(
  'used_signatures',
  {
    signature: text('signature').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('used_signatures_expires_at_idx').on(table.expiresAt)],
)

/** Every change of an organisation's credits: grants, purchases and what operations spent. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: id(),
    organisationId: organisationRef(),
    /** Credits added (positive) or spent (negative). */
    delta: integer('delta').notNull(),
    /** The balance after this entry. */
    balance: integer('balance').notNull(),
    reason: text('reason').notNull(),
    /** What the entry is for (a payment, a job); with `reason` it makes a charge idempotent. */
    reference: text('reference'),
    createdAt: createdAt(),
  },
  (table) => [
    index('credit_ledger_organisation_idx').on(table.organisationId, table.createdAt),
    uniqueIndex('credit_ledger_reference_key').on(
      table.organisationId,
      table.reason,
      table.reference,
    ),
    check('credit_ledger_balance_check', sql`${table.balance} >= 0`),
  ],
)

/** The states of a checkout with the payment provider. */
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'canceled'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** Checkouts: a subscription to a plan or a top-up addon, paid through the payment provider. */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    organisationId: organisationRef(),
    kind: text('kind', { enum: ['subscription', 'topup'] }).notNull(),
    /** The plan id (subscription) or addon id (top-up). */
    itemId: integer('item_id').notNull(),
    amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    credits: integer('credits').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
    provider: text('provider').notNull(),
    /** The provider's id of the checkout. */
    providerRef: text('provider_ref').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('payments_provider_ref_key').on(table.provider, table.providerRef),
    index('payments_organisation_idx').on(table.organisationId, table.createdAt),
    check('payments_kind_check', sql`${table.kind} in ('subscription', 'topup')`),
    check(
      'payments_status_check',
      sql`${table.status} in ('pending', 'paid', 'failed', 'canceled')`,
    ),
  ],
)

/** An organisation's subscription to a paid plan (none while on the free plan). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    organisationId: uuid('organisation_id')
      .primaryKey()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').notNull(),
    status: text('status', { enum: ['active', 'canceled'] }).notNull(),
    provider: text('provider').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [check('subscriptions_status_check', sql`${table.status} in ('active', 'canceled')`)],
)

/** Folders an organisation made explicitly (a folder also exists while a file path runs through it). */
export const folders = pgTable(
  'folders',
  {
    id: id(),
    organisationId: organisationRef(),
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

export type Organisation = typeof organisations.$inferSelect
export type Zone = typeof zones.$inferSelect
export type CustomDomain = typeof customDomains.$inferSelect
export type SigningKey = typeof signingKeys.$inferSelect
export type StoredFile = typeof files.$inferSelect
export type Preset = typeof presets.$inferSelect
export type DerivedImage = typeof derivedImages.$inferSelect
export type Job = typeof jobs.$inferSelect
export type Plan = typeof plans.$inferSelect
export type Addon = typeof addons.$inferSelect
export type User = typeof users.$inferSelect
export type Session = typeof sessions.$inferSelect
export type Membership = typeof memberships.$inferSelect
export type ApiToken = typeof apiTokens.$inferSelect
export type Invitation = typeof invitations.$inferSelect
export type CreditEntry = typeof creditLedger.$inferSelect
export type Payment = typeof payments.$inferSelect
export type Subscription = typeof subscriptions.$inferSelect
export type Folder = typeof folders.$inferSelect
export type ContactMessageRow = typeof contactMessages.$inferSelect
