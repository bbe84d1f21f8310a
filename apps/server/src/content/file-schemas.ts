// The schemas of the content files (`apps/server/content/*.json`): what each file must hold,
// checked once at start by `loadContent` (content.ts), which names the file and field at fault.
import { CATALOGUE, type OperationSpec, parseDeliveryPath, parsePattern } from '@tessera/url'
import { z } from 'zod'

/** The plan id that marks the free plan (SPEC §3, §9). */
export const FREE_PLAN_ID = -994
/** The social networks the footer has icons for (SPEC §3). */
export const SOCIAL_MEDIA_IDENTIFIERS = [
  'discord',
  'linkedin',
  'instagram',
  'youtube',
  'twitter',
] as const

// ── field schemas ────────────────────────────────────────────────────────────────────────────

const text = (max: number) => z.string().trim().min(1).max(max)
const entryId = z.int().min(1).max(2_147_483_647)
const isoDate = z.iso.datetime({
  offset: true,
  error: 'must be an ISO 8601 date-time',
})
const kebab = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case words joined by hyphens')
const tag = z
  .string()
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and hyphens')
const tags = z.array(tag).max(20).default([])
/** An optional field where an empty string counts as missing (editors blank a field to clear it). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema.optional(),
  )

/** Why a delivery path cannot be served, or undefined when it can. */
export function deliveryPathProblem(path: string): string | undefined {
  try {
    const parts = parseDeliveryPath(path)
    if (parts.filePath === '' || parts.filePath === undefined) return 'has no file path'
    const { issues } = parsePattern(parts.pattern ?? '')
    const issue = issues[0]
    return issue === undefined ? undefined : issue.message
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

const isDeliveryPath = (value: string) => value.startsWith('/v1/') || value.startsWith('/v2/')

/** An absolute http(s) URL, or a path on this site; delivery paths must parse. */
const link = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .superRefine((value, ctx) => {
    if (value.startsWith('/')) {
      if (value.startsWith('//')) ctx.addIssue('must not start with //')
      const problem = isDeliveryPath(value) ? deliveryPathProblem(value) : undefined
      if (problem !== undefined)
        ctx.addIssue(`is not a delivery URL this server can serve: ${problem}`)
      return
    }
    if (!/^https?:\/\/[^/\s]+/i.test(value)) ctx.addIssue('must be an http(s) URL or start with /')
  })

/** A delivery URL path of a demo image, e.g. `/v2/demo/t.resize(w:480)/samples/a.png`. */
const deliveryPath = z
  .string()
  .trim()
  .max(2000)
  .superRefine((value, ctx) => {
    if (!isDeliveryPath(value)) {
      ctx.addIssue('must be a delivery path starting with /v1/ or /v2/')
      return
    }
    const problem = deliveryPathProblem(value)
    if (problem !== undefined)
      ctx.addIssue(`is not a delivery URL this server can serve: ${problem}`)
  })

/** A path into the documentation site, e.g. `/transformations/ml/erase-bg`. */
const docsPath = z
  .string()
  .regex(/^\/[A-Za-z0-9/_.-]*$/, 'must be a documentation path starting with /')

function uniqueBy<T>(
  items: readonly T[],
  key: (item: T) => unknown,
  what: string,
  ctx: z.RefinementCtx,
) {
  const seen = new Set<unknown>()
  items.forEach((item, index) => {
    const value = key(item)
    if (seen.has(value))
      ctx.addIssue({
        code: 'custom',
        message: `duplicate ${what} ${String(value)}`,
        path: [index],
      })
    seen.add(value)
  })
}

// ── file schemas ─────────────────────────────────────────────────────────────────────────────

export const productSectionsFile = z
  .array(
    z.strictObject({
      id: entryId,
      sectionId: kebab,
      header: z.strictObject({ title: text(200), description: text(1000) }),
      cards: z
        .array(
          z.strictObject({
            title: text(200),
            description: text(1000),
            image: link,
            link: docsPath,
          }),
        )
        .min(2)
        .max(3),
    }),
  )
  .superRefine((sections, ctx) => {
    uniqueBy(sections, (section) => section.id, 'id', ctx)
    uniqueBy(sections, (section) => section.sectionId, 'sectionId', ctx)
  })

export const websitesFile = z
  .array(
    z.strictObject({
      id: entryId,
      searchTag: text(100),
      lastUpdated: isoDate,
      socialMediaLinks: z
        .array(
          z.strictObject({
            identifier: z.enum(SOCIAL_MEDIA_IDENTIFIERS),
            link: link,
          }),
        )
        .max(20),
      footerBadgeList: z.array(z.strictObject({ badgeName: text(200), badgeUrl: link })).max(20),
    }),
  )
  .superRefine((sites, ctx) => {
    uniqueBy(sites, (site) => site.id, 'id', ctx)
    uniqueBy(sites, (site) => site.searchTag, 'searchTag', ctx)
  })

export const announcementsFile = z
  .array(
    z
      .strictObject({
        id: entryId,
        title: text(300),
        description: text(2000).optional(),
        link: link.optional(),
        linkText: text(100).optional(),
        startsAt: isoDate,
        endsAt: isoDate.optional(),
      })
      .refine(
        (item) => item.endsAt === undefined || Date.parse(item.endsAt) > Date.parse(item.startsAt),
        {
          message: 'endsAt must be later than startsAt',
          path: ['endsAt'],
        },
      ),
  )
  .superRefine((items, ctx) => uniqueBy(items, (item) => item.id, 'id', ctx))

const feature = z.strictObject({
  displayName: text(200),
  value: z.union([z.string().max(200), z.number().finite(), z.boolean()]),
  unit: text(50).optional(),
  description: text(1000).optional(),
})

const billingItem = {
  id: z.int().min(-2_147_483_648).max(2_147_483_647),
  name: text(200),
  description: z.string().trim().max(1000).default(''),
  amount: z
    .number()
    .min(0)
    .max(9_999_999_999)
    .refine((amount) => Math.round(amount * 100) === amount * 100, 'must have at most 2 decimals'),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
  credits: z.int().min(0).max(2_147_483_647).optional(),
  tags,
  custom: z.boolean().default(false),
  active: z.boolean().default(true),
  features: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'feature names are letters, digits, _ and -'),
      feature,
    )
    .default({}),
  sort: z.int().min(-1_000_000).max(1_000_000).default(0),
}

