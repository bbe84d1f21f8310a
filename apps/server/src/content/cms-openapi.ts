// The OpenAPI part of the Strapi-shaped CMS calls (sections, site configuration, blog posts),
// spread by `openapi.ts` into the content part where the document has always had them.
import {
  arrayOf,
  badQuery,
  cached,
  dateTime,
  int,
  type JsonSchema,
  json,
  type OpenApiParameter,
  type OpenApiPathItem,
  object,
  ref,
  str,
} from '../http/openapi-kit.ts'
import { CMS_PAGE_SIZE } from './cms.ts'
import { SOCIAL_MEDIA_IDENTIFIERS } from './content.ts'
import { CMS } from './paths.ts'

/** Strapi's paging parameters, shared by every CMS collection. */
const STRAPI_PAGING: OpenApiParameter[] = [
  { name: 'pagination[page]', in: 'query', schema: { type: 'integer', minimum: 1 } },
  {
    name: 'pagination[pageSize]',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: CMS_PAGE_SIZE },
  },
]

/** The schemas of the CMS answers. */
export const CMS_SCHEMAS: Record<string, JsonSchema> = {
  StrapiMeta: object({
    pagination: object({ page: int(), pageSize: int(), pageCount: int(), total: int() }),
  }),
  ProductSectionList: object({
    data: arrayOf(
      object({
        id: int(),
        attributes: object(
          {
            sectionId: str(),
            header: object({ id: int(), title: str(), description: str() }),
            cards: arrayOf(
              object({
                id: int(),
                title: str(),
                description: str(),
                image: { type: 'string', format: 'uri' },
                link: str('Path into the documentation site'),
              }),
            ),
          },
          ['sectionId'],
        ),
      }),
    ),
    meta: ref('StrapiMeta'),
  }),
  WebsiteList: object({
    data: arrayOf(
      object({
        id: int(),
        attributes: object(
          {
            searchTag: str(),
            lastUpdated: dateTime,
            socialMediaLinks: arrayOf(
              object({
                id: int(),
                identifier: { type: 'string', enum: SOCIAL_MEDIA_IDENTIFIERS },
                link: { type: 'string', format: 'uri' },
              }),
            ),
            footerBadgeList: arrayOf(
              object({
                id: int(),
                badgeName: str(),
                badgeUrl: { type: 'string', format: 'uri' },
              }),
            ),
          },
          ['searchTag', 'lastUpdated'],
        ),
      }),
    ),
    meta: ref('StrapiMeta'),
  }),
  BlogList: object({
    data: arrayOf(
      object({
        id: int(),
        attributes: object(
          {
            title: str(),
            slug: str(),
            excerpt: str(),
            url: { type: 'string', format: 'uri', description: 'The post on the blog' },
            publishedAt: dateTime,
            cover: object({
              data: object({
                id: int(),
                attributes: object({
                  url: { type: 'string', format: 'uri' },
                  alternativeText: str(),
                }),
              }),
            }),
            author: object({ id: int(), name: str(), role: str() }, ['id', 'name']),
          },
          ['title', 'slug', 'excerpt', 'url', 'publishedAt'],
        ),
      }),
    ),
    meta: ref('StrapiMeta'),
  }),
}

/** The CMS calls. */
export const CMS_PATHS: Record<string, OpenApiPathItem> = {
  [`${CMS}/product-sections`]: {
    get: {
      operationId: 'listProductSections',
      summary: 'Marketing use-case sections (Strapi-shaped)',
      description:
        'Components (header, cards) are present only when populate asks for them, as in Strapi.',
      tags: ['cms'],
      parameters: [
        {
          name: 'populate',
          in: 'query',
          description: '* or a comma list of header, cards (also populate[0]=…)',
          schema: str(),
          example: '*',
        },
        { name: 'filters[sectionId]', in: 'query', schema: str() },
        ...STRAPI_PAGING,
      ],
      responses: {
        '200': cached(json(ref('ProductSectionList'), 'The sections')),
        '400': badQuery,
      },
    },
  },
  [`${CMS}/websites`]: {
    get: {
      operationId: 'listWebsites',
      summary: 'Site configuration: social links and footer badges (Strapi-shaped)',
      tags: ['cms'],
      parameters: [
        {
          name: 'filters[searchTag]',
          in: 'query',
          description: 'Exact match (also filters[searchTag][$eq]); unknown tags give no data',
          schema: str(),
          example: 'tessera',
        },
        {
          name: 'populate',
          in: 'query',
          description: 'Repeatable: socialMediaLinks, footerBadgeList, or *',
          schema: str(),
          example: 'socialMediaLinks',
        },
        ...STRAPI_PAGING,
      ],
      responses: {
        '200': cached(json(ref('WebsiteList'), 'The matching site configurations')),
        '400': badQuery,
      },
    },
  },
  [`${CMS}/blogs`]: {
    get: {
      operationId: 'listBlogPosts',
      summary: 'Blog posts, e.g. the newest few for the home page (Strapi-shaped)',
      description:
        'File order unless sort is given. The cover (a media field) and the author (a component) are present only when populate asks for them, as in Strapi.',
      tags: ['cms'],
      parameters: [
        {
          name: 'sort',
          in: 'query',
          description:
            'field[:asc|desc], comma list or sort[0]=…; fields publishedAt, title, id (ascending when no direction is given)',
          schema: str(),
          example: 'publishedAt:desc',
        },
        {
          name: 'populate',
          in: 'query',
          description: '* or a comma list of cover, author (also populate[0]=…)',
          schema: str(),
          example: '*',
        },
        { name: 'filters[slug]', in: 'query', schema: str() },
        { name: 'pagination[page]', in: 'query', schema: { type: 'integer', minimum: 1 } },
        {
          name: 'pagination[pageSize]',
          in: 'query',
          schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
          example: 3,
        },
      ],
      responses: {
        '200': cached(json(ref('BlogList'), 'The posts')),
        '400': badQuery,
      },
    },
  },
}
