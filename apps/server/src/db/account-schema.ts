// Tables of accounts: users, sessions, memberships, API tokens, invitations, rate-limit events,
// used request signatures, account tokens (password reset, e-mail verification) and the
// development mail outbox.
import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

import { createdAt, id, organisationRef, owned } from './tenant-schema.ts'

/**
 * The roles a user can hold in an organisation, weakest last (decision 019): owners do
 * everything, admins all but billing and owners' memberships, members upload and edit, viewers
 * read.
 */
export const MEMBERSHIP_ROLES = ['owner', 'admin', 'member', 'viewer'] as const
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number]
const ROLE_CHECK = sql.raw(MEMBERSHIP_ROLES.map((role) => `'${role}'`).join(', '))

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
    /** When the address was proven (a link mailed to it, or Google's word); null until then. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
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
    /** The browser that signed in (User-Agent, at most 200 characters), shown in the list. */
    userAgent: text('user_agent'),
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
    check('memberships_role_check', sql`${table.role} in (${ROLE_CHECK})`),
  ],
)

/** API tokens: how a customer's servers call the API without a browser. Only the hash is kept. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    ...owned(),
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
    ...owned(),
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
    check('invitations_role_check', sql`${table.role} in (${ROLE_CHECK})`),
    check('invitations_email_check', sql`${table.email} = lower(btrim(${table.email}))`),
  ],
)

/**
 * Uses counted against a limit (failed logins, sign-ups, renders, visitor AI credits and
 * uploads, contact messages), shared by every server process. `weight` is what one use costs
 * (credits of an AI chain, bytes of a visitor upload; 1 otherwise).
 */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    weight: bigint('weight', { mode: 'number' }).notNull().default(1),
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

/** What an account token proves when its link is opened. */
export const ACCOUNT_TOKEN_KINDS = ['password_reset', 'verify_email'] as const
export type AccountTokenKind = (typeof ACCOUNT_TOKEN_KINDS)[number]

/**
 * Single-use, time-limited tokens mailed to a user: a password reset, or the proof of an address
 * (the sign-up address, or a new one the user asked to change to: `email`). Only the hash is kept.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ACCOUNT_TOKEN_KINDS }).notNull(),
    /** sha256 (hex) of the mailed token. */
    tokenHash: text('token_hash').notNull(),
    /** The address the token proves (verify_email); null for a password reset. */
    email: text('email'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('account_tokens_token_hash_key').on(table.tokenHash),
    index('account_tokens_user_idx').on(table.userId),
    check('account_tokens_token_hash_check', sql`${table.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
)

/**
 * Mail the server would have sent with no SMTP server configured: the development outbox an
 * operator reads (bounded: only the newest are kept, `mail/outbox.ts`).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: createdAt(),
  },
  (table) => [index('mail_outbox_created_at_idx').on(table.createdAt)],
)

export type AccountToken = typeof accountTokens.$inferSelect
export type OutboxMail = typeof mailOutbox.$inferSelect
