// The public, read-only content APIs the website reads (SPEC §7.2), from the content files
// read once at start: dynamic apps, the predictions catalogue, the Strapi-shaped CMS calls
// (sections, site configuration, blog posts) and announcements. None needs a session; answers
// are cacheable for a minute (SPEC §9: website config 60 s). app.ts mounts each router under
// its base path (`paths.ts`).
import { type Context, Hono } from 'hono'
import type { z } from 'zod'
import type { AppContext, AppEnv } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { offsetOf, pageOf } from '../http/paging.ts'
import { parseQuery, readQuery } from '../http/query.ts'
import {
  blogPostsCollection,
  productSectionsCollection,
  type StrapiCollection,
  strapiAnswer,
  websitesCollection,
} from './cms.ts'
import type { Content, DynamicApp, Prediction } from './content.ts'
import { appsQuery } from './requests.ts'

/** `Cache-Control` of every successful content answer. */
export const CONTENT_CACHE_CONTROL = 'public, max-age=60'

// ── answers ──────────────────────────────────────────────────────────────────────────────────

/** Makes delivery paths of the content (`/v2/demo/…`) absolute with the public URL. */
function absoluteWith(publicUrl: string) {
  return (url: string) =>
    url.startsWith('/v1/') || url.startsWith('/v2/') ? `${publicUrl}${url}` : url
}

function appJson(app: DynamicApp, absolute: (url: string) => string) {
  return {
    _id: app.slug,
    slug: app.slug,
    tags: app.tags,
    config: {
      title: app.title,
      description: app.description,
      thumbnailURL: absolute(app.thumbnailURL),
      isFeatured: app.isFeatured,
      url: app.url,
      transformation: app.transformation,
      operations: app.operations,
    },
    createdAt: app.createdAt,
    updatedAt: app.updatedAt,
  }
}

function predictionJson(prediction: Prediction, absolute: (url: string) => string) {
  const { operation } = prediction
  return {
    _id: prediction.id,
    id: prediction.id,
    name: prediction.id,
    displayName: prediction.displayName,
    description: prediction.description,
    operation: operation.key,
    plugin: operation.plugin,
    method: operation.method,
    runnable: operation.runnable,
    slow: operation.slow,
    tags: prediction.tags,
    ...(prediction.thumbnailURL === undefined
      ? {}
      : { thumbnailURL: absolute(prediction.thumbnailURL) }),
    // Pixelbin's name for it, which `@pixelbin/admin`'s predictions.list gives (issue 22).
    bannerImage: prediction.thumbnailURL === undefined ? '' : absolute(prediction.thumbnailURL),
  }
}

function predictionSchemaJson(
  prediction: Prediction,
  publicUrl: string,
  absolute: (url: string) => string,
) {
  const { operation } = prediction
  const params = operation.params.map((param) => `${param.id}:{${param.name}}`).join(',')
  return {
    ...predictionJson(prediction, absolute),
    // `input` is what `@pixelbin/admin`'s predictions.getSchema reads; `schema` the website's.
    input: prediction.inputSchema,
    schema: prediction.inputSchema,
    apiDetails: {
      // Anyone can run a model through delivery; members and API tokens can also queue a
      // prediction job (POST …/transformation/v1.0/org/{orgId}/predictions/{id}, docs/api.md).
      method: 'GET',
      urlTemplate: `${publicUrl}/v2/{cloudName}/${operation.key}(${params})/{filePath}`,
      ...(prediction.sampleFile === undefined
        ? {}
        : {
            example: `${publicUrl}/v2/demo/${operation.key}()/${prediction.sampleFile}`,
          }),
      runnable: operation.runnable,
      async: operation.slow,
      notes: operation.slow
        ? 'The first request answers 202 while the model runs; retry until 200.'
        : 'Answers the result at once.',
    },
  }
}

function listApps(apps: readonly DynamicApp[], query: z.output<typeof appsQuery>): DynamicApp[] {
  const tags = query.tags ?? []
  const search = query.searchQuery?.toLowerCase()
  const found = apps.filter(
    (app) =>
      (tags.length === 0 || app.tags.some((tag) => tags.includes(tag))) &&
      (search === undefined ||
        app.title.toLowerCase().includes(search) ||
        app.description.toLowerCase().includes(search)),
  )
  const sortBy = query.sortBy ?? 'createdAt'
  // Newest first and A→Z are what a reader expects when only the field is given.
  const order = (query.sortOrder ?? (sortBy === 'title' ? 'asc' : 'desc')) === 'asc' ? 1 : -1
  const collator = new Intl.Collator('en', {
    sensitivity: 'base',
    numeric: true,
  })
  return found.sort((a, b) => {
    const byField =
      sortBy === 'title'
        ? collator.compare(a.title, b.title)
        : Date.parse(a.createdAt) - Date.parse(b.createdAt)
    return byField !== 0 ? order * byField : a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0
  })
}

