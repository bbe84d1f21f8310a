export type { DeleteAccountResult, NewOutboxMail } from './account-token-queries.ts'
export { FILE_SORTS, type FileSort } from './asset-queries.ts'
export {
  createDatabase,
  type Database,
  type DatabaseOptions,
  type Db,
  DEFAULT_DATA_DIR,
  isDatabaseUnavailable,
  MIGRATIONS_FOLDER,
} from './database.ts'
export type { DerivedCacheEntry } from './derived-queries.ts'
export {
  type FileFieldChanges,
  type FileSearch,
  SEARCH_SORTS,
  type SearchSort,
} from './file-search-queries.ts'
export {
  type MemberOrganisation,
  type NewUser,
  SESSION_SEEN_RESOLUTION_MS,
} from './identity-queries.ts'
export {
  DEFAULT_JOB_HEARTBEAT_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_RETRY_MAX_MS,
  DEFAULT_STALE_JOB_AFTER_MS,
  type FailJobOptions,
  type NewJob,
  type RepositoryOptions,
} from './job-queries.ts'
export type { NewOrganisation, NewSigningKey, NewZone } from './organisation-queries.ts'
export type { BillingItemInput, ListBillingOptions, ListPage, PlanInput } from './plan-queries.ts'
export type { PresetInput } from './preset-queries.ts'
export { isUniqueViolation, isUuid } from './query-helpers.ts'
export type { RateRule, RateTake } from './rate-limit-queries.ts'
export {
  createRepository,
  type DeletedFile,
  type DerivedInput,
  type FileInput,
  type ListFilesOptions,
  type Repository,
} from './repository.ts'
export type {
  AccountToken,
  AccountTokenKind,
  ActivityEntry,
  Addon,
  ApiToken,
  BillingFeature,
  CreditEntry,
  CustomDomain,
  DerivedImage,
  DomainStatus,
  Folder,
  Invitation,
  Job,
  JobStatus,
  Membership,
  MembershipRole,
  Organisation,
  OutboxMail,
  Payment,
  Plan,
  Preset,
  Session,
  SignedUpload,
  SignedUploadFields,
  SignedUploadPart,
  SigningKey,
  StoredFile,
  Subscription,
  UsageDay,
  User,
  VideoProperties,
  Webhook,
  WebhookDelivery,
  Zone,
} from './schema.ts'
export * as schema from './schema.ts'
export { FILE_ACCESS, type FileAccess, MEMBERSHIP_ROLES } from './schema.ts'
export { DELIVERY_LOG_KEEP_DAYS, type NewDelivery } from './webhook-queries.ts'
