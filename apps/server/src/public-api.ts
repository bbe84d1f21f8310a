// The public, read-only content APIs the website reads (SPEC §7.2): plans and addons (from the
// database, seeded from the content files), dynamic apps and predictions (from the content
// files), the Strapi-shaped CMS calls (sections, site configuration, blog posts), announcements,
// and the OpenAPI document of the server.
// None needs a session; answers are cacheable for a minute (SPEC §9: website config 60 s).
import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from './app.ts'
import type {
  BlogPost,
  Content,
  DynamicApp,
  Prediction,
  ProductSection,
  WebsiteConfig,
} from './content.ts'
import type { AppContext } from './context.ts'
import type { Addon, BillingFeature, ListBillingOptions, ListPage, Plan } from './db/index.ts'
import { HttpError } from './http-error.ts'
import { buildOpenApiDocument } from './openapi.ts'
import {
  booleanText,
  freeText,
  invalidQuery,
  parseQuery,
  type QueryParams,
  readQuery,
  singleValue,
  tagList,
  wholeNumber,
} from './query.ts'

export const BILLING = '/service/panel/billing/v1.0'
export const APPS = '/service/public/apps/v1.0'
export const TRANSFORMATION = '/service/public/transformation/v1.0'
export const CMS = '/cms/api'
export const OPENAPI_PATH = '/service/openapi.json'

/** Page size of plans and addons when the client gives none: small, so clients must page. */
export const BILLING_PAGE_SIZE = 3
/** Page size of the dynamic-app list when the client gives none. */
export const APPS_PAGE_SIZE = 12
/** Page size of CMS collections when the client gives none (Strapi's default). */
export const CMS_PAGE_SIZE = 25
export const MAX_PAGE_SIZE = 100
export const MAX_PAGE_NO = 100_000
/** `Cache-Control` of every successful content answer. */
export const CONTENT_CACHE_CONTROL = 'public, max-age=60'

/** The `page` object of paged answers (SPEC §7.2: clients loop while `hasNext`). */
export interface Page {
  current: number
  size: number
  hasNext: boolean
  itemTotal: number
  type: 'number'
}

function pageOf(current: number, size: number, itemTotal: number): Page {
  return { current, size, hasNext: current * size < itemTotal, itemTotal, type: 'number' }
}

const pagingQuery = (defaultSize: number) => ({
  pageNo: wholeNumber(1, MAX_PAGE_NO).default(1),
  pageSize: wholeNumber(1, MAX_PAGE_SIZE).default(defaultSize),
})

const billingQuery = z.object({
  ...pagingQuery(BILLING_PAGE_SIZE),
  custom: booleanText.optional(),
  tag: freeText(64).optional(),
})

const appsQuery = z.object({
  ...pagingQuery(APPS_PAGE_SIZE),
  tags: tagList(20, 64).optional(),
  sortBy: z.enum(['createdAt', 'title'], { error: 'must be createdAt or title' }).optional(),
  sortOrder: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
  searchQuery: freeText(100).optional(),
})

// ── answers ──────────────────────────────────────────────────────────────────────────────────

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
    name: addon.name,
    description: addon.description,
    amount: addon.amount,
    currency: addon.currency,
    credits: addon.credits,
    features: featuresJson(addon.features),
    tags: addon.tags,
    custom: addon.custom,
    createdAt: addon.createdAt.toISOString(),
    updatedAt: addon.updatedAt.toISOString(),
  }
}

function planJson(plan: Plan) {
  const { createdAt, updatedAt, ...rest } = addonJson(plan)
  return { ...rest, interval: plan.interval, createdAt, updatedAt }
}

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
    schema: prediction.inputSchema,
    apiDetails: {
      // Anyone can run a model through delivery; members and API tokens can also queue a
      // prediction job (POST …/transformation/v1.0/org/{orgId}/predictions/{id}, docs/api.md).
      method: 'GET',
      urlTemplate: `${publicUrl}/v2/{cloudName}/${operation.key}(${params})/{filePath}`,
      ...(prediction.sampleFile === undefined
        ? {}
        : { example: `${publicUrl}/v2/demo/${operation.key}()/${prediction.sampleFile}` }),
      runnable: operation.runnable,
      async: operation.slow,
      notes: operation.slow
        ? 'The first request answers 202 while the model runs; retry until 200.'
        : 'Answers the result at once.',
    },
  }
}

// ── Strapi-shaped CMS ────────────────────────────────────────────────────────────────────────

