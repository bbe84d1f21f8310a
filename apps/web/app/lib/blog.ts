// Recent blog posts (SPEC §3 recentBlog) from the CMS's Strapi-shaped blog collection.
import type { HttpClient } from './http-client.ts'
import { joinUrl, type RuntimeConfig } from './runtime-config.ts'

/** How many posts the home page shows. */
export const RECENT_POSTS = 3

export interface BlogPost {
  title: string
  slug: string
  excerpt: string
  url: string
  publishedAt: string
  cover?: { url: string; alt: string }
  author?: { name: string; role?: string }
}

/** One entry of `GET {cms}/api/blogs` as Strapi v4 answers it. */
interface StrapiBlogEntry {
  id: number
  attributes: {
    title?: string
    slug?: string
    excerpt?: string
    url?: string
    publishedAt?: string
    cover?: { data?: { attributes?: { url?: string; alternativeText?: string } } | null }
    author?: { name?: string; role?: string } | null
  }
}

/** The posts of a CMS answer; entries without a title, slug or date are left out. */
export function parseBlogPosts(answer: unknown): BlogPost[] {
  const data = (answer as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) throw new Error('The CMS answered no data list')
  const posts: BlogPost[] = []
  for (const entry of data as StrapiBlogEntry[]) {
    const a = entry?.attributes
    if (a?.title === undefined || a.slug === undefined || a.publishedAt === undefined) continue
    if (Number.isNaN(Date.parse(a.publishedAt))) continue
    const cover = a.cover?.data?.attributes
    posts.push({
      title: a.title,
      slug: a.slug,
      excerpt: a.excerpt ?? '',
      url: a.url ?? '',
      publishedAt: a.publishedAt,
      ...(cover?.url === undefined
        ? {}
        : { cover: { url: cover.url, alt: cover.alternativeText ?? '' } }),
      ...(a.author?.name === undefined
        ? {}
        : {
            author: {
              name: a.author.name,
              ...(a.author.role === undefined ? {} : { role: a.author.role }),
            },
          }),
    })
  }
  return posts
}

/** Where a post links: the configured blog plus the slug, else the URL the CMS gives. */
export function postUrl(config: Pick<RuntimeConfig, 'blogUrl'>, post: BlogPost): string {
  if (config.blogUrl !== '') return joinUrl(config.blogUrl, `/${encodeURIComponent(post.slug)}`)
  return post.url
}

// One formatter for every call: building an Intl.DateTimeFormat costs more than the format.
const POST_DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
})

/** "10 June 2025" in English, the same on the server and in every browser time zone. */
export function formatPostDate(iso: string): string {
  return POST_DATE.format(new Date(iso))
}

/**
 * The newest posts, newest first. Rejects on any failure: the home page then leaves the section
 * out, as it does with product sections (SPEC §8).
 */
export async function getRecentPosts(
  client: HttpClient,
  config: RuntimeConfig,
  count = RECENT_POSTS,
): Promise<BlogPost[]> {
  const query = `sort=publishedAt:desc&pagination[pageSize]=${count}&populate=*`
  const answer = await client.request<unknown>(joinUrl(config.cmsUrl, `/api/blogs?${query}`))
  return parseBlogPosts(answer)
    .sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt))
    .slice(0, count)
}
