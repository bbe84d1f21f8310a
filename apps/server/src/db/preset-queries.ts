// Presets (see createRepository), all their queries in one place: delivery reads them, the
// preset API writes them.
import { and, asc, count, eq, sql } from 'drizzle-orm'
import type { Db } from './database.ts'
import { excluded, now, returned } from './query-helpers.ts'
import { type Preset, presets } from './schema.ts'

export interface NewPreset {
  name: string
  transformation: string
  params: Record<string, unknown>
  archived: boolean
}

export interface PresetChanges {
  transformation?: string | undefined
  params?: Record<string, unknown> | undefined
  archived?: boolean | undefined
}

export interface ListPresetsOptions {
  /** Only archived (`true`) or only usable (`false`) presets; both when absent. */
  archived?: boolean | undefined
  limit: number
  offset: number
}

export interface PresetInput {
  name: string
  transformation: string
  params?: Record<string, unknown>
  archived?: boolean
}

/**
 * The preset queries, all in one place: delivery reads presets through these, the preset API
 * writes them. Scoped by organisation like every other query.
 */
export function createPresetQueries(db: Db) {
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

  /** Creates a preset; undefined when the organisation has one of that name. */
  async function createPreset(
    organisationId: string,
    input: NewPreset,
  ): Promise<Preset | undefined> {
    const [row] = await db
      .insert(presets)
      .values({ organisationId, ...input })
      .onConflictDoNothing({ target: [presets.organisationId, presets.name] })
      .returning()
    return row
  }

  async function listPresetPage(organisationId: string, options: ListPresetsOptions) {
    const where = and(
      eq(presets.organisationId, organisationId),
      options.archived === undefined ? undefined : eq(presets.archived, options.archived),
    )
    const [items, [total]] = await Promise.all([
      db
        .select()
        .from(presets)
        .where(where)
        .orderBy(sql`${presets.name} collate "C"`)
        .limit(options.limit)
        .offset(options.offset),
      db.select({ value: count() }).from(presets).where(where),
    ])
    return { items, total: total?.value ?? 0 }
  }

  async function updatePreset(
    organisationId: string,
    name: string,
    changes: PresetChanges,
  ): Promise<Preset | undefined> {
    const [row] = await db
      .update(presets)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(and(eq(presets.organisationId, organisationId), eq(presets.name, name)))
      .returning()
    return row
  }

  async function deletePreset(organisationId: string, name: string): Promise<Preset | undefined> {
    const [row] = await db
      .delete(presets)
      .where(and(eq(presets.organisationId, organisationId), eq(presets.name, name)))
      .returning()
    return row
  }

  return {
    findPreset,
    upsertPreset,
    listPresets,
    createPreset,
    listPresetPage,
    updatePreset,
    deletePreset,
  }
}
