import { randomBytes } from 'node:crypto'
import { and, asc, count, eq, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { createAccountQueries } from './account-queries.ts'
import { createAssetQueries } from './asset-queries.ts'
import { createBillingQueries } from './billing-queries.ts'
import type { Db } from './database.ts'
import {
  type Addon,
  addons,
  type BillingFeature,
  type CustomDomain,
  customDomains,
  type DerivedImage,
  derivedImages,
  files,
  type Job,
  jobs,
  type Membership,
  type MembershipRole,
  memberships,
  type Organisation,
  organisations,
  type Plan,
  type Preset,
  plans,
  presets,
  type Session,
  type SigningKey,
  type StoredFile,
  sessions,
  signingKeys,
  type User,
  users,
  type Zone,
  zones,
} from './schema.ts'

/** Tuning of the job queue; the defaults suit image work measured in seconds. */
export interface RepositoryOptions {
  /** A running job whose lock is older than this is presumed abandoned and claimed again (5 min). */
  staleJobAfterMs?: number
  /** Delay before the first retry of a failed job; doubled on every further attempt (30 s). */
  retryBaseMs?: number
  /** Upper bound of the retry delay (1 h). */
  retryMaxMs?: number
}

export const DEFAULT_STALE_JOB_AFTER_MS = 5 * 60_000
export const DEFAULT_RETRY_BASE_MS = 30_000
export const DEFAULT_RETRY_MAX_MS = 60 * 60_000
export const DEFAULT_MAX_ATTEMPTS = 3

export interface NewOrganisation {
  cloudName: string
  name: string
  requireSignedUrls?: boolean
}

export interface NewZone {
  slug: string
  name: string
}

export interface NewSigningKey {
  /** Generated (32 hex characters) when absent. */
  accessKey?: string
  /** Generated (64 hex characters) when absent. */
  secret?: string
}

export interface FileInput {
  path: string
  name: string
  size: number
  format: string
  contentType: string
  width?: number | null
  height?: number | null
  /** sha256 of the bytes, lowercase hex. */
  hash: string
  storageKey: string
}

export interface ListFilesOptions {
  prefix?: string
  limit: number
  offset?: number
}

export interface DeletedFile {
  file: StoredFile
  /** Storage keys of the derived images that went with the file; the caller deletes the objects. */
  derivedStorageKeys: string[]
}

export interface PresetInput {
  name: string
  transformation: string
  params?: Record<string, unknown>
  archived?: boolean
}

export interface DerivedInput {
  organisationId: string
  fileId: string
  fileVersion: number
  cacheKey: string
  storageKey: string
  format: string
  contentType: string
  size: number
  width?: number | null
  height?: number | null
}

export interface NewJob {
  kind: string
  organisationId?: string | null
  /** At most one job that has not failed exists per key; enqueueing it again returns that job. */
  dedupeKey?: string | null
  payload: Record<string, unknown>
  runAfter?: Date
  maxAttempts?: number
}

export interface NewUser {
  /** Stored as given: the caller trims and lower-cases it. */
  email: string
  /** Null for an account made through Google one-tap. */
  passwordHash: string | null
  /** The Google account's `sub`, for accounts made through Google one-tap. */
  googleSub?: string | null
  firstName: string
  lastName: string
}

/** An organisation as one of its members sees it. */
export interface MemberOrganisation {
  organisation: Organisation
  role: MembershipRole
  joinedAt: Date
}

export interface FailJobOptions {
  /** `false` fails the job for good, e.g. when its input can never succeed (default `true`). */
  retry?: boolean
}

/** A plan or addon as its content file describes it. */
export interface BillingItemInput {
  id: number
  name: string
  description: string
  amount: number
  currency: string
  credits: number
  features: BillingFeature[]
  tags: string[]
  custom: boolean
  active: boolean
  sort: number
}

export interface PlanInput extends BillingItemInput {
  /** `monthly`, `yearly`, … (clients treat every interval starting with `yearly` as yearly). */
  interval: string
}

export interface ListBillingOptions {
  /** Only custom (`true`) or only public (`false`) items; both when absent. */
  custom?: boolean | undefined
  /** Only items carrying this tag (compared exactly, never as a pattern). */
  tag?: string | undefined
  limit: number
  offset: number
}

/** One page of a listing and the number of rows that match in all. */
export interface ListPage<T> {
  items: T[]
  total: number
}

export type Repository = ReturnType<typeof createRepository>

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether `value` can be compared with a uuid column without PostgreSQL rejecting it. */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}