export const plansFile = z
  .array(
    z.strictObject({
      ...billingItem,
      interval: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, "must be like 'monthly' or 'yearly'"),
    }),
  )
  .superRefine((plans, ctx) => {
    uniqueBy(plans, (plan) => plan.id, 'id', ctx)
    const free = plans.find((plan) => plan.id === FREE_PLAN_ID)
    if (free === undefined) ctx.addIssue(`must contain the free plan (id ${FREE_PLAN_ID})`)
    else if (free.amount !== 0 || free.custom) {
      ctx.addIssue(`the free plan (id ${FREE_PLAN_ID}) must have amount 0 and not be custom`)
    }
  })

export const addonsFile = z
  .array(z.strictObject(billingItem))
  .superRefine((addons, ctx) => uniqueBy(addons, (addon) => addon.id, 'id', ctx))

export const appsFile = z
  .array(
    z.strictObject({
      slug: kebab,
      tags,
      title: optional(text(200)),
      description: optional(text(2000)),
      thumbnailURL: optional(link),
      isFeatured: z.boolean().default(false),
      url: link,
      transformation: z
        .string()
        .trim()
        .min(1)
        .max(2000)
        .superRefine((pattern, ctx) => {
          const issue = parsePattern(pattern).issues[0]
          if (issue !== undefined) ctx.addIssue(`is not a valid transformation: ${issue.message}`)
        }),
      createdAt: isoDate,
      updatedAt: isoDate.optional(),
    }),
  )
  .superRefine((apps, ctx) => uniqueBy(apps, (app) => app.slug, 'slug', ctx))

export const predictionsFile = z
  .array(
    z.strictObject({
      id: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be like erase_bg'),
      displayName: text(200),
      description: text(2000),
      operation: z.string().refine((key) => operationOf(key) !== undefined, {
        message: 'must be a plugin.method of the catalogue',
      }),
      tags,
      thumbnailURL: deliveryPath.optional(),
      /** A demo file the example URL runs on, e.g. `samples/coffee.png`. */
      sampleFile: z
        .string()
        .regex(/^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/, 'must be a relative file path')
        .optional(),
    }),
  )
  .superRefine((predictions, ctx) => uniqueBy(predictions, (item) => item.id, 'id', ctx))

/** Blog posts (SPEC §3 recentBlog): the post lives on the external blog at `url`. */
export const blogPostsFile = z
  .array(
    z
      .strictObject({
        id: entryId,
        title: text(200),
        slug: kebab,
        excerpt: text(600),
        cover: z.strictObject({ image: deliveryPath, alt: text(300) }),
        author: z.strictObject({ name: text(100), role: text(100).optional() }),
        publishedAt: isoDate,
        url: z
          .string()
          .trim()
          .max(2000)
          .regex(/^https?:\/\/[^/\s]+\/\S*$/i, 'must be an http(s) URL of the blog'),
      })
      .refine((post) => post.url.replace(/\/+$/, '').endsWith(`/${post.slug}`), {
        message: 'url must end with /{slug} (the blog base plus the slug)',
        path: ['url'],
      }),
  )
  .superRefine((posts, ctx) => {
    uniqueBy(posts, (post) => post.id, 'id', ctx)
    uniqueBy(posts, (post) => post.slug, 'slug', ctx)
  })

/** The catalogue record of `plugin.method`, if there is one. */
export function operationOf(key: string): OperationSpec | undefined {
  const dot = key.indexOf('.')
  if (dot <= 0) return undefined
  return CATALOGUE.getOperation(key.slice(0, dot), key.slice(dot + 1))
}

export type ProductSection = z.output<typeof productSectionsFile>[number]
export type WebsiteConfig = z.output<typeof websitesFile>[number]
export type Announcement = z.output<typeof announcementsFile>[number]
export type PlanContent = z.output<typeof plansFile>[number]
export type AddonContent = z.output<typeof addonsFile>[number]
export type PlanFeature = z.output<typeof feature>
export type BlogPost = z.output<typeof blogPostsFile>[number]