interface StrapiCollection<T> {
  name: string
  entries: readonly T[]
  /** Relations and components, only present when `populate` asks for them. */
  populatable: readonly string[]
  /** The one field `filters[field]` / `filters[field][$eq]` may compare. */
  filterField: string
  filterValue(entry: T): string
  attributes(entry: T, populate: ReadonlySet<string>): Record<string, unknown>
  /** Fields `sort` may order by; a collection without them keeps file order and ignores `sort`. */
  sortable?: Readonly<Record<string, (entry: T) => string | number>>
}

/** The fields `populate` asks for: `*`, names, comma lists, `populate[0]=…` or `populate[x]=…`. */
function populateOf(params: QueryParams, collection: StrapiCollection<unknown>): Set<string> {
  const asked: string[] = []
  for (const [key, values] of params) {
    if (key === 'populate' || /^populate\[\d+\]$/.test(key)) {
      for (const value of values) asked.push(...value.split(','))
    } else if (key.startsWith('populate[')) {
      const field = /^populate\[([^\]]+)\]$/.exec(key)?.[1]
      if (field === undefined) throw invalidQuery(`Unsupported populate parameter ${key}`)
      asked.push(field)
    }
  }
  const fields = new Set<string>()
  for (const raw of asked) {
    const field = raw.trim()
    if (field === '') continue
    if (field === '*') {
      for (const name of collection.populatable) fields.add(name)
    } else if (collection.populatable.includes(field)) {
      fields.add(field)
    } else {
      throw invalidQuery(
        `populate ${JSON.stringify(field.slice(0, 40))} is not a field of ${collection.name}; use * or ${collection.populatable.join(', ')}`,
      )
    }
  }
  return fields
}

/** The value of `filters[field]` or `filters[field][$eq]`, if given. */
function filterOf(params: QueryParams, collection: StrapiCollection<unknown>): string | undefined {
  let wanted: string | undefined
  for (const key of params.keys()) {
    if (!key.startsWith('filters[')) continue
    const match = /^filters\[([^\]]+)\](?:\[\$eq\])?$/.exec(key)
    if (match === null || match[1] !== collection.filterField) {
      throw invalidQuery(
        `Unsupported filter ${JSON.stringify(key.slice(0, 60))}: ${collection.name} can be filtered by filters[${collection.filterField}] (or filters[${collection.filterField}][$eq])`,
      )
    }
    if (wanted !== undefined)
      throw invalidQuery(`filters[${collection.filterField}] was given more than once`)
    wanted = singleValue(params, key)
  }
  return wanted
}

/** Most fields one `sort` may list. */
const MAX_SORT_FIELDS = 3

/**
 * Orders entries by `sort=field[:asc|desc]` (Strapi: comma lists, or `sort[0]=…`, `sort[1]=…`),
 * ties broken by id. Ascending when no direction is given, as in Strapi.
 */
function sortedBy<T>(params: QueryParams, collection: StrapiCollection<T>, entries: readonly T[]) {
  const sortable = collection.sortable
  if (sortable === undefined) return entries
  const asked: string[] = []
  for (const [key, values] of params) {
    if (key === 'sort' || /^sort\[\d+\]$/.test(key)) {
      for (const value of values) asked.push(...value.split(','))
    } else if (key.startsWith('sort[')) {
      throw invalidQuery(`Unsupported sort parameter ${JSON.stringify(key.slice(0, 40))}`)
    }
  }
  const fields = asked.map((item) => item.trim()).filter((item) => item !== '')
  if (fields.length === 0) return entries
  if (fields.length > MAX_SORT_FIELDS)
    throw invalidQuery(`sort lists at most ${MAX_SORT_FIELDS} fields`)
  const keys = fields.map((item) => {
    const [field = '', direction = 'asc', ...rest] = item.split(':')
    const read = Object.hasOwn(sortable, field) ? sortable[field] : undefined
    if (read === undefined || rest.length > 0) {
      throw invalidQuery(
        `sort ${JSON.stringify(item.slice(0, 40))} is not a field of ${collection.name}; use ${Object.keys(sortable).join(', ')} with :asc or :desc`,
      )
    }
    const order = direction.toLowerCase()
    if (order !== 'asc' && order !== 'desc')
      throw invalidQuery(
        `sort direction of ${field} must be asc or desc, got ${JSON.stringify(direction.slice(0, 20))}`,
      )
    return { read, sign: order === 'asc' ? 1 : -1 }
  })
  const idOf = (entry: T) => (entry as { id: number }).id
  return [...entries].sort((a, b) => {
    for (const { read, sign } of keys) {
      const x = read(a)
      const y = read(b)
      if (x !== y) return x < y ? -sign : sign
    }
    return idOf(a) - idOf(b)
  })
}

