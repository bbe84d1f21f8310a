// Signed uploads (a URL a browser uploads to, in parts, without the organisation's backend) and
// webhooks (an organisation's HTTPS endpoints, and every delivery made to them): decision 016.
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { createdAt, owned, timestamps } from './tenant-schema.ts'

/** The states of a signed upload: open for parts → completing → done, or failed. */
export const SIGNED_UPLOAD_STATUSES = ['open', 'completing', 'done', 'failed'] as const
export type SignedUploadStatus = (typeof SIGNED_UPLOAD_STATUSES)[number]

/** What a signed upload will store, fixed when its URL is made. */
export interface SignedUploadFields {
  path: string
  name: string | undefined
  format: string | undefined
  overwrite: boolean
  filenameOverride: boolean
  /** The file's access, tags and metadata (absent in rows made before they were kept). */
  access?: 'public-read' | 'private'
  tags?: string[]
  metadata?: Record<string, unknown>
}

/** A signed upload URL: its secret's hash, what it stores, until when, and how far it got. */
export const signedUploads = pgTable(
  'signed_uploads',
  {
    ...owned(),
    /** 1: one multipart POST of the whole file; 2: parts, then a completion. */
    version: integer('version').notNull(),
    /** sha256 of the URL's secret (the URL is the credential; the secret itself is not kept). */
    secretHash: text('secret_hash').notNull(),
    fields: jsonb('fields').$type<SignedUploadFields>().notNull(),
    status: text('status', { enum: SIGNED_UPLOAD_STATUSES }).notNull().default('open'),
    /** Bytes of the parts received so far (the total is held to UPLOAD_MAX_BYTES). */
    receivedBytes: bigint('received_bytes', { mode: 'number' }).notNull().default(0),
    fileId: uuid('file_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps(),
  },
  (table) => [
    index('signed_uploads_expires_at_idx').on(table.expiresAt),
    check(
      'signed_uploads_status_check',
      sql`${table.status} in ('open', 'completing', 'done', 'failed')`,
    ),
  ],
)

/** One part of a signed upload, stored under `storageKey` until the upload completes. */
export const signedUploadParts = pgTable(
  'signed_upload_parts',
  {
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => signedUploads.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.uploadId, table.partNumber] })],
)

/** An organisation's webhook endpoint: where events go, signed with its secret. */
export const webhooks = pgTable(
  'webhooks',
  {
    ...owned(),
    url: text('url').notNull(),
    /** The HMAC key of its deliveries: kept, as a signing key is, since signing needs it. */
    secret: text('secret').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    description: text('description').notNull().default(''),
    active: boolean('active').notNull().default(true),
    ...timestamps(),
  },
  (table) => [index('webhooks_organisation_idx').on(table.organisationId)],
)

/** The states of a delivery: pending (queued or retrying) → delivered, or failed for good. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const

/** One event sent (or being sent) to one endpoint: the delivery log. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    ...owned(),
    /** The endpoint; null for a prediction's own `webhook` URL (unsigned: it has no secret). */
    webhookId: uuid('webhook_id').references(() => webhooks.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    event: text('event').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    error: text('error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    ...timestamps(),
  },
  (table) => [
    index('webhook_deliveries_organisation_created_idx').on(table.organisationId, table.createdAt),
    index('webhook_deliveries_webhook_idx').on(table.webhookId),
    check(
      'webhook_deliveries_status_check',
      sql`${table.status} in ('pending', 'delivered', 'failed')`,
    ),
  ],
)
