// The public content of the website (product sections, site configuration, announcements, plans,
// addons, dynamic apps, predictions, blog posts) lives as JSON files in `apps/server/content/`, so editors
// change it without touching code. The files are read and validated once at start: a broken
// file stops the server with a message naming the file and the field at fault.
import { readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  CATALOGUE,
  type OperationSpec,
  type ParamSpec,
  parseDeliveryPath,
  parsePattern,
} from '@tessera/url'
import { z } from 'zod'

/** The folder the server reads its content from unless told otherwise. */
export const CONTENT_DIR = fileURLToPath(new URL('../content', import.meta.url))

/** The plan id that marks the free plan (SPEC §3, §9). */
export const FREE_PLAN_ID = -994
/** Credits of the free onboarding plan when its file gives none (SPEC §9). */
export const FREE_PLAN_CREDITS = 50

/** What a dynamic app without a title, description or thumbnail shows (SPEC §9). */
export const DEFAULT_APP_TITLE = 'Untitled App'
export const DEFAULT_APP_DESCRIPTION =
  'An image tool built on Tessera transformations. Upload an image to try it.'
export const DEFAULT_APP_THUMBNAIL = '/v2/demo/t.resize(w:480,h:320)~t.grey()/samples/camera.png'

/** The social networks the footer has icons for (SPEC §3). */
export const SOCIAL_MEDIA_IDENTIFIERS = [
  'discord',
  'linkedin',
  'instagram',
  'youtube',
  'twitter',
] as const

/** The files of a content folder, by what they hold. */
export const CONTENT_FILES = {
  productSections: 'product-sections.json',
  websites: 'website.json',
  announcements: 'announcements.json',
  plans: 'plans.json',
  addons: 'addons.json',
  apps: 'dynamic-apps.json',
  predictions: 'predictions.json',
  blogPosts: 'blog-posts.json',
} as const

/** Thrown at start when a content file is missing, is not JSON or does not fit its schema. */
export class ContentError extends Error {
  /** The file at fault, as given to `loadContent`. */
  readonly file: string

  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super(
      `Content file ${file} ${message}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    )
    this.name = 'ContentError'
    this.file = file
  }
}

// ── field schemas ────────────────────────────────────────────────────────────────────────────

const text = (max: number) => z.string().trim().min(1).max(max)
const entryId = z.int().min(1).max(2_147_483_647)
const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
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
      ctx.addIssue({ code: 'custom', message: `duplicate ${what} ${String(value)}`, path: [index] })
    seen.add(value)
  })
}

// ── file schemas ─────────────────────────────────────────────────────────────────────────────

const productSectionsFile = z
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

const websitesFile = z
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

const announcementsFile = z
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

const plansFile = z
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

const addonsFile = z
  .array(z.strictObject(billingItem))
  .superRefine((addons, ctx) => uniqueBy(addons, (addon) => addon.id, 'id', ctx))

const appsFile = z
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

const predictionsFile = z
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
const blogPostsFile = z
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

// ── loaded content ───────────────────────────────────────────────────────────────────────────

export type ProductSection = z.output<typeof productSectionsFile>[number]
export type WebsiteConfig = z.output<typeof websitesFile>[number]
export type Announcement = z.output<typeof announcementsFile>[number]
export type PlanContent = z.output<typeof plansFile>[number]
export type AddonContent = z.output<typeof addonsFile>[number]
export type PlanFeature = z.output<typeof feature>
export type BlogPost = z.output<typeof blogPostsFile>[number]

/** A dynamic app with SPEC §9's defaults applied. */
export interface DynamicApp {
  slug: string
  tags: string[]
  title: string
  description: string
  thumbnailURL: string
  isFeatured: boolean
  url: string
  transformation: string
  /** The `plugin.method` keys the transformation runs, in order. */
  operations: string[]
  createdAt: string
  updatedAt: string
}

/** A JSON-schema-like description of one input of a prediction. */
export interface InputField {
  type: 'string' | 'integer' | 'number' | 'boolean'
  title: string
  description?: string
  default?: string | number | boolean
  enum?: string[]
  minimum?: number
  maximum?: number
  pattern?: string
  format?: string
  /** The parameter's key in delivery URLs (`i` for `erase.bg(i:general)`). */
  'x-param'?: string
}

/** The input schema of a prediction: the image plus the parameters of its operation. */
export interface InputSchema {
  $schema: 'https://json-schema.org/draft/2020-12/schema'
  title: string
  type: 'object'
  properties: Record<string, InputField>
  required: string[]
  additionalProperties: false
}

/** A runnable model, described from its catalogue operation. */
export interface Prediction {
  id: string
  displayName: string
  description: string
  operation: OperationSpec
  tags: string[]
  thumbnailURL: string | undefined
  sampleFile: string | undefined
  inputSchema: InputSchema
}

/** Everything read from a content folder. */
export interface Content {
  dir: string
  productSections: ProductSection[]
  websites: WebsiteConfig[]
  announcements: Announcement[]
  plans: PlanContent[]
  addons: AddonContent[]
  apps: DynamicApp[]
  predictions: Prediction[]
  blogPosts: BlogPost[]
}

const COLOR_PATTERN = '^([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$'

/** The JSON-schema-like field for one catalogue parameter. */
export function inputFieldOf(param: ParamSpec): InputField {
  const field: InputField = { type: 'string', title: param.title, 'x-param': param.id }
  switch (param.type) {
    case 'integer':
      field.type = 'integer'
      break
    case 'float':
      field.type = 'number'
      break
    case 'boolean':
      field.type = 'boolean'
      break
    case 'enum':
      field.enum = [...(param.enum ?? [])]
      break
    case 'color':
      field.pattern = COLOR_PATTERN
      field.format = 'color'
      field.description = 'Hex colour, 6 or 8 digits (RRGGBB or RRGGBBAA)'
      break
    case 'file':
      field.format = 'uri'
      field.description = 'A file path or URL'
      break
    case 'bbox':
      field.pattern = '^\\d+_\\d+_\\d+_\\d+$'
      field.description = 'A box as 4 integers joined by _ (left_top_width_height)'
      break
    case 'bboxList':
      field.description = 'A JSON list of boxes of 4 numbers, with _ as list separator'
      break
    case 'polygonList':
      field.description = 'A JSON list of polygons of [x, y] points, with _ as list separator'
      break
    case 'string':
      break
  }
  if (param.min !== undefined) field.minimum = param.min
  if (param.max !== undefined) field.maximum = param.max
  if (param.default !== null) {
    field.default =
      field.type === 'string' && typeof param.default !== 'string'
        ? String(param.default)
        : param.default
  }
  return field
}

/** The input schema of an operation: a required image URL, then its parameters by name. */
export function inputSchemaOf(operation: OperationSpec, title: string): InputSchema {
  const properties: Record<string, InputField> = {
    image: {
      type: 'string',
      format: 'uri',
      title: 'Image',
      description: 'URL of the image to run the model on',
    },
  }
  const required = ['image']
  for (const param of operation.params) {
    properties[param.name] = inputFieldOf(param)
    if (param.required) required.push(param.name)
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title,
    type: 'object',
    properties,
    required,
    additionalProperties: false,
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path
        .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
        .join('')
        .replace(/^\./, '')
      return `${path === '' ? '(file)' : path}: ${issue.message}`
    })
    .join('; ')
}

async function readJson<T extends z.ZodType>(
  dir: string,
  name: string,
  schema: T,
): Promise<z.output<T>> {
  const path = join(dir, name)
  const shown = relative(process.cwd(), path) || path
  let raw: string
  try {
    raw = await readFile(path, 'utf8')
  } catch (error) {
    throw new ContentError(shown, `could not be read (${(error as Error).message})`, {
      cause: error,
    })
  }
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch (error) {
    throw new ContentError(shown, `is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    })
  }
  const parsed = schema.safeParse(data)
  if (!parsed.success) throw new ContentError(shown, `is invalid: ${describeIssues(parsed.error)}`)
  return parsed.data
}