/**
 * Whether `error` (or an error it wraps) is a PostgreSQL unique violation, optionally of the
 * named constraint or unique index (e.g. `organisations_cloud_name_key`).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const fields = cause as Error & { code?: unknown; constraint?: unknown }
    if (fields.code === '23505') return constraint === undefined || fields.constraint === constraint
  }
  return false
}

// In ON CONFLICT DO UPDATE, `excluded` is the row that failed to go in.
const excluded = (column: PgColumn): SQL => sql`excluded.${sql.identifier(column.name)}`
const now = (): SQL => sql`now()`
const milliseconds = (ms: number): SQL => sql`(${ms}::double precision * interval '1 millisecond')`

function checkWholeNumber(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number ≥ 0, got ${value}`)
  }
}

/**
 * The queries the server runs. Everything that belongs to an organisation is read and written
 * through that organisation's id, so one tenant's call can never reach another's rows.
 * Works on a database or inside a transaction (`db.transaction((tx) => createRepository(tx)…)`).
 */
export function createRepository(db: Db, options: RepositoryOptions = {}) {
  const staleJobAfterMs = options.staleJobAfterMs ?? DEFAULT_STALE_JOB_AFTER_MS
  const retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS
  const retryMaxMs = options.retryMaxMs ?? DEFAULT_RETRY_MAX_MS
  checkWholeNumber('staleJobAfterMs', staleJobAfterMs)
  checkWholeNumber('retryBaseMs', retryBaseMs)
  checkWholeNumber('retryMaxMs', retryMaxMs)

  async function findOrganisationById(id: string): Promise<Organisation | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db.select().from(organisations).where(eq(organisations.id, id))
    return row
  }

  async function findOrganisationByCloudName(cloudName: string): Promise<Organisation | undefined> {
    const [row] = await db
      .select()
      .from(organisations)
      .where(eq(organisations.cloudName, cloudName))
    return row
  }

  /** @throws a unique violation (`isUniqueViolation`) when the cloud name is taken. */
  async function createOrganisation(input: NewOrganisation): Promise<Organisation> {
    const [row] = await db
      .insert(organisations)
      .values({
        cloudName: input.cloudName,
        name: input.name,
        requireSignedUrls: input.requireSignedUrls ?? false,
      })
      .returning()
    return returned(row)
  }

  async function createZone(organisationId: string, input: NewZone): Promise<Zone> {
    const [row] = await db
      .insert(zones)
      .values({ organisationId, slug: input.slug, name: input.name })
      .returning()
    return returned(row)
  }

  async function addCustomDomain(organisationId: string, host: string): Promise<CustomDomain> {
    const [row] = await db
      .insert(customDomains)
      .values({ organisationId, host: host.toLowerCase() })
      .returning()
    return row as CustomDomain
  }

  /** The organisation a custom-domain host belongs to. */
  async function findOrganisationByDomain(host: string): Promise<Organisation | undefined> {
    const [row] = await db
      .select({ organisation: organisations })
      .from(customDomains)
      .innerJoin(organisations, eq(organisations.id, customDomains.organisationId))
      .where(eq(customDomains.host, host.toLowerCase()))
    return row?.organisation
  }

  async function findZone(organisationId: string, slug: string): Promise<Zone | undefined> {
    const [row] = await db
      .select()
      .from(zones)
      .where(and(eq(zones.organisationId, organisationId), eq(zones.slug, slug)))
    return row
  }

  async function createSigningKey(
    organisationId: string,
    input: NewSigningKey = {},
  ): Promise<SigningKey> {
    const [row] = await db
      .insert(signingKeys)
      .values({
        organisationId,
        accessKey: input.accessKey ?? randomBytes(16).toString('hex'),
        secret: input.secret ?? randomBytes(32).toString('hex'),
      })
      .returning()
    return returned(row)
  }

  /** The key with this access key unless it was revoked. */
  async function findSigningKey(accessKey: string): Promise<SigningKey | undefined> {
    const [row] = await db
      .select()
      .from(signingKeys)
      .where(and(eq(signingKeys.accessKey, accessKey), isNull(signingKeys.revokedAt)))
    return row
  }

  /** Returns whether a key that was still active got revoked. */
  async function revokeSigningKey(organisationId: string, accessKey: string): Promise<boolean> {
    const rows = await db
      .update(signingKeys)
      .set({ revokedAt: now() })
      .where(
        and(
          eq(signingKeys.organisationId, organisationId),
          eq(signingKeys.accessKey, accessKey),
          isNull(signingKeys.revokedAt),
        ),
      )
      .returning({ id: signingKeys.id })
    return rows.length > 0
  }

  /** A file of the organisation by its id (undefined for an id that is not a UUID). */
  async function findFileById(organisationId: string, id: string): Promise<StoredFile | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db
      .select()
      .from(files)
      .where(and(eq(files.organisationId, organisationId), eq(files.id, id)))
    return row
  }

  async function findFile(organisationId: string, path: string): Promise<StoredFile | undefined> {
    const [row] = await db
      .select()
      .from(files)
      .where(and(eq(files.organisationId, organisationId), eq(files.path, path)))
    return row
  }

  /** Inserts the file, or overwrites the one at the same path and bumps its version. */
  async function upsertFile(organisationId: string, input: FileInput): Promise<StoredFile> {
    const [row] = await db
      .insert(files)
      .values({
        organisationId,
        path: input.path,
        name: input.name,
        size: input.size,
        format: input.format,
        contentType: input.contentType,
        width: input.width ?? null,
        height: input.height ?? null,
        hash: input.hash,
        storageKey: input.storageKey,
      })
      .onConflictDoUpdate({
        target: [files.organisationId, files.path],
        set: {
          name: excluded(files.name),
          size: excluded(files.size),
          format: excluded(files.format),
          contentType: excluded(files.contentType),
          width: excluded(files.width),
          height: excluded(files.height),
          hash: excluded(files.hash),
          storageKey: excluded(files.storageKey),
          version: sql`${files.version} + 1`,
          updatedAt: now(),
        },
      })
      .returning()
    return returned(row)
  }

  /** Files ordered by path; `prefix` matches literally (no wildcards). */
  async function listFiles(
    organisationId: string,
    { prefix, limit, offset = 0 }: ListFilesOptions,
  ): Promise<StoredFile[]> {
    checkWholeNumber('limit', limit)
    checkWholeNumber('offset', offset)
    return db
      .select()
      .from(files)
      .where(
        and(
          eq(files.organisationId, organisationId),
          prefix ? sql`starts_with(${files.path}, ${prefix})` : undefined,
        ),
      )
      .orderBy(asc(files.path))
      .limit(limit)
      .offset(offset)
  }

  /**
   * Deletes the file and its derived-image rows. Returns what was deleted so the caller can
   * remove the stored objects, or `undefined` when there was no such file.
   */
  async function deleteFile(
    organisationId: string,
    path: string,
  ): Promise<DeletedFile | undefined> {
    return db.transaction(async (tx) => {
      const [file] = await tx
        .select()
        .from(files)
        .where(and(eq(files.organisationId, organisationId), eq(files.path, path)))
        .for('update')
      if (!file) return undefined
      // The foreign key would cascade to these rows too, but would not say which objects to delete.
      const derived = await tx
        .delete(derivedImages)
        .where(eq(derivedImages.fileId, file.id))
        .returning({ storageKey: derivedImages.storageKey })
      await tx.delete(files).where(eq(files.id, file.id))
      return { file, derivedStorageKeys: derived.map((row) => row.storageKey) }
    })
  }

  async function findPreset(organisationId: string, name: string): Promise<Preset | undefined> {
    const [row] = await db
      .select()
      .from(presets)
      .where(and(eq(presets.organisationId, organisationId), eq(presets.name, name)))
    return row
  }

  /** Creates the preset or replaces the one with the same name. */
  async function upsertPreset(organisationId: string, input: PresetInput): Promise<Preset> {
    const [row] = await db
      .insert(presets)
      .values({
        organisationId,
        name: input.name,
        transformation: input.transformation,
        params: input.params ?? {},
        archived: input.archived ?? false,
      })
      .onConflictDoUpdate({
        target: [presets.organisationId, presets.name],
        set: {
          transformation: excluded(presets.transformation),
          params: excluded(presets.params),
          archived: excluded(presets.archived),
          updatedAt: now(),
        },
      })
      .returning()
    return returned(row)
  }

  async function listPresets(organisationId: string): Promise<Preset[]> {
    return db
      .select()
      .from(presets)
      .where(eq(presets.organisationId, organisationId))
      .orderBy(asc(presets.name))
  }

  async function findDerived(cacheKey: string): Promise<DerivedImage | undefined> {
    const [row] = await db.select().from(derivedImages).where(eq(derivedImages.cacheKey, cacheKey))
    return row
  }

  /**
   * Records a rendered image. When another process recorded the same cache key first, its row
   * wins and is returned: compare `storageKey` to know whether your object is redundant.
   */
  async function recordDerived(input: DerivedInput): Promise<DerivedImage> {
    const [row] = await db
      .insert(derivedImages)
      .values({ ...input, width: input.width ?? null, height: input.height ?? null })
      .onConflictDoNothing({ target: derivedImages.cacheKey })
      .returning()
    return row ?? returned(await findDerived(input.cacheKey))
  }

  async function touchDerived(id: string): Promise<void> {
    await db.update(derivedImages).set({ lastAccessedAt: now() }).where(eq(derivedImages.id, id))
  }

  /** Forgets every derived image of a file (e.g. after an overwrite); returns their storage keys. */
  async function deleteDerivedForFile(fileId: string): Promise<string[]> {
    const rows = await db
      .delete(derivedImages)
      .where(eq(derivedImages.fileId, fileId))
      .returning({ storageKey: derivedImages.storageKey })
    return rows.map((row) => row.storageKey)
  }

  /**
   * Queues a job. With a `dedupeKey`, a job with that key that has not failed is returned as is
   * (whatever its status); a failed one is reset and queued again with the new payload.
   */
  async function enqueueJob(input: NewJob): Promise<Job> {
    const insert = db.insert(jobs).values({
      kind: input.kind,
      organisationId: input.organisationId ?? null,
      dedupeKey: input.dedupeKey ?? null,
      payload: input.payload,
      runAfter: input.runAfter ?? now(),
      maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    })
    const key = input.dedupeKey
    if (key === undefined || key === null) return returned((await insert.returning())[0])
    const [row] = await insert
      .onConflictDoUpdate({
        target: jobs.dedupeKey,
        set: {
          kind: excluded(jobs.kind),
          organisationId: excluded(jobs.organisationId),
          payload: excluded(jobs.payload),
          runAfter: excluded(jobs.runAfter),
          maxAttempts: excluded(jobs.maxAttempts),
          status: 'queued',
          result: null,
          error: null,
          attempts: 0,
          lockedBy: null,
          lockedAt: null,
          updatedAt: now(),
        },
        setWhere: eq(jobs.status, 'failed'),
      })
      .returning()
    return row ?? returned(await findJobByDedupeKey(key))
  }

  /**
   * Takes the oldest job that is due (queued with `runAfter` ≤ now, or running with a lock older
   * than `staleJobAfterMs`) and marks it running for `workerId`. Concurrent claimers in any
   * number of processes never get the same job: candidates are locked with
   * `FOR UPDATE SKIP LOCKED`. A stale job with no attempts left is failed instead of run again.
   */
  async function claimJob(workerId: string, kinds?: readonly string[]): Promise<Job | undefined> {
    return db.transaction(async (tx) => {
      for (;;) {
        const [candidate] = await tx
          .select({
            id: jobs.id,
            status: jobs.status,
            attempts: jobs.attempts,
            maxAttempts: jobs.maxAttempts,
          })
          .from(jobs)
          .where(
            and(
              or(
                and(eq(jobs.status, 'queued'), lte(jobs.runAfter, now())),
                and(
                  eq(jobs.status, 'running'),
                  lt(jobs.lockedAt, sql`now() - ${milliseconds(staleJobAfterMs)}`),
                ),
              ),
              kinds === undefined ? undefined : inArray(jobs.kind, [...kinds]),
            ),
          )
          .orderBy(asc(jobs.createdAt), asc(jobs.seq))
          .limit(1)
          .for('update', { skipLocked: true })
        if (!candidate) return undefined

        if (candidate.status === 'running' && candidate.attempts >= candidate.maxAttempts) {
          // Its worker died on the last attempt; running it again could kill the next one too.
          await tx
            .update(jobs)
            .set({
              status: 'failed',
              error: sql`concat('worker ', ${jobs.lockedBy}, ' stopped responding')`,
              lockedBy: null,
              lockedAt: null,
              updatedAt: now(),
            })
            .where(eq(jobs.id, candidate.id))
          continue
        }

        const [job] = await tx
          .update(jobs)
          .set({
            status: 'running',
            lockedBy: workerId,
            lockedAt: now(),
            attempts: sql`${jobs.attempts} + 1`,
            updatedAt: now(),
          })
          .where(eq(jobs.id, candidate.id))
          .returning()
        return job
      }
    })
  }

  /** Marks a running job done with its result; `undefined` when the job is not running. */
  async function completeJob(id: string, result: unknown = null): Promise<Job | undefined> {
    const [row] = await db
      .update(jobs)
      .set({ status: 'done', result, error: null, lockedAt: null, updatedAt: now() })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'running')))
      .returning()
    return row
  }

  /**
   * Records a failed attempt of a running job: queued again after an exponential backoff while
   * attempts remain, else failed for good. `undefined` when the job is not running.
   */
  async function failJob(
    id: string,
    error: string,
    { retry = true }: FailJobOptions = {},
  ): Promise<Job | undefined> {
    const retries = retry ? sql`${jobs.attempts} < ${jobs.maxAttempts}` : sql`false`
    const delay = sql`least(${retryBaseMs}::double precision * power(2, greatest(${jobs.attempts} - 1, 0)), ${retryMaxMs}::double precision)`
    const [row] = await db
      .update(jobs)
      .set({
        status: sql`case when ${retries} then 'queued' else 'failed' end`,
        runAfter: sql`case when ${retries} then now() + ${delay} * interval '1 millisecond' else ${jobs.runAfter} end`,
        error,
        lockedBy: null,
        lockedAt: null,
        updatedAt: now(),
      })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'running')))
      .returning()
    return row
  }

  async function getJob(id: string): Promise<Job | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
    return row
  }

  /** The filter shared by the plan and addon listings: active rows, then `custom` and `tag`. */
  function billingWhere(
    table: typeof plans | typeof addons,
    { custom, tag }: ListBillingOptions,
  ): SQL | undefined {
    return and(
      eq(table.active, true),
      custom === undefined ? undefined : eq(table.custom, custom),
      tag === undefined ? undefined : sql`${tag}::text = any(${table.tags})`,
    )
  }

  // Re-seeding the same content changes nothing, not even `updated_at`.
  function changed(columns: PgColumn[]): SQL {
    const current = sql.join(
      columns.map((column) => sql`${column}`),
      sql`, `,
    )
    const incoming = sql.join(columns.map(excluded), sql`, `)
    return sql`(${current}) is distinct from (${incoming})`
  }

  /** Inserts the plans, or updates the ones whose id exists and whose fields differ. */
  async function upsertPlans(inputs: readonly PlanInput[]): Promise<void> {
    if (inputs.length === 0) return
    const columns = [
      plans.name,
      plans.description,
      plans.amount,
      plans.currency,
      plans.interval,
      plans.credits,
      plans.features,
      plans.tags,
      plans.custom,
      plans.active,
      plans.sort,
    ]
    await db
      .insert(plans)
      .values(inputs.map((input) => ({ ...input })))
      .onConflictDoUpdate({
        target: plans.id,
        set: {
          ...Object.fromEntries(columns.map((column) => [column.name, excluded(column)])),
          updatedAt: now(),
        },
        setWhere: changed(columns),
      })
  }

  /** Inserts the addons, or updates the ones whose id exists and whose fields differ. */
  async function upsertAddons(inputs: readonly BillingItemInput[]): Promise<void> {
    if (inputs.length === 0) return
    const columns = [
      addons.name,
      addons.description,
      addons.amount,
      addons.currency,
      addons.credits,
      addons.features,
      addons.tags,
      addons.custom,
      addons.active,
      addons.sort,
    ]
    await db
      .insert(addons)
      .values(inputs.map((input) => ({ ...input })))
      .onConflictDoUpdate({
        target: addons.id,
        set: {
          ...Object.fromEntries(columns.map((column) => [column.name, excluded(column)])),
          updatedAt: now(),
        },
        setWhere: changed(columns),
      })
  }

  /** Active plans by `sort`, amount and id, one page of them, with the number that match. */
  async function listPlans(options: ListBillingOptions): Promise<ListPage<Plan>> {
    checkWholeNumber('limit', options.limit)
    checkWholeNumber('offset', options.offset)
    const where = billingWhere(plans, options)
    const [items, [total]] = await Promise.all([
      db
        .select()
        .from(plans)
        .where(where)
        .orderBy(asc(plans.sort), asc(plans.amount), asc(plans.id))
        .limit(options.limit)
        .offset(options.offset),
      db.select({ value: count() }).from(plans).where(where),
    ])
    return { items, total: total?.value ?? 0 }
  }

  /** Active addons by `sort`, amount and id, one page of them, with the number that match. */
  async function listAddons(options: ListBillingOptions): Promise<ListPage<Addon>> {
    checkWholeNumber('limit', options.limit)
    checkWholeNumber('offset', options.offset)
    const where = billingWhere(addons, options)
    const [items, [total]] = await Promise.all([
      db
        .select()
        .from(addons)
        .where(where)
        .orderBy(asc(addons.sort), asc(addons.amount), asc(addons.id))
        .limit(options.limit)
        .offset(options.offset),
      db.select({ value: count() }).from(addons).where(where),
    ])
    return { items, total: total?.value ?? 0 }
  }

  async function findJobByDedupeKey(key: string): Promise<Job | undefined> {
    const [row] = await db.select().from(jobs).where(eq(jobs.dedupeKey, key))
    return row
  }

  // ── identity ──────────────────────────────────────────────────────────────────────────────

  /**
   * Creates a user with their own organisation (as owner) in one transaction.
   * @throws a unique violation (`users_email_key` or `organisations_cloud_name_key`).
   */
  async function createUserWithOrganisation(
    input: NewUser,
    organisation: NewOrganisation,
    /** The plan the organisation starts on and the credits it grants (default: the plan row's). */
    startPlan?: { id: number; credits: number },
  ): Promise<{ user: User; organisation: Organisation }> {
    return db.transaction(async (tx) => {
      const user = returned((await tx.insert(users).values(input).returning())[0])
      const created = returned(
        (
          await tx
            .insert(organisations)
            .values({
              cloudName: organisation.cloudName,
              name: organisation.name,
              ...(startPlan === undefined ? {} : { planId: startPlan.id }),
            })
            .returning()
        )[0],
      )
      await tx
        .insert(memberships)
        .values({ userId: user.id, organisationId: created.id, role: 'owner' })
      // A new organisation starts on the free plan with its credits, as a ledger entry.
      const credits =
        startPlan?.credits ??
        (await tx.select().from(plans).where(eq(plans.id, created.planId)))[0]?.credits ??
        0
      if (credits > 0) {
        await createBillingQueries(tx).grantCredits(created.id, credits, 'free_plan', created.id)
      }
      return { user, organisation: created }
    })
  }

  async function findUserByEmail(email: string): Promise<User | undefined> {
    const [row] = await db.select().from(users).where(eq(users.email, email))
    return row
  }

  async function findUserById(id: string): Promise<User | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await db.select().from(users).where(eq(users.id, id))
    return row
  }

  async function updateProfileMeta(
    userId: string,
    meta: Record<string, unknown>,
  ): Promise<User | undefined> {
    const [row] = await db
      .update(users)
      .set({ profileMeta: meta })
      .where(eq(users.id, userId))
      .returning()
    return row
  }

  /** `id` is the sha256 (hex) of the cookie token. */
  async function createSession(id: string, userId: string, expiresAt: Date): Promise<Session> {
    const [row] = await db.insert(sessions).values({ id, userId, expiresAt }).returning()
    return returned(row)
  }

  /** The unexpired session with this id and its user; marks it seen. */
  async function findLiveSession(
    id: string,
  ): Promise<{ session: Session; user: User } | undefined> {
    const [row] = await db
      .update(sessions)
      .set({ lastSeenAt: now() })
      .where(and(eq(sessions.id, id), sql`${sessions.expiresAt} > now()`))
      .returning()
    if (row === undefined) return undefined
    const user = await findUserById(row.userId)
    return user === undefined ? undefined : { session: row, user }
  }

  async function deleteSession(id: string): Promise<boolean> {
    const rows = await db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id })
    return rows.length > 0
  }

  async function deleteExpiredSessions(): Promise<number> {
    const rows = await db
      .delete(sessions)
      .where(lte(sessions.expiresAt, now()))
      .returning({ id: sessions.id })
    return rows.length
  }

  /** The user's organisations, oldest membership first (the first is the active one). */
  async function listUserOrganisations(userId: string): Promise<MemberOrganisation[]> {
    const rows = await db
      .select({ organisation: organisations, membership: memberships })
      .from(memberships)
      .innerJoin(organisations, eq(organisations.id, memberships.organisationId))
      .where(eq(memberships.userId, userId))
      .orderBy(asc(memberships.createdAt), asc(organisations.createdAt), asc(organisations.id))
    return rows.map((row) => ({
      organisation: row.organisation,
      role: row.membership.role,
      joinedAt: row.membership.createdAt,
    }))
  }

  async function addMembership(
    userId: string,
    organisationId: string,
    role: MembershipRole,
  ): Promise<Membership> {
    const [row] = await db.insert(memberships).values({ userId, organisationId, role }).returning()
    return returned(row)
  }

  return {
    ...createAccountQueries(db),
    ...createBillingQueries(db),
    ...createAssetQueries(db),
    createUserWithOrganisation,
    findUserByEmail,
    findUserById,
    updateProfileMeta,
    createSession,
    findLiveSession,
    deleteSession,
    deleteExpiredSessions,
    listUserOrganisations,
    addMembership,
    findOrganisationById,
    findOrganisationByCloudName,
    createOrganisation,
    createZone,
    findZone,
    addCustomDomain,
    findOrganisationByDomain,
    createSigningKey,
    findSigningKey,
    revokeSigningKey,
    findFile,
    findFileById,
    upsertFile,
    listFiles,
    deleteFile,
    findPreset,
    upsertPreset,
    upsertPlans,
    upsertAddons,
    listPlans,
    listAddons,
    listPresets,
    findDerived,
    recordDerived,
    touchDerived,
    deleteDerivedForFile,
    enqueueJob,
    claimJob,
    completeJob,
    failJob,
    getJob,
    findJobByDedupeKey,
  }
}

// `returning()` of an insert or upsert always yields the row; this narrows the type honestly.
function returned<T>(row: T | undefined): T {
  if (row === undefined) throw new Error('The database returned no row where one was expected')
  return row
}
