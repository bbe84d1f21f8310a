// The public plan and addon lists (SPEC §7.2), read from the database (seeded from the content
// files at start) and mounted under `BILLING`. No session; answers are cacheable for a minute.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppContext, AppEnv } from '../context.ts'
import type { Addon, BillingFeature, ListBillingOptions, ListPage, Plan } from '../db/index.ts'
import { offsetOf, pageOf, pageQuery } from '../http/paging.ts'
import { pickJson } from '../http/pick-json.ts'
import { booleanText, freeText, parseQuery, readQuery } from '../http/query.ts'
import { BILLING_PAGE_SIZE } from './paths.ts'

/** `Cache-Control` of the lists (SPEC §9: website config 60 s). */
const CACHE_CONTROL = 'public, max-age=60'

const billingQuery = z.object({
  ...pageQuery(BILLING_PAGE_SIZE),
  custom: booleanText.optional(),
  tag: freeText(64).optional(),
})

/** Features keyed by name (SPEC §3), in the order of the content file. */
function featuresJson(features: readonly BillingFeature[]) {
  return Object.fromEntries(
    features.map((feature) => [
      feature.name,
      {
        name: feature.name,
        displayName: feature.displayName,
        value: feature.value,
        ...(feature.unit === undefined ? {} : { unit: feature.unit }),
        ...(feature.description === undefined ? {} : { description: feature.description }),
      },
    ]),
  )
}

function addonJson(addon: Addon) {
  return {
    _id: addon.id,
    ...pickJson(addon, ['name', 'description', 'amount', 'currency', 'credits']),
    features: featuresJson(addon.features),
    ...pickJson(addon, ['tags', 'custom', 'createdAt', 'updatedAt']),
  }
}

function planJson(plan: Plan) {
  const { createdAt, updatedAt, ...rest } = addonJson(plan)
  return { ...rest, interval: plan.interval, createdAt, updatedAt }
}

/** `GET /plans` and `GET /addons`, paged and filtered by `custom` and `tag`. */
export function planRoutes(app: Pick<AppContext, 'repo'>): Hono<AppEnv> {
  const { repo } = app
  const router = new Hono<AppEnv>()

  const list =
    <T>(read: (options: ListBillingOptions) => Promise<ListPage<T>>, json: (row: T) => unknown) =>
    async (c: Context<AppEnv>) => {
      const query = parseQuery(readQuery(c.req.url), billingQuery)
      const page = await read({
        custom: query.custom,
        tag: query.tag,
        limit: query.pageSize,
        offset: offsetOf(query),
      })
      c.header('cache-control', CACHE_CONTROL)
      return c.json({
        items: page.items.map(json),
        page: pageOf(query.pageNo, query.pageSize, page.total),
      })
    }

  router.get('/plans', list(repo.listPlans, planJson))
  router.get('/addons', list(repo.listAddons, addonJson))
  return router
}
