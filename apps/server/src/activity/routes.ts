// The activity log over HTTP (issue 24, item 5): `GET /service/panel/organization/v1.0/{orgId}/
// activity`, newest first, filtered by member, kind, text and days; owners read it.
import { Hono } from 'hono'
import type { Auth } from '../accounts/auth.ts'
import { noStore } from '../accounts/organisation-http.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { ActivityEntry } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { offsetOf, pageOf } from '../http/paging.ts'
import { pickJson } from '../http/pick-json.ts'
import { parseQuery, readQuery } from '../http/query.ts'
import { ACTIVITY_KINDS } from './activity.ts'
import { activityQuery } from './requests.ts'

function entryJson(entry: ActivityEntry) {
  return {
    _id: entry.id,
    ...pickJson(entry, ['kind', 'actor', 'actorUserId', 'target', 'details', 'createdAt']),
  }
}

/** The activity call, relative to `ACTIVITY_BASE`. */
export function activityRoutes(
  app: Pick<AppContext, 'repo'>,
  { auth }: { auth: Auth },
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  router.get('/:orgId/activity', async (c) => {
    c.set('route', 'activity')
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const query = parseQuery(readQuery(c.req.url), activityQuery)
    const from = query.from === undefined ? undefined : new Date(`${query.from}T00:00:00Z`)
    const to =
      query.to === undefined
        ? undefined
        : new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000)
    if (from !== undefined && to !== undefined && from >= to) {
      throw new HttpError(400, 'invalid_query', 'from must not be after to')
    }
    const page = await app.repo.listActivity(caller.organisation.id, {
      ...(query.kind === undefined ? {} : { kind: query.kind }),
      ...(query.member === undefined ? {} : { actorUserId: query.member }),
      ...(query.search === undefined ? {} : { search: query.search }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      limit: query.pageSize,
      offset: offsetOf(query),
    })
    return c.json({
      items: page.items.map(entryJson),
      page: pageOf(query.pageNo, query.pageSize, page.total),
      kinds: ACTIVITY_KINDS,
    })
  })
  return router
}
