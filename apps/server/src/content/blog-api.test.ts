// The blog collection of the CMS (SPEC §3 recentBlog) through the real server, on PGlite and
// PostgreSQL: the Strapi answer shape, sort, populate, filters, paging, and bad or hostile input.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { CONTENT_DIR, CONTENT_FILES, ContentError, loadContent } from './content.ts'

const BLOGS = '/cms/api/blogs'
const HOME_QUERY = 'sort=publishedAt:desc&pagination[pageSize]=3&populate=*'

interface BlogList {
  data: {
    id: number
    attributes: {
      title: string
      slug: string
      excerpt: string
      url: string
      publishedAt: string
      cover?: { data: { id: number; attributes: { url: string; alternativeText: string } } }
      author?: { id: number; name: string; role?: string }
    }
  }[]
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } }
}

const content = await loadContent()
const newestFirst = [...content.blogPosts].sort(
  (a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt),
)
const slugs = (body: BlogList) => body.data.map((entry) => entry.attributes.slug)

describe.each<TestDatabaseKind>(testDatabases('server'))('CMS blog posts on %s', (kind) => {
  let getJson: <T>(path: string) => Promise<{ status: number; body: T; response: Response }>

  const suite = useTestServer(kind)

  beforeAll(async () => {
    getJson = async <T>(path: string) => {
      const response = await fetch(`${suite.server.url}${path}`)
      return { status: response.status, body: (await response.json()) as T, response }
    }
  })

  it('ships between 3 and 6 posts with distinct dates', () => {
    expect(content.blogPosts.length).toBeGreaterThanOrEqual(3)
    expect(content.blogPosts.length).toBeLessThanOrEqual(6)
    expect(new Set(content.blogPosts.map((post) => post.publishedAt)).size).toBe(
      content.blogPosts.length,
    )
  })

  it('answers the newest posts first, as the home page asks for them', async () => {
    const { status, body, response } = await getJson<BlogList>(`${BLOGS}?${HOME_QUERY}`)
    expect(status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=60')
    expect(slugs(body)).toEqual(newestFirst.slice(0, 3).map((post) => post.slug))
    expect(body.meta.pagination).toEqual({
      page: 1,
      pageSize: 3,
      pageCount: Math.ceil(content.blogPosts.length / 3),
      total: content.blogPosts.length,
    })
    const dates = body.data.map((entry) => Date.parse(entry.attributes.publishedAt))
    expect(dates).toEqual([...dates].sort((a, b) => b - a))
  })

  it('answers each post with its cover on our delivery, its author and its blog URL', async () => {
    const { body } = await getJson<BlogList>(`${BLOGS}?populate=*&pagination[pageSize]=100`)
    expect(body.data).toHaveLength(content.blogPosts.length)
    for (const { id, attributes } of body.data) {
      expect(typeof id).toBe('number')
      expect(attributes.title.length).toBeGreaterThan(0)
      expect(attributes.excerpt.length).toBeGreaterThan(40)
      expect(attributes.url).toMatch(new RegExp(`^https?://.+/${attributes.slug}$`))
      expect(attributes.author?.name.length).toBeGreaterThan(0)
      const cover = attributes.cover?.data.attributes
      expect(cover?.alternativeText.length).toBeGreaterThan(0)
      expect(cover?.url.startsWith(`${suite.server.config.publicUrl}/v2/demo/`)).toBe(true)
      const path = (cover?.url ?? '').slice(suite.server.config.publicUrl.length)
      const image = await fetch(`${suite.server.url}${path}`)
      expect(image.status, cover?.url).toBe(200)
      expect(image.headers.get('content-type')).toMatch(/^image\//)
      await image.arrayBuffer()
    }
  })

  it('leaves the cover and the author out unless populate asks for them, as Strapi does', async () => {
    const bare = await getJson<BlogList>(BLOGS)
    const first = bare.body.data[0]?.attributes
    expect(first?.cover).toBeUndefined()
    expect(first?.author).toBeUndefined()
    expect(Object.keys(first ?? {}).sort()).toEqual([
      'excerpt',
      'publishedAt',
      'slug',
      'title',
      'url',
    ])
    const coverOnly = await getJson<BlogList>(`${BLOGS}?populate=cover`)
    expect(coverOnly.body.data[0]?.attributes.cover).toBeDefined()
    expect(coverOnly.body.data[0]?.attributes.author).toBeUndefined()
    const indexed = await getJson<BlogList>(`${BLOGS}?populate[0]=cover&populate[1]=author`)
    expect(indexed.body).toEqual((await getJson<BlogList>(`${BLOGS}?populate=*`)).body)
  })

  it('keeps file order without sort and sorts by the fields and directions Strapi takes', async () => {
    const fileOrder = content.blogPosts.map((post) => post.slug)
    expect(slugs((await getJson<BlogList>(BLOGS)).body)).toEqual(fileOrder)
    const oldestFirst = [...newestFirst].reverse().map((post) => post.slug)
    expect(slugs((await getJson<BlogList>(`${BLOGS}?sort=publishedAt`)).body)).toEqual(oldestFirst)
    expect(slugs((await getJson<BlogList>(`${BLOGS}?sort=publishedAt:ASC`)).body)).toEqual(
      oldestFirst,
    )
    expect(slugs((await getJson<BlogList>(`${BLOGS}?sort[0]=publishedAt:desc`)).body)).toEqual(
      newestFirst.map((post) => post.slug),
    )
    const byTitle = [...content.blogPosts]
      .sort((a, b) => (a.title.toLowerCase() < b.title.toLowerCase() ? -1 : 1))
      .map((post) => post.slug)
    expect(slugs((await getJson<BlogList>(`${BLOGS}?sort=title:asc`)).body)).toEqual(byTitle)
    expect(slugs((await getJson<BlogList>(`${BLOGS}?sort=id:desc`)).body)).toEqual(
      [...fileOrder].reverse(),
    )
  })

  it('pages through the sorted posts without gaps or repeats', async () => {
    const seen: string[] = []
    for (let page = 1; page <= 3; page++) {
      const { body } = await getJson<BlogList>(
        `${BLOGS}?sort=publishedAt:desc&pagination[page]=${page}&pagination[pageSize]=2`,
      )
      expect(body.meta.pagination.page).toBe(page)
      seen.push(...slugs(body))
    }
    expect(seen).toEqual(newestFirst.map((post) => post.slug))
  })

  it('finds one post by slug and answers empty data for an unknown or hostile one', async () => {
    const wanted = content.blogPosts[1]?.slug ?? ''
    const one = await getJson<BlogList>(`${BLOGS}?filters[slug][$eq]=${wanted}&populate=*`)
    expect(slugs(one.body)).toEqual([wanted])
    for (const slug of ['no-such-post', wanted.toUpperCase(), "' OR '1'='1", '%', '*']) {
      const { status, body } = await getJson<BlogList>(
        `${BLOGS}?filters[slug]=${encodeURIComponent(slug)}`,
      )
      expect(status, slug).toBe(200)
      expect(body.data, slug).toEqual([])
      expect(body.meta.pagination.total).toBe(0)
    }
  })

  it.each([
    ['sort=password:desc', 'not a field of blogs'],
    ['sort=publishedAt:sideways', 'must be asc or desc'],
    ['sort=publishedAt:desc:extra', 'not a field of blogs'],
    ['sort=__proto__', 'not a field of blogs'],
    ['sort=constructor:asc', 'not a field of blogs'],
    ['sort=title,id,publishedAt,slug', 'at most 3'],
    ['sort[field]=title', 'sort parameter'],
    ['populate=secrets', 'populate'],
    ['populate=cover,body', 'populate'],
    ['populate=header', 'populate'],
    ['filters[title]=x', 'filter'],
    ['filters[slug][$contains]=x', 'filter'],
    ['filters[slug]=a&filters[slug]=b', 'more than once'],
    ['pagination[pageSize]=0', 'pagination[pageSize]'],
    ['pagination[pageSize]=101', 'pagination[pageSize]'],
    ['pagination[pageSize]=three', 'pagination[pageSize]'],
    ['pagination[page]=-1', 'pagination[page]'],
    ['pagination[pageSize]=3&pagination[pageSize]=4', 'more than once'],
    [`sort=${'x'.repeat(300)}`, 'longer than 256'],
    ['sort=publishedAt%00', 'control characters'],
  ])('refuses ?%s with 400 invalid_query', async (query, mentions) => {
    const { status, body, response } = await getJson<{ code: string; message: string }>(
      `${BLOGS}?${query}`,
    )
    expect(status).toBe(400)
    expect(body.code).toBe('invalid_query')
    expect(body.message).toContain(mentions)
    expect(response.headers.get('content-type')).toContain('application/json')
  })

  it('answers hostile text in every query field with 200 or 400, never an error', async () => {
    const hostile = ["' OR 1=1 --", '%', '_', '$1', '{x}', '../../etc/passwd', '<script>', ':']
    for (const name of ['sort', 'populate', 'filters[slug]', 'pagination[page]']) {
      for (const text of hostile) {
        const url = `${BLOGS}?${encodeURIComponent(name)}=${encodeURIComponent(text)}`
        const { status, body } = await getJson<{ code?: string; data?: unknown[] }>(url)
        expect([200, 400], url).toContain(status)
        if (status === 400) expect(body.code, url).toBe('invalid_query')
        else expect(body.data, url).toEqual([])
      }
    }
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
  })
})

describe('the blog content file', () => {
  type Post = Record<string, unknown>
  async function loadWith(edit: (posts: Post[]) => unknown) {
    const dir = await mkdtemp(join(tmpdir(), 'tessera-blog-'))
    try {
      await cp(CONTENT_DIR, dir, { recursive: true })
      const path = join(dir, CONTENT_FILES.blogPosts)
      const posts = JSON.parse(await readFile(path, 'utf8')) as Post[]
      await writeFile(path, JSON.stringify(edit(posts)))
      return await loadContent(dir).then(
        () => undefined,
        (error: unknown) => error,
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  it.each<[string, (posts: Post[]) => unknown, string]>([
    [
      'a url that is not the blog base plus the slug',
      (posts) =>
        posts.map((post, index) =>
          index === 0 ? { ...post, url: 'https://blog.example/other' } : post,
        ),
      'url must end with /{slug}',
    ],
    ['a duplicate slug', (posts) => [...posts, { ...posts[0], id: 99 }], 'duplicate slug'],
    [
      'a cover that is not a delivery path',
      (posts) =>
        posts.map((post) => ({ ...post, cover: { image: 'https://cdn.example/a.png', alt: 'a' } })),
      'delivery path',
    ],
    ['a misspelt field', (posts) => posts.map((post) => ({ ...post, exerpt: 'x' })), 'exerpt'],
    [
      'a date that is not ISO 8601',
      (posts) => posts.map((post) => ({ ...post, publishedAt: 'last Tuesday' })),
      'ISO 8601',
    ],
  ])('stops the server on %s, naming the file', async (_, edit, mentions) => {
    const error = await loadWith(edit)
    expect(error).toBeInstanceOf(ContentError)
    expect((error as ContentError).message).toContain(CONTENT_FILES.blogPosts)
    expect((error as ContentError).message).toContain(mentions)
  })
})
