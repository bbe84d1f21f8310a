// Every table of the database (Drizzle), gathered from one file per area; migrations are made
// from this file (`drizzle.config.ts`). Every table keeps to the PostgreSQL 15 subset.

import type { apiTokens, invitations, memberships, sessions, users } from './account-schema.ts'
import type { creditLedger, payments, subscriptions } from './billing-schema.ts'
import type { activityLog, usageDaily } from './console-schema.ts'
import type {
  addons,
  contactMessages,
  customDomains,
  derivedImages,
  files,
  folders,
  jobs,
  organisations,
  plans,
  presets,
  signingKeys,
  zones,
} from './tenant-schema.ts'
import type {
  signedUploadParts,
  signedUploads,
  webhookDeliveries,
  webhooks,
} from './upload-webhook-schema.ts'

export * from './account-schema.ts'
export * from './billing-schema.ts'
export * from './console-schema.ts'
export * from './tenant-schema.ts'
export * from './upload-webhook-schema.ts'

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
export type SignedUpload = typeof signedUploads.$inferSelect
export type SignedUploadPart = typeof signedUploadParts.$inferSelect
export type Webhook = typeof webhooks.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
export type UsageDay = typeof usageDaily.$inferSelect
export type ActivityEntry = typeof activityLog.$inferSelect
