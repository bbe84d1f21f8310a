import { describe, expect, it } from 'vitest'
import { formatPostDate, getRecentPosts, parseBlogPosts, postUrl } from './blog.ts'
import type { HttpClient } from './http-client.ts'
import { DEFAULT_RUNTIME_CONFIG } from './runtime-config.ts'

const entry = (id: number, publishedAt: string, extra: Record<string, unknown> = {}) => ({
  id,
  attributes: {
    title: `Post ${id}`,
    slug: `post-${id}`,
    excerpt: 'An excerpt.',
    url: `https://blog.example/post-${id}`,
    publishedAt,
    ...extra,
  },
})

function clientAnswering(answer: unknown, seen: string[] = []): HttpClient {
  return {
    async request<T>(url: string) {
      seen.push(url)
      if (answer instanceof Error) throw answer
      return answer as T
    },
  }
}

describe('parseBlogPosts', () => {
  it('reads the Strapi media cover and the author component', () => {
    const [post] = parseBlogPosts({
      data: [
        entry(1, '2025-06-10T09:00:00.000Z', {
          cover: { data: { id: 1, attributes: { url: 'https://x/a.png', alternativeText: 'A' } } },
          author: { id: 1, name: 'Maya', role: 'Engineer' },
        }),
      ],
    })
    expect(post).toEqual({
      title: 'Post 1',
      slug: 'post-1',
      excerpt: 'An excerpt.',
      url: 'https://blog.example/post-1',
      publishedAt: '2025-06-10T09:00:00.000Z',
      cover: { url: 'https://x/a.png', alt: 'A' },
      author: { name: 'Maya', role: 'Engineer' },
    })
  })

  it('leaves out entries without a title, slug or valid date, and covers with no data', () => {
    const posts = parseBlogPosts({
      data: [
        entry(1, 'not a date'),
        { id: 2, attributes: { slug: 'x', publishedAt: '2025-01-01T00:00:00Z' } },
        entry(3, '2025-01-01T00:00:00Z', { cover: { data: null }, author: null }),
      ],
    })
    expect(posts.map((post) => post.slug)).toEqual(['post-3'])
    expect(posts[0]?.cover).toBeUndefined()
    expect(posts[0]?.author).toBeUndefined()
  })

  it('throws on an answer without a data list', () => {
    expect(() => parseBlogPosts({ items: [] })).toThrow()
    expect(() => parseBlogPosts(null)).toThrow()
  })
})

describe('getRecentPosts', () => {
  it('asks the CMS for the newest posts with their covers and keeps them newest first', async () => {
    const seen: string[] = []
    const client = clientAnswering(
      {
        data: [
          entry(1, '2025-01-01T00:00:00Z'),
          entry(2, '2025-03-01T00:00:00Z'),
          entry(3, '2025-02-01T00:00:00Z'),
        ],
      },
      seen,
    )
    const posts = await getRecentPosts(client, DEFAULT_RUNTIME_CONFIG, 2)
    expect(seen).toEqual(['/cms/api/blogs?sort=publishedAt:desc&pagination[pageSize]=2&populate=*'])
    expect(posts.map((post) => post.slug)).toEqual(['post-2', 'post-3'])
  })

  it('rejects when the CMS fails, so the page can hide the section', async () => {
    await expect(
      getRecentPosts(clientAnswering(new Error('503')), DEFAULT_RUNTIME_CONFIG),
    ).rejects.toThrow('503')
  })
})

describe('postUrl and formatPostDate', () => {
  const post = parseBlogPosts({ data: [entry(7, '2025-06-10T23:30:00Z')] })[0]
  it('links to the configured blog plus the slug, else to the URL the CMS gives', () => {
    if (post === undefined) throw new Error('no post')
    expect(postUrl({ blogUrl: 'https://blog.tessera.dev/' }, post)).toBe(
      'https://blog.tessera.dev/post-7',
    )
    expect(postUrl({ blogUrl: '' }, post)).toBe('https://blog.example/post-7')
  })

  it('formats the date in UTC, the same on the server and in the browser', () => {
    expect(formatPostDate('2025-06-10T23:30:00Z')).toBe('10 June 2025')
  })
})
