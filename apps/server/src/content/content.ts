// The public content of the website (product sections, site configuration, announcements, plans,
// addons, dynamic apps, predictions, blog posts) lives as JSON files in `apps/server/content/`, so editors
// change it without touching code. The files are read and validated once at start: a broken
// file stops the server with a message naming the file and the field at fault.
import { readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type OperationSpec, type ParamSpec, parsePattern } from '@tessera/url'
import type { z } from 'zod'
import {
  type AddonContent,
  type Announcement,
  addonsFile,
  announcementsFile,
  appsFile,
  type BlogPost,
  blogPostsFile,
  FREE_PLAN_ID,
  operationOf,
  type PlanContent,
  type ProductSection,
  plansFile,
  predictionsFile,
  productSectionsFile,
  type WebsiteConfig,
  websitesFile,
} from './file-schemas.ts'

export {
  type AddonContent,
  type Announcement,
  type BlogPost,
  deliveryPathProblem,
  FREE_PLAN_ID,
  operationOf,
  type PlanContent,
  type PlanFeature,
  type ProductSection,
  SOCIAL_MEDIA_IDENTIFIERS,
  type WebsiteConfig,
} from './file-schemas.ts'

/** The folder the server reads its content from unless told otherwise. */
export const CONTENT_DIR = fileURLToPath(new URL('../../content', import.meta.url))

/** Credits of the free onboarding plan when its file gives none (SPEC §9). */
export const FREE_PLAN_CREDITS = 50

/** What a dynamic app without a title, description or thumbnail shows (SPEC §9). */
export const DEFAULT_APP_TITLE = 'Untitled App'
export const DEFAULT_APP_DESCRIPTION =
  'An image tool built on Tessera transformations. Upload an image to try it.'
export const DEFAULT_APP_THUMBNAIL = '/v2/demo/t.resize(w:480,h:320)~t.grey()/samples/camera.png'

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

// ── loaded content ───────────────────────────────────────────────────────────────────────────

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
  const field: InputField = {
    type: 'string',
    title: param.title,
    'x-param': param.id,
  }
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