/** Whether an announcement is shown at `now`: started and not yet ended. */
function isCurrent(item: Content['announcements'][number], now: number): boolean {
  return (
    Date.parse(item.startsAt) <= now && (item.endsAt === undefined || now < Date.parse(item.endsAt))
  )
}

// ── routes ───────────────────────────────────────────────────────────────────────────────────

type ContentApp = Pick<AppContext, 'content' | 'config'>

const cacheable = (c: Context<AppEnv>) => c.header('cache-control', CONTENT_CACHE_CONTROL)

/** `derive(content)`, computed again only when the content was reloaded (a new object). */
function perContent<T>(app: Pick<AppContext, 'content'>, derive: (content: Content) => T): () => T {
  let seen: Content | undefined
  let value: T | undefined
  return () => {
    if (app.content !== seen || value === undefined) {
      seen = app.content
      value = derive(seen)
    }
    return value
  }
}

/** `GET /dynamicApps` (paged, filtered, sorted) and `GET /dynamicApps/{slug}`, under `APPS`. */
export function appRoutes(app: ContentApp): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const absolute = absoluteWith(app.config.publicUrl)
  const appsBySlug = perContent(
    app,
    (content) => new Map(content.apps.map((item) => [item.slug, item])),
  )

  router.get('/dynamicApps', (c) => {
    const query = parseQuery(readQuery(c.req.url), appsQuery)
    const found = listApps(app.content.apps, query)
    const start = offsetOf(query)
    cacheable(c)
    return c.json({
      items: found.slice(start, start + query.pageSize).map((item) => appJson(item, absolute)),
      page: pageOf(query.pageNo, query.pageSize, found.length),
    })
  })

  router.get('/dynamicApps/:slug', (c) => {
    const slug = c.req.param('slug')
    const found = appsBySlug().get(slug)
    if (found === undefined) {
      throw new HttpError(
        404,
        'not_found',
        `No dynamic app with slug ${JSON.stringify(slug.slice(0, 100))}`,
      )
    }
    cacheable(c)
    return c.json(appJson(found, absolute))
  })
  return router
}

/** `GET /predictions` and `GET /predictions/schema/{id}`, under `TRANSFORMATION`. */
export function predictionCatalogueRoutes(app: ContentApp): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const publicUrl = app.config.publicUrl
  const absolute = absoluteWith(publicUrl)
  const predictionsById = perContent(
    app,
    (content) => new Map(content.predictions.map((item) => [item.id, item])),
  )
  // A plain array, as Pixelbin's predictions.list answers (SPEC §7.2 allows it; the website
  // reads both).
  const predictionList = perContent(app, (content) =>
    content.predictions.map((item) => predictionJson(item, absolute)),
  )

  router.get('/predictions', (c) => {
    cacheable(c)
    return c.json(predictionList())
  })

  router.get('/predictions/schema/:id', (c) => {
    const found = predictionsById().get(c.req.param('id'))
    // SPEC §7.2: the client rejects a 404 with its (empty object) body.
    if (found === undefined) return c.json({}, 404, { 'cache-control': 'no-store' })
    cacheable(c)
    return c.json(predictionSchemaJson(found, publicUrl, absolute))
  })
  return router
}

/** `GET /product-sections`, `/websites` and `/blogs`, Strapi-shaped, under `CMS`. */
export function cmsRoutes(app: ContentApp): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const absolute = absoluteWith(app.config.publicUrl)
  const serve =
    <T>(collection: () => StrapiCollection<T>) =>
    (c: Context<AppEnv>) => {
      const answer = strapiAnswer(readQuery(c.req.url), collection())
      cacheable(c)
      return c.json(answer)
    }
  router.get(
    '/product-sections',
    serve(
      perContent(app, (content) => productSectionsCollection(content.productSections, absolute)),
    ),
  )
  router.get(
    '/websites',
    serve(perContent(app, (content) => websitesCollection(content.websites, absolute))),
  )
  router.get(
    '/blogs',
    serve(perContent(app, (content) => blogPostsCollection(content.blogPosts, absolute))),
  )
  return router
}

/** `GET /`: the announcements shown now, newest first, under `ANNOUNCEMENTS`. */
export function announcementRoutes(app: Pick<AppContext, 'content'>): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  router.get('/', (c) => {
    const now = Date.now()
    const items = app.content.announcements
      .filter((item) => isCurrent(item, now))
      .sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt) || a.id - b.id)
    cacheable(c)
    return c.json({ items })
  })
  return router
}
