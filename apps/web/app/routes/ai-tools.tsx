import { useReducer } from 'react'
import { Form, Link } from 'react-router'
import { AppCard } from '../components/app-card.tsx'
import { SearchField } from '../components/form-field.tsx'
import { PageHero } from '../components/page-hero.tsx'
import { CardListSection } from '../components/page-section.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { isToolRunnable } from '../lib/ai-tool.ts'
import { serverApi } from '../lib/api.server.ts'
import { getDynamicApps } from '../lib/api.ts'
import { useConfig, useSession } from '../lib/app-context.tsx'
import {
  AI_TOOLS_PAGE_SIZE,
  appListPage,
  appListReducer,
  featuredApps,
  INITIAL_APP_LIST,
  parsePageParam,
  parseSearchParam,
} from '../lib/app-list.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/ai-tools.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'AI tools',
    description:
      'Remove backgrounds, upscale, erase watermarks and crop smartly: free AI image tools powered by Tessera.',
  })

// SPEC §7: page, page size, search text, newest first.
export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  const url = new URL(request.url)
  const page = parsePageParam(url.searchParams.get('page'))
  const q = parseSearchParam(url.searchParams.get('q'))
  const answer = await getDynamicApps(api.client, api.config, {
    tags: 'ai-tools',
    pageNo: page,
    pageSize: AI_TOOLS_PAGE_SIZE,
    sortBy: 'createdAt',
    sortOrder: 'desc',
    searchQuery: q,
  }).catch(() => null)
  if (answer === null) {
    // SPEC §8: a failed list is empty, with the default pagination.
    return {
      q,
      items: [],
      pagination: { currentPage: page, pageSize: AI_TOOLS_PAGE_SIZE, hasNext: false, total: 0 },
    }
  }
  // SPEC §7.2: the first page leads with the featured apps, de-duplicated by slug.
  const { items, pagination } = appListPage({
    featured: featuredApps(api.config),
    items: answer.items,
    itemTotal: answer.page.itemTotal ?? answer.items.length,
    page,
    pageSize: AI_TOOLS_PAGE_SIZE,
    query: q,
  })
  return { q, items, pagination }
}

type LoaderData = Route.ComponentProps['loaderData']

export default function AiTools({ loaderData }: Route.ComponentProps) {
  // A new search or page starts a new list.
  return (
    <AiToolsPage key={`${loaderData.q}|${loaderData.pagination.currentPage}`} data={loaderData} />
  )
}

function AiToolsPage({ data }: { data: LoaderData }) {
  const config = useConfig()
  const { client } = useSession()
  const [state, dispatch] = useReducer(appListReducer, data, (initial) => ({
    ...INITIAL_APP_LIST,
    appList: initial.items,
    pagination: initial.pagination,
    search: { query: initial.q, isSearching: false },
  }))
  const list = state.appList
  const pagination = state.pagination
  const loaderData = data

  const loadMore = async () => {
    dispatch({ type: 'load_more_requested' })
    try {
      const next = pagination.currentPage + 1
      const answer = await getDynamicApps(client, config, {
        tags: 'ai-tools',
        pageNo: next,
        pageSize: AI_TOOLS_PAGE_SIZE,
        sortBy: 'createdAt',
        sortOrder: 'desc',
        searchQuery: state.search.query,
      })
      const { items, pagination: nextPagination } = appListPage({
        featured: featuredApps(config),
        items: answer.items,
        itemTotal: answer.page.itemTotal ?? pagination.total,
        page: next,
        pageSize: AI_TOOLS_PAGE_SIZE,
        query: state.search.query,
      })
      dispatch({ type: 'load_more_succeeded', items, pagination: nextPagination })
    } catch {
      dispatch({ type: 'load_more_failed' })
    }
  }

  return (
    <>
      <PageHero
        flush
        eyebrow="AI tools"
        title="AI image tools, free to try"
        lead="Each tool is a delivery URL underneath: try it here, then use the same operation in your own pipeline."
      >
        <Form method="get" role="search" className="search-form">
          <SearchField
            id="q"
            label="Search AI tools"
            name="q"
            placeholder="Search tools"
            defaultValue={loaderData.q}
          />
          <button type="submit" className="button is-primary">
            Search
          </button>
        </Form>
      </PageHero>
      <CardListSection title="All AI tools" titleId="tool-list-heading" className="is-flush-top">
        {list.length === 0 && pagination.currentPage > 1 ? (
          <p className="lead" data-testid="past-the-end">
            Page {pagination.currentPage} is past the end of the list.{' '}
            <Link
              to={
                loaderData.q === ''
                  ? '/ai-tools'
                  : `/ai-tools?q=${encodeURIComponent(loaderData.q)}`
              }
            >
              Back to the first page
            </Link>
          </p>
        ) : list.length === 0 ? (
          <p className="lead" data-testid="no-tools">
            {loaderData.q === ''
              ? 'No AI tools are listed right now.'
              : `No tools match “${loaderData.q}”.`}
          </p>
        ) : (
          <div className="grid cols-3" data-testid="tool-list">
            {list.map((app, index) => (
              <AppCard key={app.slug} app={app} position={index} usable={isToolRunnable(app)} />
            ))}
          </div>
        )}
        {pagination.hasNext ? (
          <p className="text-center space-above-6">
            <button
              type="button"
              className="button is-secondary"
              onClick={loadMore}
              disabled={state.loading.loadMore}
            >
              {state.loading.loadMore ? 'Loading…' : 'Load more'}
            </button>
          </p>
        ) : null}
      </CardListSection>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
