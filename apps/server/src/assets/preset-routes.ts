// The presets of an organisation (docs/api.md, "Files, folders and presets"): create, list,
// read, change and delete, each checked as delivery would use it (`presets.ts`). Mounted by
// `routes.ts`, which gives the caller check every asset call makes.
import { type Context, Hono } from 'hono'
import type { z } from 'zod'
import type { Caller, OrganisationAccess } from '../accounts/auth.ts'
import { actorOf, createActivityLog } from '../activity/activity.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { Preset } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readBody } from '../http/json-body.ts'
import { offsetOf, pageOf } from '../http/paging.ts'
import { pickJson } from '../http/pick-json.ts'
import { parseQuery, readQuery, shown } from '../http/query.ts'
import {
  createPresetBody,
  createPresetChecks,
  isPresetName,
  type presetParams,
  presetsQuery,
  updatePresetBody,
} from './presets.ts'

/** Longest query value, as the file calls allow. */
const MAX_QUERY_VALUE = 1024

function presetJson(preset: Preset) {
  return {
    _id: preset.id,
    orgId: preset.organisationId,
    presetName: preset.name,
    ...pickJson(preset, ['name', 'transformation', 'params', 'archived', 'createdAt', 'updatedAt']),
  }
}

const presetNotFound = (name: string) =>
  new HttpError(404, 'preset_not_found', `No preset ${shown(name)} in this organisation`)

/** The preset calls, relative to `ASSET_API_BASE`; `callerOf` checks who calls. */
export function presetRoutes(
  app: Pick<AppContext, 'repo' | 'lookups' | 'logger' | 'config'>,
  callerOf: (c: Context<AppEnv>, access: OrganisationAccess) => Promise<Caller>,
): Hono<AppEnv> {
  const { repo, lookups } = app
  const activity = createActivityLog(app)
  const router = new Hono<AppEnv>()
  const { checkPreset } = createPresetChecks(app)

  async function findPreset(caller: Caller, name: string): Promise<Preset> {
    const preset = isPresetName(name)
      ? await repo.findPreset(caller.organisation.id, name)
      : undefined
    if (preset === undefined) throw presetNotFound(name)
    return preset
  }

  router.post(`/:orgId/presets`, jsonLimit, async (c) => {
    const caller = await callerOf(c, { role: 'member' })
    const organisationId = caller.organisation.id
    const body = await readBody(c, createPresetBody)
    const params = body.params ?? {}
    if ((await repo.findPreset(organisationId, body.presetName)) !== undefined) {
      throw new HttpError(409, 'already_exists', `A preset named ${shown(body.presetName)} exists`)
    }
    await checkPreset(organisationId, body.presetName, body.transformation, params)
    const created = await repo.createPreset(organisationId, {
      name: body.presetName,
      transformation: body.transformation,
      params,
      archived: body.archived ?? false,
    })
    if (created === undefined) {
      throw new HttpError(409, 'already_exists', `A preset named ${shown(body.presetName)} exists`)
    }
    await lookups.forgetPreset(organisationId, created.name)
    await activity.record(organisationId, actorOf(caller), {
      kind: 'preset.create',
      target: created.name,
      details: { transformation: created.transformation },
    })
    return c.json(presetJson(created), 201)
  })

  router.get(`/:orgId/presets`, async (c) => {
    const caller = await callerOf(c, { role: 'viewer' })
    const query = parseQuery(readQuery(c.req.url, MAX_QUERY_VALUE), presetsQuery)
    const page = await repo.listPresetPage(caller.organisation.id, {
      archived: query.archived,
      limit: query.pageSize,
      offset: offsetOf(query),
    })
    return c.json({
      items: page.items.map(presetJson),
      page: pageOf(query.pageNo, query.pageSize, page.total),
    })
  })

  router.get(`/:orgId/presets/:presetName`, async (c) => {
    const caller = await callerOf(c, { role: 'viewer' })
    return c.json(presetJson(await findPreset(caller, c.req.param('presetName'))))
  })

  router.patch(`/:orgId/presets/:presetName`, jsonLimit, async (c) => {
    const caller = await callerOf(c, { role: 'member' })
    const organisationId = caller.organisation.id
    const body = await readBody(c, updatePresetBody)
    if (Object.keys(body).length === 0) {
      throw new HttpError(400, 'invalid_body', 'Give transformation, params or archived')
    }
    const preset = await findPreset(caller, c.req.param('presetName'))
    if (body.transformation !== undefined || body.params !== undefined) {
      await checkPreset(
        organisationId,
        preset.name,
        body.transformation ?? preset.transformation,
        body.params ?? (preset.params as z.output<typeof presetParams>),
      )
    }
    const updated = await repo.updatePreset(organisationId, preset.name, body)
    if (updated === undefined) throw presetNotFound(preset.name)
    await lookups.forgetPreset(organisationId, preset.name)
    await activity.record(organisationId, actorOf(caller), {
      kind: 'preset.update',
      target: preset.name,
      details: { changed: Object.keys(body) },
    })
    return c.json(presetJson(updated))
  })

  router.delete(`/:orgId/presets/:presetName`, async (c) => {
    const caller = await callerOf(c, { role: 'member' })
    const preset = await findPreset(caller, c.req.param('presetName'))
    const deleted = await repo.deletePreset(caller.organisation.id, preset.name)
    if (deleted === undefined) throw presetNotFound(preset.name)
    await lookups.forgetPreset(caller.organisation.id, preset.name)
    await activity.record(caller.organisation.id, actorOf(caller), {
      kind: 'preset.delete',
      target: preset.name,
    })
    return c.json(presetJson(deleted))
  })
  return router
}
