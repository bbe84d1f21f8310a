// The declared calls of the public content: dynamic apps, the predictions catalogue, the
// Strapi-shaped CMS and announcements. Examples name real entries of the content.
import { z } from 'zod'
import {
  type ApiPart,
  badQuery,
  cached,
  calls,
  dateTime,
  failure,
  formatted,
  pagedList,
  ref,
} from '../http/openapi-kit.ts'
import { CMS_PAGE_SIZE } from './cms.ts'
import { SOCIAL_MEDIA_IDENTIFIERS } from './content.ts'

import { ANNOUNCEMENTS, APPS, CMS, TRANSFORMATION } from './paths.ts'
import { appsQuery } from './requests.ts'

/** Strapi's page parameters of the CMS lists; `size` adds to the page size's metadata. */
const cmsPaging = (size?: { example: number }) => {
  const pageSize = z.int().min(1).max(100).meta({ default: CMS_PAGE_SIZE })
  return {
    'pagination[page]': z.int().min(1).optional(),
    'pagination[pageSize]': (size === undefined ? pageSize : pageSize.meta(size)).optional(),
  }
}

const apps = calls(APPS, 'apps')
const predictions = calls(TRANSFORMATION, 'predictions')
const cms = calls(CMS, 'cms')
const website = calls('', 'website')