const strapiPaging = z.object({
  'pagination[page]': wholeNumber(1, MAX_PAGE_NO).default(1),
  'pagination[pageSize]': wholeNumber(1, MAX_PAGE_SIZE).default(CMS_PAGE_SIZE),
})

function strapiAnswer<T>(params: QueryParams, collection: StrapiCollection<T>) {
  const populate = populateOf(params, collection as StrapiCollection<unknown>)
  const wanted = filterOf(params, collection as StrapiCollection<unknown>)
  const paging = parseQuery(params, strapiPaging)
  const page = paging['pagination[page]']
  const pageSize = paging['pagination[pageSize]']
  const filtered =
    wanted === undefined
      ? collection.entries
      : collection.entries.filter((entry) => collection.filterValue(entry) === wanted)
  const matching = sortedBy(params, collection, filtered)
  const slice = matching.slice((page - 1) * pageSize, page * pageSize)
  return {
    data: slice.map((entry) => ({
      id: (entry as { id: number }).id,
      attributes: collection.attributes(entry, populate),
    })),
    meta: {
      pagination: {
        page,
        pageSize,
        pageCount: Math.ceil(matching.length / pageSize),
        total: matching.length,
      },
    },
  }
}

function productSectionsCollection(
  sections: readonly ProductSection[],
  absolute: (url: string) => string,
): StrapiCollection<ProductSection> {
  // Components have their own ids in Strapi; numbered here in file order.
  let cardId = 0
  const cards = new Map(
    sections.map((section) => [
      section.sectionId,
      section.cards.map((card) => ({
        id: ++cardId,
        title: card.title,
        description: card.description,
        image: absolute(card.image),
        link: card.link,
      })),
    ]),
  )
  return {
    name: 'product-sections',
    entries: sections,
    populatable: ['header', 'cards'],
    filterField: 'sectionId',
    filterValue: (section) => section.sectionId,
    attributes: (section, populate) => ({
      sectionId: section.sectionId,
      ...(populate.has('header') ? { header: { id: section.id, ...section.header } } : {}),
      ...(populate.has('cards') ? { cards: cards.get(section.sectionId) ?? [] } : {}),
    }),
  }
}

function websitesCollection(
  sites: readonly WebsiteConfig[],
  absolute: (url: string) => string,
): StrapiCollection<WebsiteConfig> {
  return {
    name: 'websites',
    entries: sites,
    populatable: ['socialMediaLinks', 'footerBadgeList'],
    filterField: 'searchTag',
    filterValue: (site) => site.searchTag,
    attributes: (site, populate) => ({
      searchTag: site.searchTag,
      lastUpdated: site.lastUpdated,
      ...(populate.has('socialMediaLinks')
        ? {
            socialMediaLinks: site.socialMediaLinks.map((item, index) => ({
              id: index + 1,
              identifier: item.identifier,
              link: item.link,
            })),
          }
        : {}),
      ...(populate.has('footerBadgeList')
        ? {
            footerBadgeList: site.footerBadgeList.map((item, index) => ({
              id: index + 1,
              badgeName: item.badgeName,
              badgeUrl: absolute(item.badgeUrl),
            })),
          }
        : {}),
    }),
  }
}

/**
 * Blog posts (SPEC §3 recentBlog). The cover is a Strapi media field (`cover.data.attributes`)
 * and the author a component; both are present only when `populate` asks for them.
 */
function blogPostsCollection(
  posts: readonly BlogPost[],
  absolute: (url: string) => string,
): StrapiCollection<BlogPost> {
  return {
    name: 'blogs',
    entries: posts,
    populatable: ['cover', 'author'],
    filterField: 'slug',
    filterValue: (post) => post.slug,
    sortable: {
      publishedAt: (post) => Date.parse(post.publishedAt),
      title: (post) => post.title.toLowerCase(),
      id: (post) => post.id,
    },
    attributes: (post, populate) => ({
      title: post.title,
      slug: post.slug,
      excerpt: post.excerpt,
      url: post.url,
      publishedAt: post.publishedAt,
      ...(populate.has('cover')
        ? {
            cover: {
              data: {
                id: post.id,
                attributes: { url: absolute(post.cover.image), alternativeText: post.cover.alt },
              },
            },
          }
        : {}),
      ...(populate.has('author')
        ? {
            author: {
              id: post.id,
              name: post.author.name,
              ...(post.author.role === undefined ? {} : { role: post.author.role }),
            },
          }
        : {}),
    }),
  }
}

// ── routes ───────────────────────────────────────────────────────────────────────────────────

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
  const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })
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

/**
 * Registers the public content APIs on `hono` (see docs/api.md). Content answers are built from
 * `app.content`, read once at start; plans and addons are read from the database.
 */
