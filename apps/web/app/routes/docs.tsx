// The documentation site (`/docs` and every page under it): Markdown rendered on the server, a
// sidebar, a contents list, and a search that works without JavaScript (`/docs/search?q=`).

import { CATALOGUE, PUBLIC_API_PATHS } from '@tessera/url'
import { data, Link } from 'react-router'
import { SearchField } from '../components/form-field.tsx'
import { LiveImage } from '../components/live-image.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { serverApi } from '../lib/api.server.ts'
import { docsPage, searchDocs } from '../lib/docs.server.ts'
import { DOCS_GROUPS, DOCS_PAGES } from '../lib/docs-nav.ts'
import type { OpenApiDocument } from '../lib/openapi-docs.ts'
import { exampleUrl, isVideoOnly, playgroundLink } from '../lib/operation-docs.ts'
import { joinUrl } from '../lib/runtime-config.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/docs.ts'
import './docs.css'

/** The site's own documentation lives here whatever WEB_DOCS_URL says. */
const BASE = '/docs'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: args.loaderData?.title ?? 'Documentation',
    description: args.loaderData?.description ?? 'Tessera documentation.',
  })

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const path = `/${params['*'] ?? ''}`.replace(/\/+$/, '')
  if (path === '/search') {
    const query = (url.searchParams.get('q') ?? '').trim().slice(0, 200)
    return {
      kind: 'search' as const,
      path,
      title: query === '' ? 'Search' : `Search: ${query}`,
      description: 'Search the Tessera documentation.',
      query,
      hits: searchDocs(query).map((hit) => ({ ...hit, href: `${BASE}${hit.path}` })),
    }
  }
  const api = serverApi(request, context)
  const page = await docsPage(path, {
    base: BASE,
    openApi: () =>
      api.client.request<OpenApiDocument>(joinUrl(api.config.apiUrl, PUBLIC_API_PATHS.openapi)),
  })
  if (page === undefined) throw data(null, { status: 404 })
  let example: {
    url: string
    playground: string
    slow: boolean
    runnable: boolean
    videoOnly: boolean
  } | null = null
  if (page.operation !== null) {
    const spec = CATALOGUE.getOperation(page.operation.plugin, page.operation.method)
    const delivery = api.config.deliveryUrl === '' ? url.origin : api.config.deliveryUrl
    if (spec !== undefined) {
      const url = exampleUrl(spec, delivery)
      example = {
        url,
        playground: playgroundLink(url),
        slow: spec.slow,
        runnable: spec.runnable,
        videoOnly: isVideoOnly(spec),
      }
    }
  }
  return { kind: 'page' as const, ...page, query: '', example }
}

function Sidebar({ current }: { current: string }) {
  const inTransformations = current.startsWith('/transformations')
  return (
    <nav className="docs-nav" aria-label="Documentation">
      {DOCS_GROUPS.map((group) => (
        <div key={group} className="docs-nav-group">
          <p className="docs-nav-title">{group}</p>
          <ul>
            {DOCS_PAGES.filter((page) => page.group === group).map((page) => (
              <li key={page.path}>
                <Link
                  to={`${BASE}${page.path}`}
                  aria-current={
                    page.path === current || (page.path === '/transformations' && inTransformations)
                      ? 'page'
                      : undefined
                  }
                >
                  {page.title}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  )
}

function SearchForm({ query }: { query: string }) {
  return (
    <search className="docs-search">
      <form action={`${BASE}/search`} method="get">
        <SearchField
          id="docs-q"
          label="Search the documentation"
          name="q"
          className="search-input"
          placeholder="Search the docs (resize, presets, tokens…)"
          defaultValue={query}
          data-testid="docs-search-input"
        />
        <button className="button is-small is-primary" type="submit">
          Search
        </button>
      </form>
    </search>
  )
}

export default function Docs({ loaderData }: Route.ComponentProps) {
  const current = loaderData.path
  return (
    <div className="docs container" data-testid="docs">
      <aside className="docs-aside">
        {/* Narrow screens fold the menu; wide ones show it beside the page (CSS picks one). */}
        <details className="docs-menu">
          <summary>Documentation menu</summary>
          <Sidebar current={current} />
        </details>
        <div className="docs-sidebar">
          <Sidebar current={current} />
        </div>
      </aside>
      <div className="docs-main">
        <SearchForm query={loaderData.query} />
        {loaderData.kind === 'search' ? (
          <article className="docs-article">
            <h1>{loaderData.query === '' ? 'Search' : `Results for “${loaderData.query}”`}</h1>
            {loaderData.query === '' ? (
              <p>Type a word or an operation name, such as resize or erase.</p>
            ) : loaderData.hits.length === 0 ? (
              <p data-testid="docs-no-hits">No page mentions every word of that.</p>
            ) : (
              <ol className="docs-hits" data-testid="docs-hits">
                {loaderData.hits.map((hit) => (
                  <li key={hit.path}>
                    <Link to={hit.href}>{hit.title}</Link>
                    <p>{hit.snippet}</p>
                  </li>
                ))}
              </ol>
            )}
          </article>
        ) : (
          <article className="docs-article">
            <p className="eyebrow">
              {loaderData.operation === null ? 'Documentation' : 'Transformation'}
            </p>
            <h1>{loaderData.title}</h1>
            {loaderData.headings.length > 2 ? (
              <nav className="docs-toc" aria-label="On this page">
                <p className="docs-nav-title">On this page</p>
                <ul>
                  {loaderData.headings
                    .filter((heading) => heading.depth === 2)
                    .map((heading) => (
                      <li key={heading.id}>
                        <a href={`#${heading.id}`}>{heading.text}</a>
                      </li>
                    ))}
                </ul>
              </nav>
            ) : null}
            <div
              className="docs-content"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: our own documents, rendered on the server
              dangerouslySetInnerHTML={{ __html: loaderData.html }}
            />
            {loaderData.example === null || loaderData.operation === null ? null : (
              <section className="docs-example" data-testid="docs-example">
                <h2>Live example</h2>
                {loaderData.example.videoOnly ? (
                  <p>
                    This operation runs on video files: the demo holds no video, so there is no live
                    result here. Upload a video and try it on yours.
                  </p>
                ) : loaderData.example.runnable ? (
                  <LiveImage
                    src={loaderData.example.url}
                    alt={`The demo sample after ${loaderData.operation.pattern}`}
                    slow={loaderData.example.slow}
                    width={451}
                    height={300}
                  />
                ) : (
                  <p>This server has no model for this operation, so there is no live result.</p>
                )}
                <p className="docs-example-links">
                  {loaderData.example.videoOnly ? null : (
                    <a className="button is-small is-primary" href={loaderData.example.playground}>
                      Open in the playground
                    </a>
                  )}
                  <Link
                    className="button is-small is-secondary"
                    to={`/api/plugin?plugin=${encodeURIComponent(loaderData.operation.plugin)}#${loaderData.operation.method}`}
                  >
                    API page
                  </Link>
                </p>
              </section>
            )}
          </article>
        )}
      </div>
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
