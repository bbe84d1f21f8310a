// The Strapi-shaped CMS answers (SPEC §7.2: `data[].attributes`, `meta.pagination`) of the
// website's content collections: `populate`, `filters[field]`, `sort` and `pagination[…]` read
// the way Strapi reads them, over the entries loaded from the content files.
import { z } from 'zod'
import { MAX_PAGE_NO, MAX_PAGE_SIZE } from '../http/paging.ts'
import {
  invalidQuery,
  parseQuery,
  type QueryParams,
  singleValue,
  wholeNumber,
} from '../http/query.ts'
import type { BlogPost, ProductSection, WebsiteConfig } from './content.ts'

/** Page size of CMS collections when the client gives none (Strapi's default). */
export const CMS_PAGE_SIZE = 25

export interface StrapiCollection<T> {
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

/** The answer to a CMS call on `collection` with the request's parameters. */
export function strapiAnswer<T>(params: QueryParams, collection: StrapiCollection<T>) {
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

export function productSectionsCollection(
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

export function websitesCollection(
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
export function blogPostsCollection(
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
                attributes: {
                  url: absolute(post.cover.image),
                  alternativeText: post.cover.alt,
                },
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