export function registerPublicApi(
  hono: Hono<AppEnv>,
  app: Pick<AppContext, 'repo' | 'content' | 'config'>,
): void {
  const { repo, content, config } = app
  const publicUrl = config.publicUrl
  const absolute = absoluteWith(publicUrl)
  const appsBySlug = new Map(content.apps.map((item) => [item.slug, item]))
  const predictionsById = new Map(content.predictions.map((item) => [item.id, item]))
  const predictionList = {
    items: content.predictions.map((item) => predictionJson(item, absolute)),
  }
  const productSections = productSectionsCollection(content.productSections, absolute)
  const websites = websitesCollection(content.websites, absolute)
  const blogs = blogPostsCollection(content.blogPosts, absolute)
  const openApi = buildOpenApiDocument({
    publicUrl,
    appSlug: content.apps[0]?.slug ?? 'background-remover',
    predictionId: content.predictions[0]?.id ?? 'erase_bg',
  })

  const cacheable = (c: Context<AppEnv>, route: string) => {
    c.set('route', route)
    c.header('cache-control', CONTENT_CACHE_CONTROL)
  }

  const billingList =
    <T>(list: (options: ListBillingOptions) => Promise<ListPage<T>>, json: (row: T) => unknown) =>
    async (c: Context<AppEnv>) => {
      c.set('route', 'billing')
      const query = parseQuery(readQuery(c.req.url), billingQuery)
      const page = await list({
        custom: query.custom,
        tag: query.tag,
        limit: query.pageSize,
        offset: (query.pageNo - 1) * query.pageSize,
      })
      cacheable(c, 'billing')
      return c.json({
        items: page.items.map(json),
        page: pageOf(query.pageNo, query.pageSize, page.total),
      })
    }

  hono.get(`${BILLING}/plans`, billingList(repo.listPlans, planJson))
  hono.get(`${BILLING}/addons`, billingList(repo.listAddons, addonJson))

  hono.get(`${APPS}/dynamicApps`, (c) => {
    c.set('route', 'apps')
    const query = parseQuery(readQuery(c.req.url), appsQuery)
    const found = listApps(content.apps, query)
    const start = (query.pageNo - 1) * query.pageSize
    cacheable(c, 'apps')
    return c.json({
      items: found.slice(start, start + query.pageSize).map((item) => appJson(item, absolute)),
      page: pageOf(query.pageNo, query.pageSize, found.length),
    })
  })

  hono.get(`${APPS}/dynamicApps/:slug`, (c) => {
    c.set('route', 'apps')
    const slug = c.req.param('slug')
    const found = appsBySlug.get(slug)
    if (found === undefined) {
      throw new HttpError(
        404,
        'not_found',
        `No dynamic app with slug ${JSON.stringify(slug.slice(0, 100))}`,
      )
    }
    cacheable(c, 'apps')
    return c.json(appJson(found, absolute))
  })

  hono.get(`${TRANSFORMATION}/predictions`, (c) => {
    cacheable(c, 'predictions')
    return c.json(predictionList)
  })

  hono.get(`${TRANSFORMATION}/predictions/schema/:id`, (c) => {
    c.set('route', 'predictions')
    const found = predictionsById.get(c.req.param('id'))
    // SPEC §7.2: the client rejects a 404 with its (empty object) body.
    if (found === undefined) return c.json({}, 404, { 'cache-control': 'no-store' })
    cacheable(c, 'predictions')
    return c.json(predictionSchemaJson(found, publicUrl, absolute))
  })

  hono.get(`${CMS}/product-sections`, (c) => {
    c.set('route', 'cms')
    const answer = strapiAnswer(readQuery(c.req.url), productSections)
    cacheable(c, 'cms')
    return c.json(answer)
  })

  hono.get(`${CMS}/websites`, (c) => {
    c.set('route', 'cms')
    const answer = strapiAnswer(readQuery(c.req.url), websites)
    cacheable(c, 'cms')
    return c.json(answer)
  })

  hono.get(`${CMS}/blogs`, (c) => {
    c.set('route', 'cms')
    const answer = strapiAnswer(readQuery(c.req.url), blogs)
    cacheable(c, 'cms')
    return c.json(answer)
  })

  hono.get('/api/announcements', (c) => {
    const now = Date.now()
    const items = content.announcements
      .filter((item) => isCurrent(item, now))
      .sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt) || a.id - b.id)
    cacheable(c, 'announcements')
    return c.json({ items })
  })

  hono.get(OPENAPI_PATH, (c) => {
    cacheable(c, 'openapi')
    return c.json(openApi)
  })
}