/** The public content calls; examples name real entries of the content. */
export function contentOpenApi(options: { appSlug: string; predictionId: string }): ApiPart {
  return {
    tags: [
      { name: 'apps', description: 'Dynamic apps: the AI tools the website lists' },
      { name: 'predictions', description: 'Runnable models and their input schemas' },
      { name: 'cms', description: 'Strapi-shaped website content' },
      { name: 'website', description: 'Website calls on the main domain' },
    ],
    schemas: {
      DynamicApp: z.object({
        _id: z.string().describe('Same as slug'),
        slug: z.string(),
        tags: z.array(z.string()),
        config: z.object({
          title: z.string().describe("Defaults to 'Untitled App'"),
          description: z.string().describe('Defaults to a generic description'),
          thumbnailURL: formatted('uri').describe('Defaults to a demo image'),
          isFeatured: z.boolean(),
          url: z.string().describe('Where the app lives: a site path or an absolute URL'),
          transformation: z
            .string()
            .describe('The delivery-URL pattern the app runs, e.g. erase.bg(i:general)'),
          operations: z.array(z.string().describe('plugin.method')),
        }),
        createdAt: dateTime,
        updatedAt: dateTime,
      }),
      DynamicAppList: pagedList('DynamicApp'),
      Prediction: z.object({
        _id: z.string(),
        id: z.string().describe('e.g. erase_bg'),
        name: z.string().describe('Same as id'),
        displayName: z.string(),
        description: z.string(),
        operation: z.string().describe('The catalogue operation it runs, plugin.method'),
        plugin: z.string(),
        method: z.string(),
        runnable: z.boolean().describe("Whether this server's engine runs it"),
        slow: z.boolean().describe('Runs as a background job (delivery answers 202)'),
        tags: z.array(z.string()),
        thumbnailURL: formatted('uri').optional(),
        bannerImage: z
          .string()
          .describe("The thumbnail again, under Pixelbin's name ('' when there is none)"),
      }),
      PredictionList: z
        .array(ref('Prediction'))
        .describe("Every prediction: a plain array, as Pixelbin's predictions.list answers"),
      PredictionSchema: z
        .object({
          id: z.string(),
          name: z.string().describe('Same as id, e.g. erase_bg'),
          displayName: z.string(),
          description: z.string(),
          operation: z.string(),
          input: z
            .record(z.string(), z.unknown())
            .describe("The input's JSON Schema under Pixelbin's name (the same as schema)"),
          schema: z
            .record(z.string(), z.unknown())
            .describe(
              'JSON Schema of the input: a required image URL, then the parameters of the operation by name (type, title, default, enum, minimum, maximum; x-param is the key in delivery URLs)',
            ),
          apiDetails: z.object({
            method: z.string(),
            urlTemplate: z.string(),
            example: formatted('uri').optional(),
            runnable: z.boolean(),
            async: z.boolean(),
            notes: z.string().optional(),
          }),
        })
        .describe('A prediction with the JSON Schema of its input and how to call it'),
      StrapiMeta: z.object({
        pagination: z.object({
          page: z.int(),
          pageSize: z.int(),
          pageCount: z.int(),
          total: z.int(),
        }),
      }),
      ProductSectionList: z.object({
        data: z.array(
          z.object({
            id: z.int(),
            attributes: z.object({
              sectionId: z.string(),
              header: z
                .object({ id: z.int(), title: z.string(), description: z.string() })
                .optional(),
              cards: z
                .array(
                  z.object({
                    id: z.int(),
                    title: z.string(),
                    description: z.string(),
                    image: formatted('uri'),
                    link: z.string().describe('Path into the documentation site'),
                  }),
                )
                .optional(),
            }),
          }),
        ),
        meta: ref('StrapiMeta'),
      }),
      WebsiteList: z.object({
        data: z.array(
          z.object({
            id: z.int(),
            attributes: z.object({
              searchTag: z.string(),
              lastUpdated: dateTime,
              socialMediaLinks: z
                .array(
                  z.object({
                    id: z.int(),
                    identifier: z.enum(SOCIAL_MEDIA_IDENTIFIERS),
                    link: formatted('uri'),
                  }),
                )
                .optional(),
              footerBadgeList: z
                .array(z.object({ id: z.int(), badgeName: z.string(), badgeUrl: formatted('uri') }))
                .optional(),
            }),
          }),
        ),
        meta: ref('StrapiMeta'),
      }),
      BlogList: z.object({
        data: z.array(
          z.object({
            id: z.int(),
            attributes: z.object({
              title: z.string(),
              slug: z.string(),
              excerpt: z.string(),
              url: formatted('uri').describe('The post on the blog'),
              publishedAt: dateTime,
              cover: z
                .object({
                  data: z.object({
                    id: z.int(),
                    attributes: z.object({ url: formatted('uri'), alternativeText: z.string() }),
                  }),
                })
                .optional(),
              author: z
                .object({ id: z.int(), name: z.string(), role: z.string().optional() })
                .optional(),
            }),
          }),
        ),
        meta: ref('StrapiMeta'),
      }),
      AnnouncementList: z.object({
        items: z.array(
          z.object({
            id: z.int(),
            title: z.string(),
            description: z.string().optional(),
            link: z.string().optional(),
            linkText: z.string().optional(),
            startsAt: dateTime,
            endsAt: dateTime.optional(),
          }),
        ),
      }),
    },
    routes: [
      apps.get('/dynamicApps', 'listDynamicApps', {
        summary: 'List dynamic apps (AI tools)',
        query: appsQuery,
        responses: {
          '200': cached({ description: 'One page of apps', schema: ref('DynamicAppList') }),
          '400': badQuery,
        },
      }),
      apps.get('/dynamicApps/{slug}', 'getDynamicApp', {
        summary: 'One dynamic app',
        params: { slug: z.string().meta({ example: options.appSlug }) },
        responses: {
          '200': cached({ description: 'The app', schema: ref('DynamicApp') }),
          '404': failure('No app has this slug (code not_found)'),
        },
      }),
      predictions.get('/predictions', 'listPredictions', {
        summary: 'List the runnable models',
        responses: {
          '200': cached({ description: 'Every prediction', schema: ref('PredictionList') }),
        },
      }),
      predictions.get('/predictions/schema/{id}', 'getPredictionSchema', {
        summary: 'A prediction with its input schema',
        params: { id: z.string().meta({ example: options.predictionId }) },
        responses: {
          '200': cached({
            description: 'The prediction and its schema',
            schema: ref('PredictionSchema'),
          }),
          '404': {
            description: 'No prediction has this id; the body is an empty object (SPEC §7.2)',
            schema: z.record(z.string(), z.unknown()).meta({ maxProperties: 0 }),
          },
        },
      }),
      cms.get('/product-sections', 'listProductSections', {
        summary: 'Marketing use-case sections (Strapi-shaped)',
        description:
          'Components (header, cards) are present only when populate asks for them, as in Strapi.',
        query: z.object({
          populate: z
            .string()
            .meta({ example: '*' })
            .describe('* or a comma list of header, cards (also populate[0]=…)')
            .optional(),
          'filters[sectionId]': z.string().optional(),
          ...cmsPaging(),
        }),
        responses: {
          '200': cached({ description: 'The sections', schema: ref('ProductSectionList') }),
          '400': badQuery,
        },
      }),
      cms.get('/websites', 'listWebsites', {
        summary: 'Site configuration: social links and footer badges (Strapi-shaped)',
        query: z.object({
          'filters[searchTag]': z
            .string()
            .meta({ example: 'tessera' })
            .describe('Exact match (also filters[searchTag][$eq]); unknown tags give no data')
            .optional(),
          populate: z
            .string()
            .meta({ example: 'socialMediaLinks' })
            .describe('Repeatable: socialMediaLinks, footerBadgeList, or *')
            .optional(),
          ...cmsPaging(),
        }),
        responses: {
          '200': cached({
            description: 'The matching site configurations',
            schema: ref('WebsiteList'),
          }),
          '400': badQuery,
        },
      }),
      cms.get('/blogs', 'listBlogPosts', {
        summary: 'Blog posts, e.g. the newest few for the home page (Strapi-shaped)',
        description:
          'File order unless sort is given. The cover (a media field) and the author (a component) are present only when populate asks for them, as in Strapi.',
        query: z.object({
          sort: z
            .string()
            .meta({ example: 'publishedAt:desc' })
            .describe(
              'field[:asc|desc], comma list or sort[0]=…; fields publishedAt, title, id (ascending when no direction is given)',
            )
            .optional(),
          populate: z
            .string()
            .meta({ example: '*' })
            .describe('* or a comma list of cover, author (also populate[0]=…)')
            .optional(),
          'filters[slug]': z.string().optional(),
          ...cmsPaging({ example: 3 }),
        }),
        responses: {
          '200': cached({ description: 'The posts', schema: ref('BlogList') }),
          '400': badQuery,
        },
      }),
      website.get(ANNOUNCEMENTS, 'listAnnouncements', {
        summary: 'Current announcements, newest first',
        responses: {
          '200': cached({
            description: 'Announcements shown now',
            schema: ref('AnnouncementList'),
          }),
        },
      }),
    ],
  }
}
