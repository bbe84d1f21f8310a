// Pixelbin's platform API (`/service/platform/*`, issue 22): the paths, ids and shapes
// `@pixelbin/admin` 4.2 uses, mapped onto Tessera's features — a thin layer, never a second
// implementation (DESIGN §5). Uploads go through assets/upload.ts, files and folders through the
// asset queries and assets/file-changes.ts, the search through assets/search.ts; presets, the
// organisation's details and the transformation context are the panel's own calls, dispatched
// in-process with the path rewritten; usage reads the billing and usage queries.
//
// Every call needs an API token (`Authorization: Bearer <token or its base64>`): the
// organisation is the token's, and no organisation id appears in a path. A session cookie is
// not enough here (the panel's request signatures guard cookie calls; these paths have none).
// Another organisation's ids and paths answer 404 exactly as ids and paths that do not exist.
import { CATALOGUE, type PluginSpec } from '@tessera/url'
import { type Context, Hono } from 'hono'
import { type Auth, bearerToken, type Caller } from '../accounts/auth.ts'
import { ORGANIZATION } from '../accounts/paths.ts'
import { fileJson } from '../assets/file-json.ts'
import { IMAGE_FORMATS } from '../assets/files.ts'
import { ASSET_API_BASE } from '../assets/paths.ts'
import type { Assets } from '../assets/upload.ts'
import type { AppContext, AppEnv } from '../context.ts'
import type { StoredFile } from '../db/index.ts'
import { DEMO_CLOUD_NAME } from '../demo/seed.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit } from '../http/json-body.ts'
import { shown } from '../http/query.ts'
import { TRANSFORMATION_CONTEXT } from '../transformation/paths.ts'
import { platformFileRoutes } from './file-routes.ts'

/** Sends a request through the whole app (the panel's calls), as if a client had made it. */
export type Dispatch = (request: Request, env: unknown) => Response | Promise<Response>

/** A plugin of the catalogue in the shape of Pixelbin's `getModules`. */
function pluginJson(plugin: PluginSpec) {
  return {
    identifier: plugin.id,
    name: plugin.name,
    description: plugin.description,
    credentials: { required: false },
    operations: plugin.operations.map((operation) => ({
      identifier: operation.method,
      name: operation.displayName,
      description: operation.description,
      available: operation.runnable,
      ...(operation.unavailableReason === undefined
        ? {}
        : { unavailableReason: operation.unavailableReason }),
      params: operation.params,
    })),
    enabled: true,
  }
}

/**
 * The platform routes, mounted at `PLATFORM`. `dispatch` runs a request through the app (for
 * the calls that are the panel's own under another path).
 */
