// What an organisation uses (its stored originals, its derived images against the server's cache
// budget, its credits) and its newest files across every folder: the console's home page reads
// both. Mounted by `routes.ts`, which gives the caller check every asset call makes.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import type { Caller, OrganisationAccess } from '../accounts/auth.ts'
import type { AppContext, AppEnv } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { offsetOf, pageOf, pageQuery } from '../http/paging.ts'
import { parseQuery, readQuery } from '../http/query.ts'
import { fileJson } from './file-json.ts'
import { RECENT_PAGE_SIZE } from './paths.ts'

const recentQuery = z.object(pageQuery(RECENT_PAGE_SIZE))

/** `GET /{orgId}/usage` and `GET /{orgId}/recent-files`, relative to `ASSET_API_BASE`. */
export function usageRoutes(
  app: AppContext,
  callerOf: (c: Context<AppEnv>, access: OrganisationAccess) => Promise<Caller>,
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo } = app

  router.get('/:orgId/usage', async (c) => {
    const caller = await callerOf(c, { role: 'viewer' })
    const usage = await repo.organisationUsage(caller.organisation.id)
    if (usage === undefined) {
      throw new HttpError(404, 'organisation_not_found', 'The organisation is gone')
    }
    return c.json({
      storage: { files: usage.files, bytes: usage.bytes },
      derivedCache: {
        entries: usage.derivedEntries,
        bytes: usage.derivedBytes,
        budgetBytes: app.config.derivedCache.maxBytes,
      },
      credits: { balance: usage.credits },
    })
  })

  router.get('/:orgId/recent-files', async (c) => {
    const caller = await callerOf(c, { role: 'viewer' })
    const query = parseQuery(readQuery(c.req.url), recentQuery)
    const recent = await repo.listRecentFiles(caller.organisation.id, {
      limit: query.pageSize,
      offset: offsetOf(query),
    })
    return c.json({
      items: recent.items.map((file) => fileJson(app, caller.organisation.cloudName, file)),
      page: pageOf(query.pageNo, query.pageSize, recent.total),
    })
  })

  return router
}
