import { describe, expect, it } from 'vitest'
import { docsPage, searchDocs } from './docs.server.ts'
import { extractSection, renderMarkdown, rewriteLinks, slugify } from './docs-markdown.ts'
import { DOCS_PAGES } from './docs-nav.ts'
import { openApiMarkdown } from './openapi-docs.ts'

const sources = {
  base: '/docs',
  openApi: async () => ({
    tags: [{ name: 'content', description: 'Public content.' }],
    paths: {
      '/service/public/transformation/v1.0/predictions': {
        get: {
          summary: 'Every runnable model',
          tags: ['content'],
          parameters: [{ name: 'pageNo', in: 'query', schema: { type: 'integer', minimum: 1 } }],
          responses: { '200': { description: 'The list' } },
        },
      },
    },
  }),
}

describe('documentation markdown', () => {
  it('makes GitHub anchors', () => {
    expect(slugify('Slow operations: 202')).toBe('slow-operations-202')
    expect(slugify('Files, folders and presets')).toBe('files-folders-and-presets')
  })

  it('takes a section up to the next heading of its level, ignoring # lines in code', () => {
    const doc = '# T\n\n## A\n\ntext\n\n```sh\n# not a heading\n```\n\n### A1\n\nmore\n\n## B\n\nb'
    expect(extractSection(doc, 'a', 3)).toBe(
      '### A\n\ntext\n\n```sh\n# not a heading\n```\n\n#### A1\n\nmore',
    )
    expect(extractSection(doc, undefined, undefined)?.startsWith('## A')).toBe(true)
    expect(extractSection(doc, 'missing', 2)).toBeUndefined()
  })

  it('rewrites links outside code and drops the ones it cannot place', () => {
    const out = rewriteLinks(
      '[a](api.md#x) [b](../x.ts) `[c](d.md)`\n```\n[e](api.md)\n```',
      (t) => (t.startsWith('api.md') ? `/docs/rest-api/guide${t.slice(6)}` : null),
    )
    expect(out).toBe('[a](/docs/rest-api/guide#x) b `[c](d.md)`\n```\n[e](api.md)\n```')
  })

  it('renders headings with anchors and wraps tables to scroll', () => {
    const { html, headings } = renderMarkdown('## One `x`\n\n| a |\n|---|\n| b |\n\n## One `x`')
    expect(html).toContain('<h2 id="one-x">')
    expect(html).toContain('<h2 id="one-x-1">')
    expect(html).toContain('<div class="table-scroll"><table>')
    expect(headings.map((heading) => heading.id)).toEqual(['one-x', 'one-x-1'])
  })

  it('writes the REST reference from an OpenAPI document', async () => {
    const markdown = openApiMarkdown(await sources.openApi())
    expect(markdown).toContain('## content')
    expect(markdown).toContain('### GET /service/public/transformation/v1.0/predictions')
    expect(markdown).toContain('| `pageNo` | query | integer | no | ≥ 1 |')
  })
})

describe('documentation site', () => {
  it('has every page of the sidebar, built from the repository documents', async () => {
    for (const page of DOCS_PAGES) {
      const made = await docsPage(page.path, sources)
      expect(made?.title, page.path).toBe(page.title)
      expect(made?.html.length, page.path).toBeGreaterThan(200)
    }
    const uploads = await docsPage('/uploads', sources)
    expect(uploads?.html).toContain('id="direct-upload"')
    // A link between repository documents becomes a link between site pages.
    expect(uploads?.html).toContain('href="/docs/url"')
    expect(uploads?.html).toContain('href="/docs/rest-api/guide#api-tokens"')
    // Moving from Pixelbin: the admin SDK pointed at this server.
    const migration = await docsPage('/migration', sources)
    expect(migration?.html).toContain('PixelbinConfig')
  })

  it('resolves every link target of the marketing pages (SPEC §2.7)', async () => {
    const targets = [
      '/transformations/ml/erase-bg',
      '/transformations/ml/intelligent-crop',
      '/transformations/ml/watermark-remover',
      '/transformations/basic/merge',
      '/optimizations/format/',
      '/presets',
      '/presets/using',
      '/presets/configuring',
      '/transformations',
    ]
    for (const target of targets) expect(await docsPage(target, sources), target).toBeDefined()
    expect(await docsPage('/nothing/here', sources)).toBeUndefined()
  })

  it('renders an operation page from the catalogue', async () => {
    const page = await docsPage('/transformations/basic/resize', sources)
    expect(page?.operation?.key).toBe('t.resize')
    expect(page?.html).toContain('<code>lanczos3</code>')
    expect(page?.html).toContain('This server runs it')
    const erase = await docsPage('/transformations/ml/erase-bg', sources)
    // AI operations run here too, as background jobs.
    expect(erase?.html).toContain('This server runs it</strong>, as a background job')
  })

  it('renders the REST reference, and says so when the OpenAPI document cannot be read', async () => {
    expect((await docsPage('/rest-api', sources))?.html).toContain('Every runnable model')
    const failing = { base: '/docs-x', openApi: async () => Promise.reject(new Error('down')) }
    expect((await docsPage('/rest-api', failing))?.html).toContain('could not be read')
  })

  it('finds operations and topics', () => {
    const resize = searchDocs('resize')
    expect(resize[0]?.path).toBe('/transformations/basic/resize')
    expect(searchDocs('erase background').map((hit) => hit.path)).toContain(
      '/transformations/ml/erase-bg',
    )
    expect(searchDocs('signed').map((hit) => hit.path)).toContain('/signed-urls')
    expect(searchDocs('zzzqqq')).toEqual([])
    expect(searchDocs('   ')).toEqual([])
  })
})