export function pixelbinRoutes(
  app: AppContext,
  { auth, assets }: { auth: Auth; assets: Assets },
  dispatch: Dispatch,
): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const { repo } = app

  // A token, always: the organisation is the token's, and cookies get no unsigned way in.
  router.use('*', async (c, next) => {
    c.header('cache-control', 'no-store')
    if (bearerToken(c) === undefined) {
      throw new HttpError(
        401,
        'unauthenticated',
        'Send an API token: Authorization: Bearer <token> (as Pixelbin’s SDKs send it)',
      )
    }
    await next()
  })

  // Platform calls take an API token only, and tokens act as members (decision 019).
  const callerOf = (c: Context<AppEnv>): Promise<Caller> =>
    auth.requireAnyOrganisation(c, { role: 'member' })

  /** The panel's call at `path` (with this request's query, method, body and token). */
  async function forward(c: Context<AppEnv>, path: string): Promise<Response> {
    const url = new URL(c.req.url)
    const headers = new Headers(c.req.raw.headers)
    headers.delete('cookie')
    const init: RequestInit = { method: c.req.method, headers }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') init.body = await c.req.arrayBuffer()
    return dispatch(new Request(new URL(`${path}${url.search}`, url), init), c.env)
  }

  const orgPath = (caller: Caller, rest: string) =>
    `${ASSET_API_BASE}/${caller.organisation.id}${rest}`

  const files = (cloudName: string, file: StoredFile) => fileJson(app, cloudName, file)

  // ── uploads: the direct and URL uploads of assets/upload.ts ───────────────────────────────

  router.post('/assets/v1.0/upload/direct', (c) => assets.uploadDirect(c))
  router.post('/assets/v1.0/upload/url', jsonLimit, (c) => assets.uploadFromUrl(c))

  router.route('/', platformFileRoutes(app, callerOf))

  // ── presets: the panel's preset calls under the token's organisation ──────────────────────

  router.on(['GET', 'POST'], '/assets/v1.0/presets', async (c) =>
    forward(c, orgPath(await callerOf(c), '/presets')),
  )
  router.on(['GET', 'PATCH', 'DELETE'], '/assets/v1.0/presets/:presetName', async (c) =>
    forward(
      c,
      orgPath(await callerOf(c), `/presets/${encodeURIComponent(c.req.param('presetName'))}`),
    ),
  )

  // ── playground: a default image and the operation catalogue ───────────────────────────────

  // Pixelbin answers one image of its own for every organisation; here it is the organisation's
  // newest public image, or before its first upload the demo organisation's (public samples).
  router.get('/assets/v1.0/playground/default', async (c) => {
    const caller = await callerOf(c)
    const newestImage = (organisationId: string) =>
      repo.searchFiles(organisationId, {
        folder: '',
        recursive: true,
        formats: [...IMAGE_FORMATS].filter((format) => format !== 'svg'),
        access: 'public-read',
        sort: '-updatedAt',
        limit: 1,
        offset: 0,
      })
    const [own] = (await newestImage(caller.organisation.id)).files
    if (own !== undefined) return c.json(files(caller.organisation.cloudName, own))
    const demo = await app.lookups.organisationByCloudName(DEMO_CLOUD_NAME)
    const [sample] = demo === undefined ? [] : (await newestImage(demo.id)).files
    if (demo === undefined || sample === undefined || demo.requireSignedUrls) {
      throw new HttpError(
        404,
        'no_default_asset',
        'Upload an image first: the playground uses the newest one',
      )
    }
    return c.json(files(demo.cloudName, sample))
  })

  router.get('/assets/v1.0/playground/plugins', async (c) => {
    await callerOf(c)
    return c.json({
      plugins: Object.fromEntries(
        CATALOGUE.plugins.map((plugin) => [plugin.id, pluginJson(plugin)]),
      ),
      presets: [],
    })
  })

  router.get('/assets/v1.0/playground/plugins/:identifier', async (c) => {
    await callerOf(c)
    const plugin = CATALOGUE.getPlugin(c.req.param('identifier'))
    if (plugin === undefined) {
      throw new HttpError(404, 'plugin_not_found', `No plugin ${shown(c.req.param('identifier'))}`)
    }
    return c.json(pluginJson(plugin))
  })

  // ── credentials: nothing to keep, the models run on this server ───────────────────────────

  const noCredentials = async (c: Context<AppEnv>) => {
    await callerOf(c)
    throw new HttpError(
      400,
      'credentials_not_needed',
      'This server runs every model itself: no third-party plugin credentials are needed, and none are kept',
    )
  }
  router.post('/assets/v1.0/credentials', noCredentials)
  router.on(['PATCH', 'DELETE'], '/assets/v1.0/credentials/:pluginId', noCredentials)

  // ── organisation, transformation context, usage ───────────────────────────────────────────

  router.get('/organization/v1.0/apps/info', async (c) => {
    const caller = await callerOf(c)
    const answer = await forward(c, `${ORGANIZATION}/${caller.organisation.id}`)
    if (!answer.ok) return answer
    const org = (await answer.json()) as Record<string, unknown>
    const token = (await repo.listApiTokens(caller.organisation.id)).find(
      (each) => each.id === caller.tokenId,
    )
    return c.json({
      app: {
        _id: caller.tokenId,
        orgId: caller.organisation.id,
        name: token?.name ?? 'API token',
        token: token === undefined ? undefined : `${token.prefix}…`,
        permissions: ['read', 'write'],
        active: true,
        createdAt: token?.createdAt.toISOString(),
      },
      org,
    })
  })

  router.get('/transformation/context', async (c) => {
    await callerOf(c)
    const answer = await forward(c, TRANSFORMATION_CONTEXT)
    if (!answer.ok) return answer
    const body = (await answer.json()) as Record<string, unknown>
    return c.json('context' in body ? body : { context: body }, answer.status as 200)
  })

  /** Storage used and the credits of the current month (or subscription period). */
  async function usage(caller: Caller) {
    const organisationId = caller.organisation.id
    const [stored, summary] = await Promise.all([
      repo.organisationUsage(organisationId),
      repo.creditSummary(organisationId),
    ])
    if (stored === undefined || summary === undefined) {
      throw new HttpError(404, 'organisation_not_found', 'The organisation is gone')
    }
    const now = new Date()
    const since =
      summary.subscription?.currentPeriodStart ??
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
    const used = await repo.creditsSpentSince(organisationId, since)
    return {
      storage: { used: stored.bytes, total: null, files: stored.files },
      credits: { used, total: used + stored.credits, balance: stored.credits },
      since,
    }
  }

  router.get('/payment/v1.0/usage', async (c) => {
    const { storage, credits } = await usage(await callerOf(c))
    return c.json({ storage, credits })
  })

  router.get('/payment/v1.0/usage/subscription', async (c) => {
    const { storage, credits, since } = await usage(await callerOf(c))
    return c.json({
      credits: { used: credits.used },
      total: { credits: credits.total, storage: storage.total },
      storage: { used: storage.used },
      period: { start: since.toISOString() },
    })
  })

  return router
}