/**
 * Reads and validates every content file of `dir` (default `apps/server/content`).
 *
 * @throws {ContentError} naming the first file that is missing, not JSON or not valid.
 */
export async function loadContent(dir: string = CONTENT_DIR): Promise<Content> {
  const productSections = await readJson(dir, CONTENT_FILES.productSections, productSectionsFile)
  const websites = await readJson(dir, CONTENT_FILES.websites, websitesFile)
  const announcements = await readJson(dir, CONTENT_FILES.announcements, announcementsFile)
  const plans = await readJson(dir, CONTENT_FILES.plans, plansFile)
  const addons = await readJson(dir, CONTENT_FILES.addons, addonsFile)
  const apps = await readJson(dir, CONTENT_FILES.apps, appsFile)
  const predictions = await readJson(dir, CONTENT_FILES.predictions, predictionsFile)
  const blogPosts = await readJson(dir, CONTENT_FILES.blogPosts, blogPostsFile)
  return {
    dir,
    productSections,
    websites,
    announcements,
    plans: plans.map((plan) =>
      plan.id === FREE_PLAN_ID && plan.credits === undefined
        ? { ...plan, credits: FREE_PLAN_CREDITS }
        : plan,
    ),
    addons,
    apps: apps.map((app) => ({
      slug: app.slug,
      tags: app.tags,
      title: app.title ?? DEFAULT_APP_TITLE,
      description: app.description ?? DEFAULT_APP_DESCRIPTION,
      thumbnailURL: app.thumbnailURL ?? DEFAULT_APP_THUMBNAIL,
      isFeatured: app.isFeatured,
      url: app.url,
      transformation: app.transformation,
      operations: parsePattern(app.transformation).value.map((operation) =>
        operation.spec === undefined ? operation.text : operation.spec.key,
      ),
      createdAt: app.createdAt,
      updatedAt: app.updatedAt ?? app.createdAt,
    })),
    predictions: predictions.map((item) => {
      const operation = operationOf(item.operation) as OperationSpec
      return {
        id: item.id,
        displayName: item.displayName,
        description: item.description,
        operation,
        tags: item.tags,
        thumbnailURL: item.thumbnailURL,
        sampleFile: item.sampleFile,
        inputSchema: inputSchemaOf(operation, item.displayName),
      }
    }),
    blogPosts,
  }
}
